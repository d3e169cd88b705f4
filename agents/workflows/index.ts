// The workflows a session can run, by id. Each composes the runtime's flow
// manager with a tool hierarchy and a prompt; `flat` runs any tool set as one list.
import type { Robot } from '../../robot/robot';
import type { Workflow } from '../runtime/workflow';
import { buildToolSet } from '../tools/sets';
import { alrmWorkflow } from './alrm/workflow';
import { loopWorkflow } from './kit/loop';
import { RAIDER_INFO } from './raider/info';
import { raiderWorkflow } from './raider/workflow';
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
  ...RAIDER_INFO,
  {
    id: 'alrm/tap',
    title: 'Planner and executor, actions as tool calls (ALRM Tool-as-Policy)',
    paper: '002 §III.A, §III.B.1',
    description: 'A ReAct planner hands each subtask to an executor that calls the eight robot API actions as tools.',
  },
  {
    id: 'alrm/cap',
    title: 'Planner and executor, actions as a sandboxed program (ALRM Code-as-Policy)',
    paper: '002 §III.A, §III.B.2',
    description: 'A ReAct planner hands each subtask to an executor that writes a JavaScript program, run in the QuickJS sandbox.',
  },
  {
    id: 'flat',
    title: "The scene's tool set as one list",
    paper: '001-003',
    description: 'Any tool set (RAIDER, ALRM, planner-executor, farm…) in the common loop, one call per turn.',
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
    case 'raider':
    case 'raider/basic':
    case 'raider/qgen':
    case 'raider/grnd':
    case 'raider/qgen-grnd':
    case 'raider/precond':
    case 'raider/full-scene':
      return await raiderWorkflow(id, robot, opts.toolSet ? { toolSet: opts.toolSet } : {});
    case 'alrm/tap':
    case 'alrm/cap':
      if (!robot.has('arm')) throw new UnknownWorkflowError(`${id} needs a robot with an arm; ${robot.info.name} has none`);
      return alrmWorkflow(id === 'alrm/tap' ? 'tap' : 'cap');
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
