// The robot as the scene starts it: its links in the physics world, its body
// state (base pose, joints, fingers) and its battery.
import type { ResolvedScene } from '../../scenes/resolve';
import type { Location } from '../../scenes/schema';
import { type Pose, fromTuple, qYaw, rad, wrapAngle } from '../math';
import type { Rapier, RAPIER } from '../rapier';
import { Battery } from '../body/battery';
import { type ImportedArm, importArm } from '../body/imported-arm';
import { type JointValues, type Kinematics, fiveDofKinematics } from '../body/kinematics';
import { BodyLinks } from '../body/links';
import type { BodyState } from './types';

export function startPose(scene: ResolvedScene): Pose {
  const rs = scene.scene.robot;
  const loc = rs.at ? scene.scene.locations.find((l) => l.id === rs.at) : undefined;
  const pose = loc?.pose ?? rs.pose!;
  return { p: fromTuple(pose.position), q: qYaw(rad(pose.yaw)) };
}

/** The imported arm of a scene whose robot comes from a robot description (checked when it was put in the scene). */
export function importedArmOf(scene: ResolvedScene): ImportedArm | undefined {
  const im = scene.imported;
  if (!im) return undefined;
  const r = importArm(im.description, im.extras, im.meshes);
  if (!r.ok) throw new Error(`the imported robot cannot be built: ${r.problems.map((p) => `${p.element}: ${p.problem}`).join('; ')}`);
  return r.arm;
}

export function buildRobot(
  R: Rapier,
  world: RAPIER.World,
  scene: ResolvedScene,
): { links: BodyLinks; body: BodyState; battery: Battery; kinematics: Kinematics | undefined } {
  const pose = startPose(scene);
  const imported = importedArmOf(scene);
  const links = new BodyLinks(R, world, scene.robot, pose, imported);
  const rs = scene.scene.robot;
  const arm = scene.robot.arm;
  const kinematics = imported ? imported.kinematics : arm ? fiveDofKinematics(arm) : undefined;
  const body: BodyState = {
    basePose: pose,
    q: kinematics ? (kinematics.postures[rs.posture] ?? kinematics.postures['home']) : undefined,
    opening: arm ? arm.gripperMaxOpening : 0,
    posture: undefined,
    docked: rs.docked,
    baseMoves: 0,
    at: undefined,
  };
  body.posture = kinematics && body.q ? postureOf(kinematics, body.q) : undefined;
  body.at = placeAt(scene.scene.locations, pose);
  links.apply(pose, body.q, body.opening, true);
  const b = scene.robot.battery;
  const battery = new Battery(
    { ...b, low: rs.battery.low, critical: rs.battery.critical, drainScale: rs.battery.drainScale },
    rs.battery.percent,
  );
  battery.charging = rs.docked;
  return { links, body, battery, kinematics };
}

/**
 * Paper 003's snapshot tolerances: the arm is in a named posture when every
 * joint is within 0.01 rad of it, and the robot is at a place when its base
 * stands within 0.2 m of the place's pose. Otherwise the answer is "unknown":
 * a label never outlives the state it names.
 */
export const POSTURE_TOLERANCE = 0.01;
export const AT_TOLERANCE = 0.2;

/** Each arm's named postures in radians, and which joints turn round (the step labels the posture whenever the arm moves). */
const posturesRad = new WeakMap<Kinematics, { postures: Array<[string, JointValues]>; wraps: boolean[] }>();

/** The named posture the joints are in, or undefined. Joints that turn round (yaw, roll) compare modulo a full turn. */
export function postureOf(kin: Kinematics, q: JointValues): string | undefined {
  let known = posturesRad.get(kin);
  if (!known) posturesRad.set(kin, (known = { postures: Object.entries(kin.postures), wraps: turning(kin) }));
  const { postures, wraps } = known;
  // Runs every step the arm moves: plain loops, no closures.
  for (let k = 0; k < postures.length; k++) {
    const p = postures[k]![1];
    let near = true;
    for (let i = 0; i < q.length && near; i++) {
      const d = wraps[i] ? wrapAngle(q[i]! - p[i]!) : q[i]! - p[i]!;
      near = Math.abs(d) <= POSTURE_TOLERANCE;
    }
    if (near) return postures[k]![0];
  }
  return undefined;
}

/**
 * How far (radians, the worst joint) the joints are from a named posture, or
 * undefined when the arm has no such posture; joints that turn round compare
 * modulo a full turn.
 */
export function postureOffset(kin: Kinematics, posture: string, q: JointValues): number | undefined {
  const p = Object.hasOwn(kin.postures, posture) ? kin.postures[posture] : undefined;
  if (!p) return undefined;
  const wraps = turning(kin);
  const off = p.map((v, i) => {
    const d = q[i]! - v;
    return wraps[i] ? Math.abs(Math.atan2(Math.sin(d), Math.cos(d))) : Math.abs(d);
  });
  return Math.max(...off);
}

/** Joints that turn round: the built-in arm's yaw and roll; a chain's joints whose range spans a full turn. */
export function turning(kin: Kinematics): boolean[] {
  if (kin.kind === 'five_dof') return kin.jointNames.map((_, i) => i === 0 || i === 4);
  return kin.limits.map(([lo, hi]) => hi - lo >= 2 * Math.PI - 1e-9);
}

/** The named place the base stands at (nearest within AT_TOLERANCE), or undefined. */
export function placeAt(locations: readonly Location[], pose: Pose): string | undefined {
  let best: { id: string; d: number } | undefined;
  // Every step the base moves: an indexed loop and distXZ written out (no objects per location).
  for (let i = 0; i < locations.length; i++) {
    const l = locations[i]!;
    const at = l.pose.position;
    const d = Math.hypot(at[0] - pose.p.x, at[2] - pose.p.z);
    if (d <= AT_TOLERANCE && (!best || d < best.d || (d === best.d && l.id < best.id))) best = { id: l.id, d };
  }
  return best?.id;
}
