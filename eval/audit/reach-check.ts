// The audit's own reach check over an arm's chain: can the tool be put at a pose?
// Its own solver (damped least squares on a finite-difference Jacobian, joint
// limits clamped, restarted from the arm's joints, mid-range and seeded random
// joints), sharing only the arm's forward kinematics (the description's
// geometry) with the robot's solver. A robot's "cannot reach" is a lie when this
// reaches the pose within REACHED.
import type { Pose, Vec3 } from '../../sim/math';
import { rotate } from '../../sim/math';
import { seededRandom } from '../../base/seeded-random';

/** Within this of the pose, the pose is reached: 0.5 mm and 0.3°. */
export const REACHED = { metres: 0.0005, degrees: 0.3 };

export interface ReachGoal {
  /** In the arm's mount frame (sim axes: y up). */
  position: Vec3;
  /** The hand's approach and finger-closing directions; absent: the position alone. */
  approach?: Vec3;
  closing?: Vec3;
}

export interface ArmModel {
  limits: ReadonlyArray<readonly [number, number]>;
  /** The tool pose in the mount frame: local +Y the approach axis, local +Z the closing axis. */
  tool(q: readonly number[]): Pose;
}

export interface ReachResult {
  reached: boolean;
  /** The best start's misses. */
  metres: number;
  degrees: number;
}

const STARTS = 12;
const ITERATIONS = 150;
/** Metres of error a radian of turn counts as in the step. */
const TURN_WEIGHT = 0.2;

const cross = (a: Vec3, b: Vec3): Vec3 => ({ x: a.y * b.z - a.z * b.y, y: a.z * b.x - a.x * b.z, z: a.x * b.y - a.y * b.x });
const angle = (a: Vec3, b: Vec3): number =>
  Math.atan2(Math.hypot(cross(a, b).x, cross(a, b).y, cross(a, b).z), a.x * b.x + a.y * b.y + a.z * b.z);

/** Error at q: position (3), then the weighted turn that brings the hand's axes onto the goal's (3). */
function errorAt(arm: ArmModel, goal: ReachGoal, q: readonly number[]): { e: number[]; metres: number; degrees: number } {
  const t = arm.tool(q);
  const p = [goal.position.x - t.p.x, goal.position.y - t.p.y, goal.position.z - t.p.z];
  const metres = Math.hypot(p[0]!, p[1]!, p[2]!);
  if (!goal.approach || !goal.closing) return { e: p, metres, degrees: 0 };
  const a = rotate(t.q, { x: 0, y: 1, z: 0 });
  const c = rotate(t.q, { x: 0, y: 0, z: 1 });
  const ra = cross(a, goal.approach);
  const rc = cross(c, goal.closing);
  const w = [(ra.x + rc.x) / 2, (ra.y + rc.y) / 2, (ra.z + rc.z) / 2].map((v) => v * TURN_WEIGHT);
  const degrees = (Math.max(angle(a, goal.approach), angle(c, goal.closing)) * 180) / Math.PI;
  return { e: [...p, ...w], metres, degrees };
}

/** Solves (J·Jᵀ + λI) y = e by Gaussian elimination (m ≤ 6). */
function solveSmall(A: number[][], b: number[]): number[] | undefined {
  const m = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < m; c++) {
    let piv = c;
    for (let r = c + 1; r < m; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[piv]![c]!)) piv = r;
    if (Math.abs(M[piv]![c]!) < 1e-14) return undefined;
    [M[c], M[piv]] = [M[piv]!, M[c]!];
    for (let r = 0; r < m; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / M[c]![c]!;
      for (let k = c; k <= m; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  return M.map((row, i) => row[m]! / row[i]!);
}

function descend(arm: ArmModel, goal: ReachGoal, start: number[]): ReachResult {
  const n = start.length;
  const clamp = (v: number, i: number): number => Math.min(arm.limits[i]![1], Math.max(arm.limits[i]![0], v));
  let q = start.map(clamp);
  let cur = errorAt(arm, goal, q);
  let cost = cur.e.reduce((s, v) => s + v * v, 0);
  let lambda = 1e-3;
  for (let it = 0; it < ITERATIONS; it++) {
    if (cur.metres <= REACHED.metres && cur.degrees <= REACHED.degrees) break;
    const m = cur.e.length;
    const h = 1e-6;
    const J: number[][] = Array.from({ length: m }, () => new Array<number>(n).fill(0));
    for (let i = 0; i < n; i++) {
      const qp = q.slice();
      qp[i]! += h;
      const ep = errorAt(arm, goal, qp).e;
      // The error falls as the tool nears the goal: its derivative is minus the Jacobian.
      for (let r = 0; r < m; r++) J[r]![i] = -(ep[r]! - cur.e[r]!) / h;
    }
    const A = J.map((ri) => J.map((rj) => ri.reduce((s, v, k) => s + v * rj[k]!, 0)));
    for (let r = 0; r < m; r++) A[r]![r]! += lambda;
    const y = solveSmall(A, cur.e);
    if (!y) break;
    const next = q.map((v, i) => clamp(v + J.reduce((s, row, r) => s + row[i]! * y[r]!, 0), i));
    const tried = errorAt(arm, goal, next);
    const c2 = tried.e.reduce((s, v) => s + v * v, 0);
    if (c2 < cost) {
      q = next;
      cur = tried;
      cost = c2;
      lambda = Math.max(lambda / 3, 1e-9);
    } else if ((lambda *= 10) > 1e6) break;
  }
  return { reached: cur.metres <= REACHED.metres && cur.degrees <= REACHED.degrees, metres: cur.metres, degrees: cur.degrees };
}

/** Tries the arm's joints now, mid-range and seeded random joints; the best miss when none reaches. */
export function reachCheck(arm: ArmModel, goal: ReachGoal, now: readonly number[] | undefined): ReachResult {
  const rand = seededRandom(0xa0d17);
  const span = (i: number): [number, number] => {
    const [lo, hi] = arm.limits[i]!;
    return [Number.isFinite(lo) ? lo : -Math.PI, Number.isFinite(hi) ? hi : Math.PI];
  };
  let best: ReachResult = { reached: false, metres: Infinity, degrees: Infinity };
  for (let s = 0; s < STARTS; s++) {
    const start = arm.limits.map((_, i) => {
      const [lo, hi] = span(i);
      if (s === 0 && now) return now[i]!;
      return s <= 1 ? (lo + hi) / 2 : lo + (hi - lo) * rand();
    });
    const r = descend(arm, goal, start);
    if (r.reached) return r;
    if (r.metres + r.degrees / 1000 < best.metres + best.degrees / 1000) best = r;
  }
  return best;
}
