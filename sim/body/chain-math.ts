// Rigid transforms for the serial-chain kinematics, as flat Float64Arrays so a
// solve allocates nothing per iteration. A transform is 12 numbers, row-major
// [R | t]: r00 r01 r02 tx, r10 r11 r12 ty, r20 r21 r22 tz.
import type { Origin, V3 } from '../../scenes/urdf/model';

export type Transform = Float64Array;
/** A unit quaternion as [x, y, z, w]. */
export type Quat4 = [number, number, number, number];

export function identity(out: Transform = new Float64Array(12)): Transform {
  out.fill(0);
  out[0] = out[5] = out[10] = 1;
  return out;
}

/** URDF origin: translate by xyz, then rotate by fixed-axis roll, pitch, yaw (R = Rz·Ry·Rx). */
export function fromOrigin(o: Origin, out: Transform = new Float64Array(12)): Transform {
  const [r, p, y] = o.rpy;
  const cr = Math.cos(r);
  const sr = Math.sin(r);
  const cp = Math.cos(p);
  const sp = Math.sin(p);
  const cy = Math.cos(y);
  const sy = Math.sin(y);
  out[0] = cy * cp;
  out[1] = cy * sp * sr - sy * cr;
  out[2] = cy * sp * cr + sy * sr;
  out[3] = o.xyz[0];
  out[4] = sy * cp;
  out[5] = sy * sp * sr + cy * cr;
  out[6] = sy * sp * cr - cy * sr;
  out[7] = o.xyz[1];
  out[8] = -sp;
  out[9] = cp * sr;
  out[10] = cp * cr;
  out[11] = o.xyz[2];
  return out;
}

/** out = a · b (out may alias neither). */
export function mul(a: Transform, b: Transform, out: Transform): Transform {
  for (let r = 0; r < 3; r++) {
    const i = r * 4;
    const a0 = a[i]!;
    const a1 = a[i + 1]!;
    const a2 = a[i + 2]!;
    out[i] = a0 * b[0]! + a1 * b[4]! + a2 * b[8]!;
    out[i + 1] = a0 * b[1]! + a1 * b[5]! + a2 * b[9]!;
    out[i + 2] = a0 * b[2]! + a1 * b[6]! + a2 * b[10]!;
    out[i + 3] = a0 * b[3]! + a1 * b[7]! + a2 * b[11]! + a[i + 3]!;
  }
  return out;
}

/** out = t · Rot(axis, angle) (axis a unit vector in t's frame; out may alias t). */
export function rotateLocal(t: Transform, ax: number, ay: number, az: number, angle: number, out: Transform): Transform {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const k = 1 - c;
  // Rodrigues, written out.
  const m00 = c + ax * ax * k;
  const m01 = ax * ay * k - az * s;
  const m02 = ax * az * k + ay * s;
  const m10 = ay * ax * k + az * s;
  const m11 = c + ay * ay * k;
  const m12 = ay * az * k - ax * s;
  const m20 = az * ax * k - ay * s;
  const m21 = az * ay * k + ax * s;
  const m22 = c + az * az * k;
  for (let r = 0; r < 3; r++) {
    const i = r * 4;
    const t0 = t[i]!;
    const t1 = t[i + 1]!;
    const t2 = t[i + 2]!;
    out[i] = t0 * m00 + t1 * m10 + t2 * m20;
    out[i + 1] = t0 * m01 + t1 * m11 + t2 * m21;
    out[i + 2] = t0 * m02 + t1 * m12 + t2 * m22;
    out[i + 3] = t[i + 3]!;
  }
  return out;
}

/** out = t · Trans(axis · d) (out may alias t). */
export function translateLocal(t: Transform, ax: number, ay: number, az: number, d: number, out: Transform): Transform {
  for (let r = 0; r < 3; r++) {
    const i = r * 4;
    out[i] = t[i]!;
    out[i + 1] = t[i + 1]!;
    out[i + 2] = t[i + 2]!;
    out[i + 3] = t[i + 3]! + (t[i]! * ax + t[i + 1]! * ay + t[i + 2]! * az) * d;
  }
  return out;
}

export function translationOf(t: Transform): V3 {
  return [t[3]!, t[7]!, t[11]!];
}

export function quatOf(t: Transform): Quat4 {
  const m00 = t[0]!;
  const m11 = t[5]!;
  const m22 = t[10]!;
  const tr = m00 + m11 + m22;
  let x: number;
  let y: number;
  let z: number;
  let w: number;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    w = s / 4;
    x = (t[9]! - t[6]!) / s;
    y = (t[2]! - t[8]!) / s;
    z = (t[4]! - t[1]!) / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    w = (t[9]! - t[6]!) / s;
    x = s / 4;
    y = (t[1]! + t[4]!) / s;
    z = (t[2]! + t[8]!) / s;
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    w = (t[2]! - t[8]!) / s;
    x = (t[1]! + t[4]!) / s;
    y = s / 4;
    z = (t[6]! + t[9]!) / s;
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    w = (t[4]! - t[1]!) / s;
    x = (t[2]! + t[8]!) / s;
    y = (t[6]! + t[9]!) / s;
    z = s / 4;
  }
  return w < 0 ? [-x, -y, -z, -w] : [x, y, z, w];
}

/** A transform from a position and a unit quaternion [x, y, z, w]. */
export function fromPose(p: V3, q: Quat4, out: Transform = new Float64Array(12)): Transform {
  const [x, y, z, w] = q;
  const n = Math.hypot(x, y, z, w) || 1;
  const qx = x / n;
  const qy = y / n;
  const qz = z / n;
  const qw = w / n;
  out[0] = 1 - 2 * (qy * qy + qz * qz);
  out[1] = 2 * (qx * qy - qz * qw);
  out[2] = 2 * (qx * qz + qy * qw);
  out[3] = p[0];
  out[4] = 2 * (qx * qy + qz * qw);
  out[5] = 1 - 2 * (qx * qx + qz * qz);
  out[6] = 2 * (qy * qz - qx * qw);
  out[7] = p[1];
  out[8] = 2 * (qx * qz - qy * qw);
  out[9] = 2 * (qy * qz + qx * qw);
  out[10] = 1 - 2 * (qx * qx + qy * qy);
  out[11] = p[2];
  return out;
}

/**
 * The rotation taking `from`'s orientation to `to`'s, as angle × axis in the
 * common (base) frame: log(R_to · R_fromᵀ). Written into out[at..at+2].
 */
export function rotationError(to: Transform, from: Transform, out: Float64Array, at: number): void {
  // E = R_to · R_fromᵀ
  const e = (r: number, c: number): number =>
    to[r * 4]! * from[c * 4]! + to[r * 4 + 1]! * from[c * 4 + 1]! + to[r * 4 + 2]! * from[c * 4 + 2]!;
  const e00 = e(0, 0);
  const e11 = e(1, 1);
  const e22 = e(2, 2);
  const vx = e(2, 1) - e(1, 2);
  const vy = e(0, 2) - e(2, 0);
  const vz = e(1, 0) - e(0, 1);
  const cos = Math.max(-1, Math.min(1, (e00 + e11 + e22 - 1) / 2));
  const sin2 = Math.hypot(vx, vy, vz); // 2 sin θ
  const angle = Math.atan2(sin2 / 2, cos);
  if (sin2 > 1e-6) {
    const k = angle / sin2;
    out[at] = vx * k;
    out[at + 1] = vy * k;
    out[at + 2] = vz * k;
    return;
  }
  if (cos > 0) {
    // Near identity: log ≈ vee(E - Eᵀ)/2.
    out[at] = vx / 2;
    out[at + 1] = vy / 2;
    out[at + 2] = vz / 2;
    return;
  }
  // Near a half turn: (E + I)/2 = a·aᵀ; take the largest component as positive
  // and the others' signs from the off-diagonal products.
  const xx = Math.max(0, (e00 + 1) / 2);
  const yy = Math.max(0, (e11 + 1) / 2);
  const zz = Math.max(0, (e22 + 1) / 2);
  const xy = (e(0, 1) + e(1, 0)) / 4;
  const xz = (e(0, 2) + e(2, 0)) / 4;
  const yz = (e(1, 2) + e(2, 1)) / 4;
  let ax: number;
  let ay: number;
  let az: number;
  if (xx >= yy && xx >= zz) {
    ax = Math.sqrt(xx);
    ay = xy / ax;
    az = xz / ax;
  } else if (yy >= zz) {
    ay = Math.sqrt(yy);
    ax = xy / ay;
    az = yz / ay;
  } else {
    az = Math.sqrt(zz);
    ax = xz / az;
    ay = yz / az;
  }
  out[at] = ax * angle;
  out[at + 1] = ay * angle;
  out[at + 2] = az * angle;
}

/**
 * Solves A·x = b for a symmetric positive-definite m×m A (row-major, m ≤ 6)
 * by Cholesky, in place: A becomes its factor, b becomes x. False when A is
 * not positive definite.
 */
export function choleskySolve(A: Float64Array, b: Float64Array, m: number): boolean {
  for (let j = 0; j < m; j++) {
    let d = A[j * m + j]!;
    for (let k = 0; k < j; k++) d -= A[j * m + k]! * A[j * m + k]!;
    if (!(d > 0)) return false;
    const l = Math.sqrt(d);
    A[j * m + j] = l;
    for (let i = j + 1; i < m; i++) {
      let s = A[i * m + j]!;
      for (let k = 0; k < j; k++) s -= A[i * m + k]! * A[j * m + k]!;
      A[i * m + j] = s / l;
    }
  }
  choleskyBack(A, b, m);
  return true;
}

/** Solves with a factor choleskySolve left in A. */
export function choleskyBack(L: Float64Array, b: Float64Array, m: number): void {
  for (let i = 0; i < m; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= L[i * m + k]! * b[k]!;
    b[i] = s / L[i * m + i]!;
  }
  for (let i = m - 1; i >= 0; i--) {
    let s = b[i]!;
    for (let k = i + 1; k < m; k++) s -= L[k * m + i]! * b[k]!;
    b[i] = s / L[i * m + i]!;
  }
}
