// rtw/hierarchical (MAYA, paper 000 §II.C.2): the model first classifies the
// request as information or task, then sees only that category's tools. Task
// tools are generated from the world at every iteration (open_fridge only while
// a closed fridge is seen, pick_<x> per visible pickable x), so one tool runs
// per iteration: the next one may no longer exist.
import type { Robot } from '../../../robot/robot';
import type { Workflow } from '../../runtime/workflow';
import { mayaInformationTools, mayaTaskTools } from '../../tools/sets/rtw';
import { classifyWith } from '../classify';
import { loopWorkflow } from '../kit/loop';
import { ANSWER_RULES, robotContext } from '../prompt';

export const MAYA_CATEGORIES = [
  { id: 'information', description: 'a question about the robot, what it sees, what it can do, or why it cannot' },
  { id: 'task', description: 'a request that the robot do something physical (open, pick, put, switch, go)' },
] as const;

export function rtwHierarchical(): Workflow {
  return loopWorkflow({
    id: 'rtw/hierarchical',
    title: 'Robotic Tool Workflow: hierarchical (MAYA)',
    description:
      'Classifies each request as information or task and shows only that category; task tools are generated from the world at every step, one per iteration.',
    limits: { maxToolCallsPerIteration: 1 },
    systemPrompt: (r: Robot) =>
      `${robotContext(r)}\n\nThe tools you see depend on the kind of request and on what the robot sees now; they can change after every action. Call one tool at a time.\n${ANSWER_RULES}`,
    classify: ({ model, messages, signal }) =>
      classifyWith(model, messages, MAYA_CATEGORIES, 'You route requests for an assistive robot.', signal),
    tools: (ctx) => (ctx.route === 'task' ? mayaTaskTools(ctx.robot) : mayaInformationTools(ctx.robot)),
  });
}
