// The written-out rotation and pose helpers must give bit for bit what their
// readable forms give (every physics step and IK sample goes through them; a
// last-bit difference would change outcomes), signs of zero included.
import { describe, expect, it } from 'vitest';
import {
  type Pose,
  type Quat,
  type Vec3,
  add,
  cross,
  normalize,
  poseApply,
  poseInv,
  poseMul,
  qAxisAngle,
  qConj,
  qError,
  qMul,
  qNormalize,
  rotate,
  scale,
  v3,
} from './math';
import { Rng } from './rng';

// The readable forms (what the helpers were before they were written out).
const rotateOracle = (q: Quat, v: Vec3): Vec3 => {
  const u = { x: q.x, y: q.y, z: q.z };
  const t = scale(cross(u, v), 2);
  return add(add(v, scale(t, q.w)), cross(u, t));
};
const qAxisAngleOracle = (axis: Vec3, angle: number): Quat => {
  const n = normalize(axis);
  const s = Math.sin(angle / 2);
  return { x: n.x * s, y: n.y * s, z: n.z * s, w: Math.cos(angle / 2) };
};
const qErrorOracle = (to: Quat, from: Quat): Vec3 => {
  const e = qMul(to, qConj(from));
  const s = e.w < 0 ? -1 : 1;
  const vecLen = Math.hypot(e.x, e.y, e.z);
  if (vecLen < 1e-9) return v3(2 * s * e.x, 2 * s * e.y, 2 * s * e.z);
  const angle = 2 * Math.atan2(vecLen, Math.abs(e.w));
  return scale({ x: e.x, y: e.y, z: e.z }, (s * angle) / vecLen);
};
const poseMulOracle = (a: Pose, b: Pose): Pose => ({ p: add(a.p, rotateOracle(a.q, b.p)), q: qMul(a.q, b.q) });
const poseInvOracle = (a: Pose): Pose => {
  const qi = qConj(a.q);
  return { p: rotateOracle(qi, scale(a.p, -1)), q: qi };
};
const poseApplyOracle = (a: Pose, v: Vec3): Vec3 => add(a.p, rotateOracle(a.q, v));

/** Every number of a value, in order (Object.is tells -0 from 0 and NaN from itself). */
function numbers(x: unknown): number[] {
  if (typeof x === 'number') return [x];
  if (x && typeof x === 'object') return Object.values(x).flatMap(numbers);
  return [];
}

function same(a: unknown, b: unknown): boolean {
  const p = numbers(a);
  const q = numbers(b);
  return p.length === q.length && p.every((v, i) => Object.is(v, q[i]));
}

describe('math helpers written out', () => {
  it('give the readable forms bit for bit, zeros and degenerate values included', () => {
    const rng = new Rng(7);
    const special = [0, -0, 1, -1, 0.5, 1e-13, Math.PI];
    const n = (k: number): number => (k % 4 === 0 ? special[Math.floor(rng.next() * special.length)]! : (rng.next() * 2 - 1) * 3);
    const vec = (k: number): Vec3 => ({ x: n(k), y: n(k + 1), z: n(k + 2) });
    const quat = (k: number, unit: boolean): Quat => {
      const q = { x: n(k), y: n(k + 1), z: n(k + 2), w: n(k + 3) };
      return unit ? qNormalize(q) : q;
    };
    let checked = 0;
    for (let k = 0; k < 20000; k++) {
      const a: Pose = { p: vec(k), q: quat(k + 1, k % 3 !== 0) };
      const b: Pose = { p: vec(k + 2), q: quat(k + 3, k % 5 !== 0) };
      const v = k % 7 === 0 ? v3(0, 0, 0) : vec(k + 5);
      const angle = n(k + 6);
      const pairs: Array<[unknown, unknown]> = [
        [rotate(a.q, v), rotateOracle(a.q, v)],
        [qAxisAngle(v, angle), qAxisAngleOracle(v, angle)],
        [qError(a.q, b.q), qErrorOracle(a.q, b.q)],
        [qError(a.q, a.q), qErrorOracle(a.q, a.q)],
        [poseMul(a, b), poseMulOracle(a, b)],
        [poseInv(a), poseInvOracle(a)],
        [poseApply(a, v), poseApplyOracle(a, v)],
      ];
      for (const [got, want] of pairs) {
        if (!same(got, want)) expect(got).toEqual(want);
        checked++;
      }
    }
    expect(checked).toBe(140000);
    // The property names and their order are the readable forms' too.
    const q = qAxisAngle(v3(0, 1, 0), 1);
    expect(Object.keys(rotate(q, v3(1, 2, 3)))).toEqual(['x', 'y', 'z']);
    expect(Object.keys(q)).toEqual(['x', 'y', 'z', 'w']);
    expect(Object.keys(poseMul({ p: v3(), q }, { p: v3(1), q }))).toEqual(['p', 'q']);
  });
});
