// rtw/basic (TORO, paper 000 §II.C.1): the baseline tool workflow. One loop over
// a flat list — the scene's tool set plus the robot's bounded motions and static
// information — and several calls per turn up to a limit, since these tools do
// not appear or vanish with the world.
import type { Robot } from '../../../robot/robot';
import type { Workflow } from '../../runtime/workflow';
import { buildToolSet } from '../../tools/sets';
import { rtwBasicTools } from '../../tools/sets/rtw';
import type { Tool } from '../../tools/tool';
import { loopWorkflow } from '../kit/loop';
import { ANSWER_RULES, robotContext } from '../prompt';

export const BASIC_CALLS_PER_TURN = 4;

export async function basicTools(robot: Robot, toolSet: string): Promise<Tool[]> {
  const set = (await buildToolSet(toolSet, robot)).list();
  const names = new Set(set.map((t) => t.name));
  return [...set, ...rtwBasicTools(robot).filter((t) => !names.has(t.name))];
}

export async function rtwBasic(robot: Robot, toolSet = robot.info.scene.toolSet): Promise<Workflow> {
  const tools = await basicTools(robot, toolSet);
  return loopWorkflow({
    id: 'rtw/basic',
    title: 'Robotic Tool Workflow: basic (TORO)',
    description: `A flat list of ${tools.length} tools (${toolSet} plus bounded motions and static information); up to ${BASIC_CALLS_PER_TURN} calls per turn.`,
    limits: { maxToolCallsPerIteration: BASIC_CALLS_PER_TURN },
    systemPrompt: (r) =>
      `${robotContext(r)}\n\nYou may call several tools in one turn (up to ${BASIC_CALLS_PER_TURN}); they run in order. Motion parameters have ranges: stay inside them.\n${ANSWER_RULES}`,
    tools: () => tools,
  });
}
