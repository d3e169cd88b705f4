// Plays a reference plan through a tool set on a world, as a model's calls would
// run: generators use it to check that a case's gold plan reaches its goal in
// the physics (else the case is broken and not kept), and to learn when each
// step happens in simulated time (to schedule an event during a skill).
import { buildToolSet, setsFor } from '../../agents/tools/sets';
import type { Tool, ToolResult } from '../../agents/tools/tool';
import type { Robot } from '../../robot/robot';
import type { SimControl } from '../../robot/sim/control';
import type { PlanStep } from './case';

export interface PlayedStep {
  step: PlanStep;
  result: ToolResult;
  /** Simulated seconds when the step started and ended. */
  start: number;
  end: number;
}

/** Runs the steps in order; stops at the first failure unless `keepGoing`. */
export async function playPlan(
  robot: Robot,
  control: SimControl,
  toolSet: string | readonly string[],
  steps: readonly PlanStep[],
  opts: { keepGoing?: boolean } = {},
): Promise<{ ok: boolean; played: PlayedStep[] }> {
  const sets = await Promise.all((typeof toolSet === 'string' ? [toolSet] : toolSet).map((s) => buildToolSet(s, robot)));
  const tools = { get: (name: string) => sets.map((s) => s.get(name)).find((t) => t !== undefined) };
  const state = new Map<string, unknown>();
  const played: PlayedStep[] = [];
  for (const step of steps) {
    const tool = tools.get(step.tool);
    const start = control.time();
    const result: ToolResult = tool
      ? await tool.call(step.args, { robot, signal: new AbortController().signal, state })
      : { ok: false, content: `no tool "${step.tool}" in ${toolSet}` };
    played.push({ step, result, start, end: control.time() });
    if (!result.ok && !opts.keepGoing) return { ok: false, played };
  }
  return { ok: played.every((p) => p.result.ok), played };
}

/** Every tool the robot's sets offer, by name (the first set that has a name wins). */
export async function toolsFor(robot: Robot): Promise<Map<string, Tool>> {
  const out = new Map<string, Tool>();
  for (const s of setsFor(robot)) {
    for (const t of await s.build(robot)) if (!out.has(t.name)) out.set(t.name, t);
  }
  return out;
}

/** Every tool of every set the robot can use, grouped by name (sets may share a name with other arguments: pick). */
export async function toolsByName(robot: Robot): Promise<Map<string, Tool[]>> {
  const out = new Map<string, Tool[]>();
  for (const s of setsFor(robot)) {
    for (const t of await s.build(robot)) out.set(t.name, [...(out.get(t.name) ?? []), t]);
  }
  return out;
}
