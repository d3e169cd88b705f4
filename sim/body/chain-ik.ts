// Inverse kinematics for any serial chain: Levenberg–Marquardt on the tip's
// position and orientation error (damping from the error itself, after
// Sugihara, raised when a step does not help), each step clamped into the joint
// limits, a redundant arm pulled toward mid-range in the Jacobian's null space.
// It starts from the current joints, then from deterministic pseudo-random
// seeds. A failure says why: out of reach (distance against reach), a joint
// limit (reachable only past one), or no convergence (the best residual).
import type { V3 } from '../../scenes/urdf/model';
import { type Chain, forwardInto } from './chain';
import { type Quat4, type Transform, choleskyBack, choleskySolve, fromPose, quatOf, rotationError } from './chain-math';
import { seededRandom } from '../../base/seeded-random';

export interface IkGoal {
  /** Tip position in the chain's base frame (metres). */
  position: V3;
  /** Tip orientation [x, y, z, w] in the base frame; null: position only. */
  orientation: Quat4 | null;
}

export interface IkOptions {
  /** The joints now (tried first, and continuous joints end nearest them). */
  seed?: ArrayLike<number>;
  /** Starts tried, the seed's included (default 32). */
  attempts?: number;
  /** Iterations per start (default 80). */
  iterations?: number;
  /** Metres (default 0.1 mm). */
  positionTolerance?: number;
  /** Radians (default 0.001, 0.06°). */
  orientationTolerance?: number;
}

export type ChainIkFailure =
  | { kind: 'bad_goal'; field: 'position' | 'orientation' }
  | { kind: 'out_of_reach'; distance: number; reach: number }
  | { kind: 'joint_limit'; joint: string; value: number; lower: number; upper: number }
  | { kind: 'no_convergence'; positionError: number; orientationError: number; attempts: number };

export type ChainIkResult =
  | { ok: true; joints: Float64Array; positionError: number; orientationError: number; attempts: number; iterations: number }
  | { ok: false; failure: ChainIkFailure };

export function describeIkFailure(f: ChainIkFailure): string {
  const mm = (m: number) => `${(m * 1000).toFixed(1)} mm`;
  switch (f.kind) {
    case 'bad_goal':
      return f.field === 'position'
        ? 'the goal position is not three finite numbers'
        : 'the goal orientation is not a quaternion of four finite numbers, not all zero';
    case 'out_of_reach':
      return `the target is ${f.distance.toFixed(3)} m from the first joint; the arm reaches ${f.reach.toFixed(3)} m at most`;
    case 'joint_limit':
      return `joint ${f.joint} would need ${f.value.toFixed(3)}, outside its limits [${f.lower.toFixed(3)}, ${f.upper.toFixed(3)}]`;
    case 'no_convergence':
      return `no joint values reach the pose from ${f.attempts} starts: the nearest missed by ${mm(f.positionError)} and ${((f.orientationError * 180) / Math.PI).toFixed(1)}°`;
  }
}

/** Metres of position error one radian of orientation error counts as. */
const ROTATION_SCALE = 0.3;
/** Damping floor (the error term scales the rest). */
const DAMPING_FLOOR = 1e-6;
/** Gain of the pull toward mid-range, per iteration, in the null space. */
const MID_PULL = 0.05;

/** Iterations between progress checks, and the error ratio a start must beat over them. */
const STALL_WINDOW = 5;
const STALL_RATIO = 0.7;

/** A solver with its scratch allocated once: solve() allocates only its answer. */
export interface ChainSolver {
  chain: Chain;
  solve(goal: IkGoal, options?: IkOptions): ChainIkResult;
}

export function chainSolver(chain: Chain): ChainSolver {
  const n = chain.variables.length;
  const k = chain.moving.length;
  const lower = Float64Array.from(chain.variables, (v) => v.lower);
  const upper = Float64Array.from(chain.variables, (v) => v.upper);
  const mid = Float64Array.from(chain.variables, (v) =>
    Number.isFinite(v.lower) && Number.isFinite(v.upper) ? (v.lower + v.upper) / 2 : 0,
  );
  const s = {
    target: new Float64Array(12),
    tip: new Float64Array(12),
    origins: new Float64Array(k * 3),
    axes: new Float64Array(k * 3),
    e: new Float64Array(6),
    eTry: new Float64Array(6),
    J: new Float64Array(6 * n),
    A: new Float64Array(36),
    y: new Float64Array(6),
    w: new Float64Array(6),
    q: new Float64Array(n),
    qTry: new Float64Array(n),
    dq: new Float64Array(n),
    z: new Float64Array(n),
    best: new Float64Array(n),
    free: new Uint8Array(n),
    r: new Float64Array(6),
  };
  const unbounded = { lower: lower.map(() => -Infinity), upper: upper.map(() => Infinity) };

  /** Error into e (position, then scaled rotation) at q; returns ½|e|². */
  function error(q: Float64Array, m: number, e: Float64Array, withJacobian: boolean): number {
    forwardInto(chain, q, s.tip, s.origins, s.axes);
    const t = s.target;
    const tip = s.tip;
    e[0] = t[3]! - tip[3]!;
    e[1] = t[7]! - tip[7]!;
    e[2] = t[11]! - tip[11]!;
    if (m === 6) {
      rotationError(t, tip, e, 3);
      e[3]! *= ROTATION_SCALE;
      e[4]! *= ROTATION_SCALE;
      e[5]! *= ROTATION_SCALE;
    }
    let E = 0;
    for (let i = 0; i < m; i++) E += e[i]! * e[i]!;
    if (withJacobian) jacobian(m);
    return E / 2;
  }

  function jacobian(m: number): void {
    const J = s.J;
    J.fill(0, 0, m * n);
    const px = s.tip[3]!;
    const py = s.tip[7]!;
    const pz = s.tip[11]!;
    for (let j = 0; j < k; j++) {
      const mv = chain.moving[j]!;
      const c = mv.variable;
      const g = mv.multiplier;
      const zx = s.axes[j * 3]!;
      const zy = s.axes[j * 3 + 1]!;
      const zz = s.axes[j * 3 + 2]!;
      if (mv.prismatic) {
        J[c]! += g * zx;
        J[n + c]! += g * zy;
        J[2 * n + c]! += g * zz;
        continue;
      }
      const rx = px - s.origins[j * 3]!;
      const ry = py - s.origins[j * 3 + 1]!;
      const rz = pz - s.origins[j * 3 + 2]!;
      J[c]! += g * (zy * rz - zz * ry);
      J[n + c]! += g * (zz * rx - zx * rz);
      J[2 * n + c]! += g * (zx * ry - zy * rx);
      if (m === 6) {
        J[3 * n + c]! += g * zx * ROTATION_SCALE;
        J[4 * n + c]! += g * zy * ROTATION_SCALE;
        J[5 * n + c]! += g * zz * ROTATION_SCALE;
      }
    }
  }

  /**
   * The damped step into s.dq, limits as an active set: a joint the step would
   * carry past a limit stops at it, and the others are solved again for what
   * is left of the error. False when the system cannot be solved.
   */
  function step(m: number, lambda: number, lo: Float64Array, hi: Float64Array): boolean {
    const { J, A, y, q, dq, free, r: rest, e } = s;
    free.fill(1);
    for (let i = 0; i < m; i++) rest[i] = e[i]!;
    for (let pass = 0; pass < 4; pass++) {
      // A = J·Jᵀ + λI (m×m) over the free joints: the damped step is Jᵀ·A⁻¹·e, n×n work avoided.
      for (let r = 0; r < m; r++)
        for (let c = 0; c <= r; c++) {
          let sum = 0;
          for (let i = 0; i < n; i++) if (free[i]) sum += J[r * n + i]! * J[c * n + i]!;
          A[r * m + c] = sum;
          A[c * m + r] = sum;
        }
      for (let r = 0; r < m; r++) A[r * m + r]! += lambda;
      for (let r = 0; r < m; r++) y[r] = rest[r]!;
      if (!choleskySolve(A, y, m)) return false;
      let blocked = false;
      for (let i = 0; i < n; i++) {
        if (!free[i]) continue;
        let sum = 0;
        for (let r = 0; r < m; r++) sum += J[r * n + i]! * y[r]!;
        dq[i] = sum;
        const to = q[i]! + sum;
        if (to > hi[i]! || to < lo[i]!) {
          dq[i] = (to > hi[i]! ? hi[i]! : lo[i]!) - q[i]!;
          free[i] = 0;
          blocked = true;
          for (let r = 0; r < m; r++) rest[r]! -= J[r * n + i]! * dq[i]!;
        }
      }
      if (!blocked) break;
    }
    if (n > m) nullPull(m, lo, hi);
    return true;
  }

  // The pull toward mid-range over the free joints, with what the task would feel of it projected out.
  function nullPull(rows: number, lo: Float64Array, hi: Float64Array): void {
    const { J, A, w, q, dq, z, free } = s;
    for (let i = 0; i < n; i++) {
      const range = hi[i]! - lo[i]!;
      z[i] = free[i] && Number.isFinite(range) && range > 0 ? (MID_PULL * (mid[i]! - q[i]!) * Math.PI) / range : 0;
    }
    for (let r = 0; r < rows; r++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += J[r * n + i]! * z[i]!;
      w[r] = sum;
    }
    choleskyBack(A, w, rows);
    for (let i = 0; i < n; i++) {
      if (!free[i]) continue;
      let sum = z[i]!;
      for (let r = 0; r < rows; r++) sum -= J[r * n + i]! * w[r]!;
      dq[i]! += sum;
    }
  }

  /** One start: iterates from s.q; true when within tolerance (s.q holds the answer). */
  function descend(
    m: number,
    iterations: number,
    lo: Float64Array,
    hi: Float64Array,
    tolP: number,
    tolR: number,
  ): { done: boolean; E: number; iterations: number } {
    const { q, qTry, dq, e, eTry } = s;
    let E = error(q, m, e, true);
    let mu = 1;
    let it = 0;
    let checkpoint = E;
    for (; it < iterations; it++) {
      if (converged(e, m, tolP, tolR)) return { done: true, E, iterations: it };
      // A start that stops closing in is abandoned: another start is cheaper.
      if (it > 0 && it % STALL_WINDOW === 0) {
        if (E > STALL_RATIO * checkpoint) break;
        checkpoint = E;
      }
      if (!step(m, mu * (E + DAMPING_FLOOR), lo, hi)) break;
      for (let i = 0; i < n; i++) qTry[i] = Math.min(hi[i]!, Math.max(lo[i]!, q[i]! + dq[i]!));
      const ETry = error(qTry, m, eTry, false);
      if (ETry < E) {
        // The trial's forward kinematics is still in the scratch: its Jacobian is the next one.
        q.set(qTry);
        e.set(eTry);
        E = ETry;
        jacobian(m);
        mu = Math.max(mu / 3, 1e-3);
      } else {
        mu *= 5;
        if (mu > 1e8) break;
      }
    }
    return { done: converged(e, m, tolP, tolR), E, iterations: it };
  }

  function residuals(m: number): [number, number] {
    const e = s.e;
    return [Math.hypot(e[0]!, e[1]!, e[2]!), m === 6 ? Math.hypot(e[3]!, e[4]!, e[5]!) / ROTATION_SCALE : 0];
  }

  function solve(goal: IkGoal, options: IkOptions = {}): ChainIkResult {
    if (!goal.position.every(Number.isFinite)) return { ok: false, failure: { kind: 'bad_goal', field: 'position' } };
    const orient = goal.orientation;
    if (orient && (!orient.every(Number.isFinite) || !(Math.hypot(...orient) > 1e-9)))
      return { ok: false, failure: { kind: 'bad_goal', field: 'orientation' } };
    const distance = Math.hypot(
      goal.position[0] - chain.shoulder[0],
      goal.position[1] - chain.shoulder[1],
      goal.position[2] - chain.shoulder[2],
    );
    if (!(distance <= chain.reach + 1e-9)) return { ok: false, failure: { kind: 'out_of_reach', distance, reach: chain.reach } };
    const m = goal.orientation ? 6 : 3;
    fromPose(goal.position, goal.orientation ?? [0, 0, 0, 1], s.target);
    const attempts = Math.max(1, options.attempts ?? 32);
    const iterations = options.iterations ?? 80;
    const tolP = options.positionTolerance ?? 1e-4;
    const tolR = options.orientationTolerance ?? 1e-3;
    const seed = options.seed;
    const rand = seededRandom(0x5eed);
    let bestE = Infinity;
    let total = 0;
    for (let a = 0; a < attempts; a++) {
      startAt(a, seed, rand);
      const r = descend(m, iterations, lower, upper, tolP, tolR);
      total += r.iterations;
      if (r.done) {
        const joints = Float64Array.from(s.q);
        settleContinuous(joints, seed);
        const [p, o] = residuals(m);
        return { ok: true, joints, positionError: p, orientationError: o, attempts: a + 1, iterations: total };
      }
      if (r.E < bestE) {
        bestE = r.E;
        s.best.set(s.q);
      }
    }
    const unclamped = limitFailure(m, tolP, tolR, seed);
    if (unclamped instanceof Float64Array) {
      const [p, o] = residuals(m);
      return { ok: true, joints: unclamped, positionError: p, orientationError: o, attempts: attempts + 1, iterations: total };
    }
    if (unclamped) return { ok: false, failure: unclamped };
    s.q.set(s.best);
    error(s.q, m, s.e, false);
    const [p, o] = residuals(m);
    return { ok: false, failure: { kind: 'no_convergence', positionError: p, orientationError: o, attempts } };
  }

  /** Start a: the seed (clamped), else mid-range; then pseudo-random joints within limits. */
  function startAt(a: number, seed: ArrayLike<number> | undefined, rand: () => number): void {
    for (let i = 0; i < n; i++) {
      const lo = Number.isFinite(lower[i]!) ? lower[i]! : -Math.PI;
      const hi = Number.isFinite(upper[i]!) ? upper[i]! : Math.PI;
      const r = rand();
      const v = a === 0 ? (seed?.[i] ?? mid[i]!) : lo + (hi - lo) * r;
      s.q[i] = Math.min(upper[i]!, Math.max(lower[i]!, Number.isFinite(v) ? v : mid[i]!));
    }
  }

  /**
   * Why no start converged, when the reason is a limit: the pose is reached
   * with the limits lifted and some joint lands outside its range (after whole
   * turns are taken out of revolute joints). When the whole turns bring every
   * joint inside, that is an answer the clamped search missed.
   */
  function limitFailure(m: number, tolP: number, tolR: number, seed: ArrayLike<number> | undefined): ChainIkFailure | Float64Array | null {
    const rand = seededRandom(0x11b7);
    for (let a = 0; a < 4; a++) {
      startAt(a, seed, rand);
      if (!descend(m, 80, unbounded.lower, unbounded.upper, tolP, tolR).done) continue;
      let worst: ChainIkFailure | null = null;
      let worstBy = 0;
      for (let i = 0; i < n; i++) {
        const v = chain.variables[i]!;
        let x = s.q[i]!;
        if (v.kind === 'revolute') x = intoRange(x, v.lower, v.upper);
        const by = Math.max(v.lower - x, x - v.upper);
        if (by > worstBy) {
          worstBy = by;
          worst = { kind: 'joint_limit', joint: v.name, value: x, lower: v.lower, upper: v.upper };
        }
      }
      if (worst) return worst;
      const joints = Float64Array.from(s.q, (x, i) => (chain.variables[i]!.kind === 'revolute' ? intoRange(x, lower[i]!, upper[i]!) : x));
      settleContinuous(joints, seed);
      return joints;
    }
    return null;
  }

  /** Continuous joints: the whole turn nearest the seed (or nearest zero). */
  function settleContinuous(q: Float64Array, seed: ArrayLike<number> | undefined): void {
    for (let i = 0; i < n; i++) {
      if (chain.variables[i]!.kind !== 'continuous') continue;
      const ref = seed?.[i] ?? 0;
      q[i] = ref + wrapPi(q[i]! - ref);
    }
  }

  return { chain, solve };
}

function converged(e: Float64Array, m: number, tolP: number, tolR: number): boolean {
  if (e[0]! * e[0]! + e[1]! * e[1]! + e[2]! * e[2]! > tolP * tolP) return false;
  if (m < 6) return true;
  const r = tolR * ROTATION_SCALE;
  return e[3]! * e[3]! + e[4]! * e[4]! + e[5]! * e[5]! <= r * r;
}

function wrapPi(a: number): number {
  const t = 2 * Math.PI;
  return a - t * Math.round(a / t);
}

/** The angle plus whole turns nearest the range [lo, hi]. */
function intoRange(x: number, lo: number, hi: number): number {
  const t = 2 * Math.PI;
  if (x >= lo && x <= hi) return x;
  const up = x + t * Math.ceil((lo - x) / t);
  if (up <= hi) return up;
  const down = x - t * Math.ceil((x - hi) / t);
  if (down >= lo) return down;
  return Math.abs(up - hi) < Math.abs(lo - down) ? up : down;
}

/** The tip pose's position and orientation, for building goals from FK. */
export function goalOf(t: Transform, withOrientation = true): IkGoal {
  return { position: [t[3]!, t[7]!, t[11]!], orientation: withOrientation ? quatOf(t) : null };
}
