// Two arms written from published kinematic facts (not copied from any
// description package), as robot descriptions: a 6-DoF arm of the UR5e class from its
// standard DH parameters and a 7-DoF arm of the Panda class from its modified (Craig)
// DH parameters and joint limits. Tests and `bench robot` use them; they carry
// kinematics only (no geometry, no inertials).
import type { Joint, Link, Origin, RobotDescription, V3 } from '../../scenes/urdf/model';

const link = (name: string): Link => ({ name, inertial: null, collisions: [], visuals: [] });

const Z: V3 = [0, 0, 1];

function joint(name: string, parent: string, child: string, origin: Origin, limit: [number, number] | null): Joint {
  return {
    name,
    kind: limit ? 'revolute' : 'fixed',
    parent,
    child,
    origin,
    axis: Z,
    limit: limit ? { lower: limit[0], upper: limit[1], effort: null, velocity: null } : null,
    mimic: null,
  };
}

/**
 * Standard DH (Tᵢ = Rz(θᵢ)·Tz(dᵢ)·Tx(aᵢ)·Rx(αᵢ)): joint i turns about z of frame
 * i-1, and the fixed part of link i-1 (translate (a, 0, d), then roll α) is
 * exactly a URDF origin of xyz (a, 0, d) and rpy (α, 0, 0).
 */
export const UR5E_DH = {
  d: [0.1625, 0, 0, 0.1333, 0.0997, 0.0996],
  a: [0, -0.425, -0.3922, 0, 0, 0],
  alpha: [Math.PI / 2, 0, 0, Math.PI / 2, -Math.PI / 2, 0],
} as const;

export function ur5eClass(): RobotDescription {
  const { d, a, alpha } = UR5E_DH;
  const tau = 2 * Math.PI;
  const limits: Array<[number, number]> = [
    [-tau, tau],
    [-tau, tau],
    [-Math.PI, Math.PI],
    [-tau, tau],
    [-tau, tau],
    [-tau, tau],
  ];
  const links = ['base_link', 'shoulder_link', 'upper_arm_link', 'forearm_link', 'wrist_1_link', 'wrist_2_link', 'wrist_3_link', 'tool0'];
  const names = ['shoulder_pan_joint', 'shoulder_lift_joint', 'elbow_joint', 'wrist_1_joint', 'wrist_2_joint', 'wrist_3_joint'];
  const joints: Joint[] = [];
  for (let i = 0; i < 7; i++) {
    const origin: Origin = i === 0 ? { xyz: [0, 0, 0], rpy: [0, 0, 0] } : { xyz: [a[i - 1]!, 0, d[i - 1]!], rpy: [alpha[i - 1]!, 0, 0] };
    joints.push(joint(names[i] ?? 'wrist_3_flange', links[i]!, links[i + 1]!, origin, limits[i] ?? null));
  }
  return { name: 'ur5e_class', links: links.map(link), joints, root: 'base_link' };
}

/**
 * Modified DH (Tᵢ = Rx(αᵢ₋₁)·Tx(aᵢ₋₁)·Rz(θᵢ)·Tz(dᵢ), one row per joint as the
 * maker publishes it): Tz commutes with Rz, so joint i's origin is Rx(α)·T(a, 0, d),
 * a URDF origin of xyz Rx(α)·(a, 0, d) = (a, −d sin α, d cos α) and rpy (α, 0, 0).
 */
export const PANDA_DH = {
  a: [0, 0, 0, 0.0825, -0.0825, 0, 0.088],
  d: [0.333, 0, 0.316, 0, 0.384, 0, 0],
  alpha: [0, -Math.PI / 2, Math.PI / 2, Math.PI / 2, -Math.PI / 2, Math.PI / 2, Math.PI / 2],
  flange: 0.107,
  limits: [
    [-2.8973, 2.8973],
    [-1.7628, 1.7628],
    [-2.8973, 2.8973],
    [-3.0718, -0.0698],
    [-2.8973, 2.8973],
    [-0.0175, 3.7525],
    [-2.8973, 2.8973],
  ] as Array<[number, number]>,
} as const;

export function pandaClass(): RobotDescription {
  const { a, d, alpha, flange, limits } = PANDA_DH;
  const links = ['link0', 'link1', 'link2', 'link3', 'link4', 'link5', 'link6', 'link7', 'link8'];
  const joints: Joint[] = [];
  for (let i = 0; i < 7; i++) {
    const s = Math.sin(alpha[i]!);
    const c = Math.cos(alpha[i]!);
    const origin: Origin = { xyz: [a[i]!, clean(-d[i]! * s), clean(d[i]! * c)], rpy: [alpha[i]!, 0, 0] };
    joints.push(joint(`joint${i + 1}`, links[i]!, links[i + 1]!, origin, limits[i]!));
  }
  joints.push(joint('joint8', 'link7', 'link8', { xyz: [0, 0, flange], rpy: [0, 0, 0] }, null));
  return { name: 'panda_class', links: links.map(link), joints, root: 'link0' };
}

/** cos(π/2) is 6e-17, not 0: keep offsets exact where the table has zeros. */
function clean(x: number): number {
  return Math.abs(x) < 1e-12 ? 0 : x;
}

/** The Panda's "ready" posture, as its maker's examples start from. */
export const PANDA_READY = [0, -Math.PI / 4, 0, (-3 * Math.PI) / 4, 0, Math.PI / 2, Math.PI / 4];
