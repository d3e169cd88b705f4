// The static checks of the safety chain: what can be decided from a skill call
// and the robot's info alone, before anything is asked of the robot. Numbers
// must be finite (dimos and ros-mcp-server#283 found NaN and infinite velocities
// reaching robots; anchors-2026.md §4.3: "clamp and validate every numeric input
// before the approver runs"), targets must lie in the robot's workspace, and
// relative motions, waits and timeouts are clamped to limits.
import { z } from 'zod';
import type { RobotInfo, Vec3Tuple } from '../../../robot/robot';
import type { SkillCall } from '../../../robot/skills';

export const SafetyLimitsSchema = z.strictObject({
  /** Largest relative base step, each of forward and left, metres. */
  maxStepM: z.number().positive().max(100),
  /** Largest turn of one base step, degrees. */
  maxTurnDeg: z.number().positive().max(360),
  /** Largest relative tool move, each axis, metres. */
  maxNudgeM: z.number().positive().max(10),
  /** Longest wait or listening timeout, seconds. */
  maxWaitS: z.number().positive().max(86_400),
  /** Longest text to speak, characters. */
  maxSpeechChars: z.int().positive().max(100_000),
  /** Motion commands allowed within `rateWindowS` of the robot's clock. */
  maxMotions: z.int().positive().max(10_000),
  rateWindowS: z.number().positive().max(3600),
  /** Below this battery percent only charging runs (default: the robot's critical threshold is left to the robot; 0 = empty). */
  minBatteryPercent: z.number().min(0).max(100),
  /** Extra margin around the workspace, metres. */
  workspaceMarginM: z.number().min(0).max(10),
  /** How long the first motion waits for a robot's first e-stop state before refusing, seconds. */
  startupWaitS: z.number().min(0).max(60),
});
export type SafetyLimits = z.infer<typeof SafetyLimitsSchema>;

/**
 * Limits generous enough that no tool of the built-in sets trips them in a
 * simulated run (rtw's take_a_step is ±0.15 m, a farm charge waits an hour), and
 * tight enough that a runaway call cannot send a robot across a room.
 */
export const DEFAULT_SAFETY_LIMITS: SafetyLimits = {
  maxStepM: 1,
  maxTurnDeg: 180,
  maxNudgeM: 0.25,
  maxWaitS: 3600,
  maxSpeechChars: 2000,
  maxMotions: 30,
  rateWindowS: 10,
  minBatteryPercent: 0,
  workspaceMarginM: 0.05,
  startupWaitS: 3,
};

export interface StaticCheck {
  /** The call as it may run (clamped), when it may run at all. */
  call: SkillCall;
  verdict: 'allow' | 'clamp' | 'refuse';
  checks: Array<'finite' | 'workspace' | 'clamp'>;
  reasons: string[];
}

/** Paths of every number that is NaN or infinite, e.g. "target.position[1]". */
export function nonFinite(value: unknown, path = ''): string[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [path || '(value)'];
  if (Array.isArray(value)) return value.flatMap((v, i) => nonFinite(v, `${path}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => nonFinite(v, path ? `${path}.${k}` : k));
  return [];
}

/**
 * Why a world point lies outside the workspace box, in words that hold in any
 * frame: a height (world y is up) or a distance beyond the box's footprint, so a
 * tool that speaks the robot's base frame can pass the message on unchanged.
 */
function outside(p: Vec3Tuple, ws: NonNullable<RobotInfo['workspace']>, margin: number): string | undefined {
  const lo = ws.min.map((v) => v - margin);
  const hi = ws.max.map((v) => v + margin);
  const beyond = (i: number) => Math.max(lo[i]! - p[i]!, p[i]! - hi[i]!, 0);
  const side = Math.hypot(beyond(0), beyond(2));
  if (side > 0) return `it lies ${round(side)} m beyond the edge of the area the robot works in`;
  if (p[1]! < lo[1]! || p[1]! > hi[1]!)
    return `it is ${round(p[1]!)} m above the floor; the robot works between ${round(lo[1]!)} and ${round(hi[1]!)} m above the floor`;
  return undefined;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Finite numbers, workspace bounds and clamps; never touches the robot. */
export function staticCheck(call: SkillCall, info: RobotInfo, limits: SafetyLimits): StaticCheck {
  const bad = nonFinite(call.args);
  if (bad.length) {
    return {
      call,
      verdict: 'refuse',
      checks: ['finite'],
      reasons: [`${bad.join(', ')} must be a finite number (NaN and infinity are refused)`],
    };
  }
  const ws = info.workspace;
  const point =
    call.skill === 'arm.place' && call.args.target.kind === 'point'
      ? call.args.target.position
      : call.skill === 'arm.moveTool'
        ? call.args.pose.position
        : undefined;
  if (ws && point) {
    const why = outside(point, ws, limits.workspaceMarginM);
    if (why)
      return {
        call,
        verdict: 'refuse',
        checks: ['workspace'],
        reasons: [`the target at (${point.map(round).join(', ')}) is outside the robot's workspace: ${why}`],
      };
  }
  const reasons: string[] = [];
  const clamp = (name: string, v: number, lo: number, hi: number, unit: string): number => {
    const c = Math.min(hi, Math.max(lo, v));
    if (c !== v) reasons.push(`${name} clamped from ${round(v)} to ${round(c)} ${unit}`);
    return c;
  };
  let next: SkillCall = call;
  switch (call.skill) {
    case 'base.step': {
      const { forward, left, turnDeg } = call.args;
      const m = limits.maxStepM;
      next = {
        skill: 'base.step',
        args: {
          forward: clamp('forward', forward, -m, m, 'm'),
          left: clamp('left', left, -m, m, 'm'),
          turnDeg: clamp('turn', turnDeg, -limits.maxTurnDeg, limits.maxTurnDeg, '°'),
        },
      };
      break;
    }
    case 'arm.nudge': {
      const m = limits.maxNudgeM;
      next = {
        skill: 'arm.nudge',
        args: {
          forward: clamp('forward', call.args.forward, -m, m, 'm'),
          left: clamp('left', call.args.left, -m, m, 'm'),
          up: clamp('up', call.args.up, -m, m, 'm'),
        },
      };
      break;
    }
    case 'arm.moveTool':
      next = { skill: 'arm.moveTool', args: { pose: { ...call.args.pose, tiltDeg: clamp('tilt', call.args.pose.tiltDeg, 0, 90, '°') } } };
      break;
    case 'robot.wait':
      next = { skill: 'robot.wait', args: { seconds: clamp('seconds', call.args.seconds, 0, limits.maxWaitS, 's') } };
      break;
    case 'rover.charge':
      next = { skill: 'rover.charge', args: { targetPercent: clamp('target', call.args.targetPercent, 0, 100, '%') } };
      break;
    case 'speech.ask':
    case 'speech.listen': {
      const t = call.args.timeoutSeconds;
      if (t !== undefined) {
        const c = clamp('timeout', t, 0, limits.maxWaitS, 's');
        next = { ...call, args: { ...call.args, timeoutSeconds: c } } as SkillCall;
      }
      break;
    }
    case 'speech.say':
      if (call.args.text.length > limits.maxSpeechChars) {
        reasons.push(`text cut from ${call.args.text.length} to ${limits.maxSpeechChars} characters`);
        next = { skill: 'speech.say', args: { text: call.args.text.slice(0, limits.maxSpeechChars) } };
      }
      break;
    default:
      break;
  }
  return reasons.length
    ? { call: next, verdict: 'clamp', checks: ['clamp'], reasons }
    : { call, verdict: 'allow', checks: [], reasons: [] };
}
