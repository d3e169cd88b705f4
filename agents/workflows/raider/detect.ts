// One RAIDER issue check (paper 001 §3): a flow over the grounded perception
// tools under the Fig. 4 prompt, run by the program flow manager of §3.2 — all
// tool calls of a reply run, the four warnings, the 20 s limit, fuzzy tool
// names — ending in the final-response JSON. A reply without a readable verdict
// gets one more turn to write it.
import type { Robot } from '../../../robot/robot';
import type { ChatMessage } from '../../models/model';
import type { FlowReason } from '../../runtime/events';
import type { WorkflowRun } from '../../runtime/workflow';
import { buildToolSet } from '../../tools/sets';
import { retrieveUserInformation } from '../../tools/sets/raider';
import type { Tool } from '../../tools/tool';
import { type Objective, type Variant, detectionPrompt } from './prompts';
import { type Verdict, looksLikeVerdict, parseVerdict } from './verdict';

/** §3.2: 20 s per check; every call of a reply runs (up to a bound that only stops runaways). */
export const DETECTION_LIMITS = { timeLimitMs: 20_000, maxIterations: 12, maxToolCallsPerIteration: 8 };

export const DETECTION_SETS = ['raider-household', 'raider-preferences', 'raider-assistive'] as const;

export interface DetectionKit {
  tools: readonly Tool[];
  objective: Objective;
  setId: string;
}

/**
 * The perception tools for this robot: the named RAIDER set, else the scene's if it is one, else the
 * household set; with retrieve_user_information whenever the scene knows something about its user (§5.1).
 */
export async function detectionKit(robot: Robot, toolSet?: string): Promise<DetectionKit> {
  const known = (id: string | undefined): id is string => (DETECTION_SETS as readonly string[]).includes(id ?? '');
  const setId = known(toolSet) ? toolSet : known(robot.info.scene.toolSet) ? robot.info.scene.toolSet : 'raider-household';
  const tools = [...(await buildToolSet(setId, robot)).list()];
  if (robot.info.scene.userInfo.length && !tools.some((t) => t.name === 'retrieve_user_information')) {
    tools.push(retrieveUserInformation(robot.info.scene.userInfo));
  }
  return { tools, objective: setId === 'raider-assistive' ? 'assistive' : 'household', setId };
}

export interface Detection {
  verdict: Verdict | undefined;
  /** The model's last reply (the verdict's text), or why there is none. */
  final: string | undefined;
  reason: FlowReason;
  error?: { message: string; kind?: string };
}

export interface DetectSpec {
  /** Full stage path, e.g. "detect" or "recovery/check". */
  stage: string;
  kit: DetectionKit;
  variant: Variant;
  query: string;
  /** The prompt a person edited (replaces Fig. 4's). */
  system?: string;
  signal?: AbortSignal;
}

export async function detect(ctx: WorkflowRun, spec: DetectSpec): Promise<Detection> {
  const system = spec.system ?? detectionPrompt(ctx.robot, spec.kit.tools, spec.kit.objective, spec.variant);
  let messages: ChatMessage[] | undefined;
  let input = spec.query;
  for (let attempt = 0; attempt < 2; attempt++) {
    const r = await ctx.flow({
      stage: spec.stage,
      ...(messages ? { messages } : { system }),
      input,
      tools: spec.kit.tools,
      limits: DETECTION_LIMITS,
      looksFinal: looksLikeVerdict,
      matchToolNames: true,
      ...(spec.signal ? { signal: spec.signal } : {}),
    });
    messages = r.messages;
    if (r.reason !== 'final') return { verdict: undefined, final: r.final, reason: r.reason, ...(r.error ? { error: r.error } : {}) };
    const v = parseVerdict(r.final ?? '');
    if (v.ok) return { verdict: v.verdict, final: r.final, reason: 'final' };
    input = v.message;
  }
  return { verdict: undefined, final: undefined, reason: 'final', error: { message: 'RAIDER gave no readable final response' } };
}
