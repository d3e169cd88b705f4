// The candidate-set loop EmbodiedToolBench's tasks need (paper 004 §3.2): each
// case offers its own candidate tools (four for selection, the designated tool
// and the actions for execution, a mixed set for chains), taken from every tool
// set the robot can use, in the common flow. It stands in until the `etp`
// workflow (the registry with discovery by capability) lands in agents/.
import type { Robot } from '../../../robot/robot';
import type { Workflow } from '../../../agents/runtime/workflow';
import { findToolSet } from '../../../agents/tools/sets';
import type { Tool } from '../../../agents/tools/tool';
import { toolsFor } from '../../core/play';
import { loopWorkflow } from '../../../agents/workflows/kit/loop';
import { ANSWER_RULES, robotContext } from '../../../agents/workflows/prompt';

export const ETP_CANDIDATES = 'etp/candidates';

export { toolsFor as allTools } from '../../core/play';

/** Sets looked in first (the candidates come from these); the rest only when a name is still missing. */
const USUAL = ['raider-household', 'raider-recovery', 'alrm', 'world-model'];

async function findTools(robot: Robot, names: readonly string[]): Promise<Map<string, Tool>> {
  const out = new Map<string, Tool>();
  for (const id of USUAL) {
    if (names.every((n) => out.has(n))) return out;
    const def = findToolSet(id);
    if (!def || !def.requires.every((c) => robot.has(c))) continue;
    for (const t of await def.build(robot)) if (!out.has(t.name)) out.set(t.name, t);
  }
  if (names.every((n) => out.has(n))) return out;
  for (const [n, t] of await toolsFor(robot)) if (!out.has(n)) out.set(n, t);
  return out;
}

export async function candidatesWorkflow(robot: Robot, names: readonly string[]): Promise<Workflow> {
  const all = await findTools(robot, names);
  const missing = names.filter((n) => !all.has(n));
  if (missing.length) throw new Error(`${ETP_CANDIDATES}: no tool ${missing.join(', ')} for ${robot.info.name}`);
  const tools = names.map((n) => all.get(n)!);
  return loopWorkflow({
    id: ETP_CANDIDATES,
    title: 'Candidate tools (EmbodiedToolBench)',
    description: "The case's candidate tools as one list, one call per turn.",
    systemPrompt: (r) =>
      `${robotContext(r)}\n\nCall a tool only when the request needs one; choose the tool that fits best among those offered.\n${ANSWER_RULES}`,
    tools: () => tools,
  });
}
