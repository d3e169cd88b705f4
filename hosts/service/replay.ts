// Replaying an evaluation case in the app's 3D view: the case's world is built
// from its spec (the scene, its edits, the setup actions) and becomes the current
// scene, then the tool calls its trace recorded run again, in order, in paced
// time, each shown as tool activity. The world is deterministic, so the replay
// ends where the recorded case ended (the same world hash).
import type { Response } from '../../contract/api';
import type { AppEvent, SceneMeta } from '../../contract/schemas';
import type { SimControl } from '../../robot/sim/control';
import { SimRobot } from '../../robot/sim/sim-robot';
import type { EvalCase } from '../../eval/core/case';
import { toolsByName } from '../../eval/core/play';
import { withSimulatedUser } from '../../eval/core/simulated-user';
import { buildCaseWorld } from '../../eval/core/world';

export interface ReplayHooks {
  seed: number;
  install(robot: SimRobot, control: SimControl): Promise<SceneMeta>;
  emit(e: AppEvent): void;
  nextCallId(): number;
  targetsOf(args: unknown): string[];
  afterCall(): void;
}

/** Workflow plumbing traced as calls (hand-offs, programs, the classify step): their inner calls replay instead. */
const CONTAINERS = new Set(['executor', 'run_program', 'classify_request', 'request_query_tools']);

export async function replayCase(
  c: EvalCase,
  calls: Array<{ tool: string; args: unknown }>,
  hooks: ReplayHooks,
): Promise<Response<'replayCase'>> {
  const cw = await buildCaseWorld(c.world, { seed: hooks.seed });
  const sim = new SimRobot(cw.world);
  await hooks.install(sim, cw.control);
  const robot = withSimulatedUser(sim, cw.control, c.answers);
  const tools = await toolsByName(robot);
  // The tool the call was made to: of those with its name, the one whose arguments it fits.
  const toolOf = (call: { tool: string; args: unknown }) => (tools.get(call.tool) ?? []).find((t) => t.parse(call.args).ok);
  const playable = calls.filter((x) => !CONTAINERS.has(x.tool) && toolOf(x));
  const state = new Map<string, unknown>();
  // The replay runs on; the view shows it as it goes.
  void (async () => {
    for (const call of playable) {
      const callId = hooks.nextCallId();
      const targets = hooks.targetsOf(call.args);
      hooks.emit({ type: 'tool_activity', phase: 'start', callId, tool: call.tool, args: call.args, targets, ok: null, source: 'agent' });
      let ok = false;
      try {
        ok = (await toolOf(call)!.call(call.args, { robot, signal: new AbortController().signal, state })).ok;
      } catch {
        ok = false;
      }
      hooks.afterCall();
      hooks.emit({ type: 'tool_activity', phase: 'end', callId, tool: call.tool, args: call.args, targets, ok, source: 'agent' });
    }
  })();
  const skipped = calls.length - playable.length;
  return {
    ok: true,
    message: `replaying ${c.id}: ${playable.length} recorded calls${skipped ? ` (${skipped} workflow hand-offs shown through their inner calls)` : ''}`,
    calls: playable.length,
  };
}
