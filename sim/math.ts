// Small vector and quaternion helpers on plain objects (Rapier's shape), so the
// sim passes values to Rapier without conversion. Right-handed, Y up.
export interface Vec3 {
  x: number;
  y: number;
  z: number;
}
export interface Quat {
  x: number;
  y: number;
  z: number;
  w: number;
}
export interface Pose {
  p: Vec3;
  q: Quat;
}

export const v3 = (x = 0, y = 0, z = 0): Vec3 => ({ x, y, z });
export const fromTuple = (t: readonly [number, number, number]): Vec3 => ({ x: t[0], y: t[1], z: t[2] });
export const toTuple = (v: Vec3): [number, number, number] => [v.x, v.y, v.z];
export const add = (a: Vec3, b: Vec3): Vec3 => ({ x: a.x + b.x, y: a.y + b.y, z: a.z + b.z });
export const sub = (a: Vec3, b: Vec3): Vec3 => ({ x: a.x - b.x, y: a.y - b.y, z: a.z - b.z });
export const scale = (a: Vec3, s: number): Vec3 => ({ x: a.x * s, y: a.y * s, z: a.z * s });
export const dot = (a: Vec3, b: Vec3): number => a.x * b.x + a.y * b.y + a.z * b.z;
export const cross = (a: Vec3, b: Vec3): Vec3 => ({
  x: a.y * b.z - a.z * b.y,
  y: a.z * b.x - a.x * b.z,
  z: a.x * b.y - a.y * b.x,
});
export const length = (a: Vec3): number => Math.hypot(a.x, a.y, a.z);
export const dist = (a: Vec3, b: Vec3): number => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
export const distXZ = (a: Vec3, b: Vec3): number => Math.hypot(a.x - b.x, a.z - b.z);
export const lerp = (a: Vec3, b: Vec3, t: number): Vec3 => ({
  x: a.x + (b.x - a.x) * t,
  y: a.y + (b.y - a.y) * t,
  z: a.z + (b.z - a.z) * t,
});
export const normalize = (a: Vec3): Vec3 => {
  const l = length(a);
  return l > 1e-12 ? scale(a, 1 / l) : v3();
};

export const qIdentity = (): Quat => ({ x: 0, y: 0, z: 0, w: 1 });
export const qMul = (a: Quat, b: Quat): Quat => ({
  w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
  x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
  y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
  z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
});
export const qConj = (a: Quat): Quat => ({ x: -a.x, y: -a.y, z: -a.z, w: a.w });
export const qAxisAngle = (axis: Vec3, angle: number): Quat => {
  // normalize(axis), written out (one object, not three; the same operations).
  const l = length(axis);
  const inv = 1 / l;
  const big = l > 1e-12;
  const nx = big ? axis.x * inv : 0;
  const ny = big ? axis.y * inv : 0;
  const nz = big ? axis.z * inv : 0;
  const s = Math.sin(angle / 2);
  return { x: nx * s, y: ny * s, z: nz * s, w: Math.cos(angle / 2) };
};
export const qYaw = (angle: number): Quat => ({ x: 0, y: Math.sin(angle / 2), z: 0, w: Math.cos(angle / 2) });
export const qNormalize = (q: Quat): Quat => {
  const l = Math.hypot(q.x, q.y, q.z, q.w) || 1;
  return { x: q.x / l, y: q.y / l, z: q.z / l, w: q.w / l };
};
// Rotation and poses are in every physics step and every IK sample. Each is
// written out so it builds only the object it returns (a one-shot CLI call runs
// this code cold, where every temporary object costs); the operations and their
// order are those of the readable forms, kept in math.test.ts, which holds these
// to them bit for bit.
// rotateParts leaves rotate(q, v)'s components here, so rotate and placeAt share one
// written-out formula without building a vector in between.
let rx = 0;
let ry = 0;
let rz = 0;
/** v' = v + 2w(u×v) + 2u×(u×v), as add(add(v, scale(t, q.w)), cross(u, t)) with t = scale(cross(u, v), 2). */
const rotateParts = (q: Quat, vx: number, vy: number, vz: number): void => {
  const ux = q.x;
  const uy = q.y;
  const uz = q.z;
  const w = q.w;
  const tx = (uy * vz - uz * vy) * 2;
  const ty = (uz * vx - ux * vz) * 2;
  const tz = (ux * vy - uy * vx) * 2;
  rx = vx + tx * w + (uy * tz - uz * ty);
  ry = vy + ty * w + (uz * tx - ux * tz);
  rz = vz + tz * w + (ux * ty - uy * tx);
};
export const rotate = (q: Quat, v: Vec3): Vec3 => {
  rotateParts(q, v.x, v.y, v.z);
  return { x: rx, y: ry, z: rz };
};
/** p + rotate(q, v), as add(p, rotate(q, v)). */
const placeAt = (p: Vec3, q: Quat, vx: number, vy: number, vz: number): Vec3 => {
  rotateParts(q, vx, vy, vz);
  return { x: p.x + rx, y: p.y + ry, z: p.z + rz };
};
/** Quaternion from XYZ Euler degrees: intrinsic X, then Y, then Z (matches scenes/shapes.ts). */
export const qEulerDeg = (deg: readonly [number, number, number]): Quat => {
  const r = deg.map((d) => (d * Math.PI) / 180) as [number, number, number];
  return qMul(qMul(qAxisAngle(v3(1, 0, 0), r[0]), qAxisAngle(v3(0, 1, 0), r[1])), qAxisAngle(v3(0, 0, 1), r[2]));
};
/** Yaw (rotation about +Y) of a quaternion's forward (+X) axis. Positive turns left (toward -Z). */
export const yawOf = (q: Quat): number => {
  const f = rotate(q, v3(1, 0, 0));
  return Math.atan2(-f.z, f.x);
};
/** Rotation vector (axis * angle) taking `from` to `to`, shortest way. */
export const qError = (to: Quat, from: Quat): Vec3 => {
  // e = qMul(to, qConj(from)), written out.
  const bx = -from.x;
  const by = -from.y;
  const bz = -from.z;
  const bw = from.w;
  const ew = to.w * bw - to.x * bx - to.y * by - to.z * bz;
  const ex = to.w * bx + to.x * bw + to.y * bz - to.z * by;
  const ey = to.w * by - to.x * bz + to.y * bw + to.z * bx;
  const ez = to.w * bz + to.x * by - to.y * bx + to.z * bw;
  const s = ew < 0 ? -1 : 1;
  const vecLen = Math.hypot(ex, ey, ez);
  if (vecLen < 1e-9) return v3(2 * s * ex, 2 * s * ey, 2 * s * ez);
  const angle = 2 * Math.atan2(vecLen, Math.abs(ew));
  const k = (s * angle) / vecLen;
  return { x: ex * k, y: ey * k, z: ez * k };
};
export const qAngle = (a: Quat, b: Quat): number => length(qError(a, b));
export const qSlerp = (a: Quat, b: Quat, t: number): Quat => {
  let cos = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  let bb = b;
  if (cos < 0) {
    cos = -cos;
    bb = { x: -b.x, y: -b.y, z: -b.z, w: -b.w };
  }
  if (cos > 0.9995) {
    return qNormalize({
      x: a.x + (bb.x - a.x) * t,
      y: a.y + (bb.y - a.y) * t,
      z: a.z + (bb.z - a.z) * t,
      w: a.w + (bb.w - a.w) * t,
    });
  }
  const th = Math.acos(cos);
  const s = Math.sin(th);
  const wa = Math.sin((1 - t) * th) / s;
  const wb = Math.sin(t * th) / s;
  return { x: a.x * wa + bb.x * wb, y: a.y * wa + bb.y * wb, z: a.z * wa + bb.z * wb, w: a.w * wa + bb.w * wb };
};

export const poseMul = (a: Pose, b: Pose): Pose => ({ p: placeAt(a.p, a.q, b.p.x, b.p.y, b.p.z), q: qMul(a.q, b.q) });
export const poseInv = (a: Pose): Pose => {
  const qi = qConj(a.q);
  return { p: rotate(qi, scale(a.p, -1)), q: qi };
};
export const poseApply = (a: Pose, v: Vec3): Vec3 => placeAt(a.p, a.q, v.x, v.y, v.z);

export const deg = (rad: number): number => (rad * 180) / Math.PI;
export const rad = (d: number): number => (d * Math.PI) / 180;
export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
/** Wraps an angle to (-π, π]. */
export const wrapAngle = (a: number): number => {
  let x = a % (2 * Math.PI);
  if (x <= -Math.PI) x += 2 * Math.PI;
  if (x > Math.PI) x -= 2 * Math.PI;
  return x;
};
export const round = (x: number, digits = 3): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

export interface Aabb {
  min: Vec3;
  max: Vec3;
}
export const aabbCenter = (b: Aabb): Vec3 => lerp(b.min, b.max, 0.5);
export const aabbSize = (b: Aabb): Vec3 => sub(b.max, b.min);
export const aabbUnion = (a: Aabb, b: Aabb): Aabb => ({
  min: { x: Math.min(a.min.x, b.min.x), y: Math.min(a.min.y, b.min.y), z: Math.min(a.min.z, b.min.z) },
  max: { x: Math.max(a.max.x, b.max.x), y: Math.max(a.max.y, b.max.y), z: Math.max(a.max.z, b.max.z) },
});
export const aabbContainsPoint = (b: Aabb, p: Vec3, margin = 0): boolean =>
  p.x >= b.min.x - margin &&
  p.x <= b.max.x + margin &&
  p.y >= b.min.y - margin &&
  p.y <= b.max.y + margin &&
  p.z >= b.min.z - margin &&
  p.z <= b.max.z + margin;
/** Overlap length of two intervals. */
export const overlap1 = (a0: number, a1: number, b0: number, b1: number): number => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
export const aabbVolume = (b: Aabb): number => {
  const s = aabbSize(b);
  return Math.max(0, s.x) * Math.max(0, s.y) * Math.max(0, s.z);
};
export const aabbIntersection = (a: Aabb, b: Aabb): number =>
  overlap1(a.min.x, a.max.x, b.min.x, b.max.x) *
  overlap1(a.min.y, a.max.y, b.min.y, b.max.y) *
  overlap1(a.min.z, a.max.z, b.min.z, b.max.z);
/** Fraction of a's footprint (XZ) that lies over b's footprint. */
export const footprintOverlap = (a: Aabb, b: Aabb): number => {
  const ax = a.max.x - a.min.x;
  const az = a.max.z - a.min.z;
  const area = Math.max(ax * az, 1e-9);
  return (overlap1(a.min.x, a.max.x, b.min.x, b.max.x) * overlap1(a.min.z, a.max.z, b.min.z, b.max.z)) / area;
};
