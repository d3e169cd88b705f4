// A chain arm's reach failures ("reaching X: the target is 1.3 m from the first
// joint; …", "…: no joint values reach the pose from 32 starts: …", "…: joint J
// would need V, outside its limits [lo, hi]"), each with the tool pose it was
// asked for in its base link's frame. Judged by the audit's own reach check
// (reach-check.ts): the words are a lie when that reaches the pose; their
// numbers must agree with the arm's limits and geometry.
import type { Judge } from './check-read';
import { NUM } from './check-judge';
import { type ReachGoal, REACHED, reachCheck } from './reach-check';
import type { Vec3 } from '../../sim/math';

const V = `\\((${NUM}), (${NUM}), (${NUM})\\)`;
const GOAL = ` \\(the goal in (\\S+)'s frame: the tool's point ${V} m, approaching along ${V}, the fingers closing along ${V}\\)$`;
const FAR = new RegExp(`^reaching (.+): the target is (${NUM}) m from the first joint; the arm reaches (${NUM}) m at most${GOAL}`);
const LIMIT = new RegExp(`^reaching (.+): joint (\\S+) would need (${NUM}), outside its limits \\[(${NUM}), (${NUM})\\]${GOAL}`);
const STUCK = new RegExp(
  `^reaching (.+): no joint values reach the pose from (\\d+) starts: the nearest missed by (${NUM}) mm and (${NUM})°${GOAL}`,
);

/** A URDF-frame vector (z up) in the sim's mount frame (y up). */
const fromUrdf = (m: RegExpExecArray, at: number): Vec3 => ({ x: Number(m[at]), y: Number(m[at + 2]), z: -Number(m[at + 1]) });

/** Reads a chain's reach failure and judges it; what it is about (for the caller to judge), or undefined when it is not one. */
export function chainReach(j: Judge, s: string): string | undefined {
  const kin = j.c.world.kinematics;
  const m = FAR.exec(s) ?? LIMIT.exec(s) ?? STUCK.exec(s);
  if (!m || kin?.kind !== 'chain') return undefined;
  const k = m.length - 9;
  const goal: ReachGoal = { position: fromUrdf(m, k), approach: fromUrdf(m, k + 3), closing: fromUrdf(m, k + 6) };
  const now = j.c.world.body.q;
  const tried = (g: ReachGoal) => reachCheck(kin, g, now);
  if (m.input.match(FAR)) {
    const [d, r] = [Number(m[2]), Number(m[3])];
    if (!(d > r)) j.message(`beyond reach, yet nearer than the reach: "${s}"`);
    if (Math.abs(r - kin.reach) > 0.0006) j.lie(`said the arm reaches ${r} m, but its chain reaches ${kin.reach.toFixed(3)} m`);
    const sh = kin.shoulder;
    const real = Math.hypot(goal.position.x - sh.x, goal.position.y - sh.y, goal.position.z - sh.z);
    if (Math.abs(real - d) > 0.0006) j.lie(`said the target is ${d} m from the first joint, but it is ${real.toFixed(3)} m`);
    // Not even the position alone: the hand's direction asks more, never less.
    const r0 = tried({ position: goal.position });
    if (r0.reached) j.lie(`said the tool cannot get to ${pointWords(goal.position)}, but the audit's solver puts it there`);
    return m[1]!;
  }
  if (m.input.match(LIMIT)) {
    const i = kin.jointNames.indexOf(m[2]!);
    const [v, lo, hi] = [Number(m[3]), Number(m[4]), Number(m[5])];
    if (i < 0) j.lie(`named joint ${m[2]}, but the arm has no such joint`);
    else if (Math.abs(kin.limits[i]![0] - lo) > 0.0006 || Math.abs(kin.limits[i]![1] - hi) > 0.0006)
      j.lie(
        `said joint ${m[2]}'s limits are [${lo}, ${hi}], but they are [${kin.limits[i]![0].toFixed(3)}, ${kin.limits[i]![1].toFixed(3)}]`,
      );
    if (v >= lo && v <= hi) j.message(`past its limit, yet within them: "${s}"`);
  } else {
    const [mm, deg] = [Number(m[3]), Number(m[4])];
    if (mm < 0.1 - 0.05 && deg < 0.06 - 0.05)
      j.message(`no joint values reach the pose, yet the nearest is within the solver's tolerance: "${s}"`);
    // Missed by little more than the rounding of the words and the check's own tolerance: nothing to contradict.
    if (mm <= 2 * REACHED.metres * 1000 && deg <= 2 * REACHED.degrees) return m[1]!;
  }
  // The fingers are symmetric: either way round grips the same.
  for (const closing of [goal.closing!, { x: -goal.closing!.x, y: -goal.closing!.y, z: -goal.closing!.z }]) {
    const r = tried({ ...goal, closing });
    if (r.reached) {
      j.lie(
        `said no joint values put the tool at ${pointWords(goal.position)} with the hand as asked, but the audit's solver does (within ${REACHED.metres * 1000} mm and ${REACHED.degrees}°)`,
      );
      break;
    }
  }
  return m[1]!;
}

const pointWords = (p: Vec3): string => `(${p.x.toFixed(3)}, ${p.y.toFixed(3)}, ${p.z.toFixed(3)}) in the mount frame`;
