// The workflows a session can run, by id. Each composes the runtime's flow
// manager with a tool hierarchy and a prompt; `flat` runs any tool set as one list.
import type { Robot } from '../../robot/robot';
import type { Workflow } from '../runtime/workflow';
import { buildToolSet } from '../tools/sets';
import { loopWorkflow } from './kit/loop';
import { ANSWER_RULES, robotContext } from './prompt';
import { rtwBasic } from './rtw/basic';
import { rtwHierarchical } from './rtw/hierarchical';
import { rtwWorldModel } from './rtw/world-model';

export interface WorkflowInfo {
  id: string;
  title: string;
  paper: string;
  description: string;
}

export const WORKFLOWS: readonly WorkflowInfo[] = [
  {
    id: 'rtw/basic',
    title: 'Basic tool workflow (TORO)',
    paper: '000 §II.C.1',
    description: 'One flat list of tools; several calls per turn up to a limit; ranges validated at run time.',
  },
  {
    id: 'rtw/hierarchical',
    title: 'Hierarchical, dynamic tools (MAYA)',
    paper: '000 §II.C.2',
    description: 'Classify information vs task; task tools generated from the world; one tool per iteration.',
  },
  {
    id: 'rtw/world-model',
    title: 'World-model getters, setters and queries (AIMM)',
    paper: '000 §II.C.3',
    description: 'Classify getter vs setter; guarded query templates when they do not suffice.',
  },
  {
    id: 'flat',
    title: "The scene's tool set as one list",
    paper: '001-003',
    description: 'Any tool set (RAIDER, ALRM, DFKI, farm…) in the common loop, one call per turn.',
  },
];

export class UnknownWorkflowError extends Error {}

export async function createWorkflow(id: string, robot: Robot, opts: { toolSet?: string } = {}): Promise<Workflow> {
  const set = opts.toolSet ?? robot.info.scene.toolSet;
  switch (id) {
    case 'rtw/basic':
      return await rtwBasic(robot, set);
    case 'rtw/hierarchical':
      return rtwHierarchical();
    case 'rtw/world-model':
      return rtwWorldModel();
    case 'flat': {
      const tools = (await buildToolSet(set, robot)).list();
      return loopWorkflow({
        id: 'flat',
        title: `Tool set ${set}`,
        description: `The ${set} tools as one list, one call per turn.`,
        systemPrompt: (r) => `${robotContext(r)}\n\n${ANSWER_RULES}`,
        tools: () => tools,
      });
    }
    default:
      throw new UnknownWorkflowError(`unknown workflow "${id}"; workflows: ${WORKFLOWS.map((w) => w.id).join(', ')}`);
  }
}
