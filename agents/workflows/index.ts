// The workflows a session can run, by id. Each composes the runtime's flow
// manager with a tool hierarchy and a prompt; `flat` runs any tool set as one list.
import type { Robot } from '../../robot/robot';
import type { Workflow } from '../runtime/workflow';
import { buildToolSet } from '../tools/sets';
import { alrmWorkflow } from './alrm/workflow';
import { loopWorkflow } from './kit/loop';
import { RAIDER_INFO } from './raider/info';
import { raiderWorkflow } from './raider/workflow';
import { dfkiWorkflow } from './dfki';
import { etpWorkflow } from './etp';
import { ANSWER_RULES, robotContext } from './prompt';
import { rtwBasic } from './rtw/basic';
import { rtwHierarchical } from './rtw/hierarchical';
import { rtwWorldModel } from './rtw/world-model';

export interface WorkflowInfo {
  id: string;
  /** What it does, in plain words (the app's picker shows this first). */
  title: string;
  /** The paper it comes from: "000"…"004" (see ../shared/papers/README.md). */
  paper: string;
  /** Where in the paper the mechanism is described. */
  section: string;
  /** The paper's own name for it, shown second. */
  source: string;
  description: string;
  /** The stages a turn may run, in order: each names a flow in the trace. */
  stages: readonly string[];
  /**
   * Set when the workflow calls no model (a paper's fixed baseline): the name its
   * runs are recorded under in place of a model's, so no model is credited with them.
   */
  noModel?: string;
}

export const WORKFLOWS: readonly WorkflowInfo[] = [
  {
    id: 'rtw/basic',
    title: 'One list of tools, several calls a turn',
    paper: '000',
    section: '§II.C.1',
    source: 'TORO (Robotic Tool Workflows)',
    description: 'One flat list of tools; several calls per turn up to a limit; ranges validated at run time.',
    stages: ['agent'],
  },
  {
    id: 'rtw/hierarchical',
    title: 'Sort the request first, then show only its tools',
    paper: '000',
    section: '§II.C.2',
    source: 'MAYA (Robotic Tool Workflows)',
    description: 'Classify information vs task; task tools generated from the world; one tool per iteration.',
    stages: ['agent'],
  },
  {
    id: 'rtw/world-model',
    title: "Read and edit the robot's world model",
    paper: '000',
    section: '§II.C.3',
    source: 'AIMM (Robotic Tool Workflows)',
    description: 'Classify getter vs setter; guarded query templates when they do not suffice.',
    stages: ['agent'],
  },
  ...RAIDER_INFO,
  {
    id: 'alrm/tap',
    title: 'Plan the steps, then act with tool calls',
    paper: '002',
    section: '§III.A, §III.B.1',
    source: 'ALRM Tool-as-Policy',
    stages: ['planner', 'planner/executor'],
    description: 'A ReAct planner hands each subtask to an executor that calls the eight robot API actions as tools.',
  },
  {
    id: 'alrm/cap',
    title: 'Plan the steps, then act by writing a program',
    paper: '002',
    section: '§III.A, §III.B.2',
    source: 'ALRM Code-as-Policy',
    stages: ['planner', 'planner/executor'],
    description: 'A ReAct planner hands each subtask to an executor that writes a JavaScript program, run in the QuickJS sandbox.',
  },
  {
    id: 'flat',
    title: "The scene's tool set as one list",
    paper: '001',
    section: '§3.2',
    source: "RAIDER's flow manager, any tool set",
    description: 'Any tool set (RAIDER, ALRM, DFKI, farm…) in the common loop, one call per turn.',
    stages: ['agent'],
  },
  {
    id: 'dfki',
    title: 'Plan, act and check the result',
    paper: '003',
    section: '§3–§6',
    source: 'DFKI planner–executor with router and critic',
    description:
      'A router sends questions to a chatbot and tasks to a planner–executor (reflect, act, snapshot, check_events) whose prompt is built from the robot and scene; a goal-completion critic sends it back to work until the goal is reached or blocked; critical events interrupt a running skill.',
    stages: ['router', 'chatbot', 'planner', 'critic'],
  },
  {
    id: 'etp',
    title: 'Find the tools a task needs, then use them',
    paper: '004',
    section: '§3.1',
    source: 'Embodied Tool Protocol',
    description:
      'Starts from discover_tools, describe_tool and invoke_tool over a registry of every tool the robot can use, ranked by need; discovered tools join the list; every call is isolated with its own timeout; background monitors raise events.',
    stages: ['agent', 'monitors'],
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
    case 'raider/vqa':
      return await raiderWorkflow(id, robot, opts.toolSet ? { toolSet: opts.toolSet } : {});
    case 'alrm/tap':
    case 'alrm/cap':
      if (!robot.has('arm')) throw new UnknownWorkflowError(`${id} needs a robot with an arm; ${robot.info.name} has none`);
      return alrmWorkflow(id === 'alrm/tap' ? 'tap' : 'cap');
    case 'dfki':
      return await dfkiWorkflow(robot);
    case 'etp':
      return await etpWorkflow(robot);
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
