// The robot as the scene starts it: its links in the physics world, its body
// state (base pose, joints, fingers) and its battery.
import type { ResolvedScene } from '../../scenes/resolve';
import type { ArmConfig, Location } from '../../scenes/schema';
import { type Pose, fromTuple, qYaw, rad, wrapAngle } from '../math';
import type { Rapier, RAPIER } from '../rapier';
import { type Joints, jointsFromDeg } from '../body/arm-kinematics';
import { Battery } from '../body/battery';
import { BodyLinks } from '../body/links';
import type { BodyState } from './types';

export function startPose(scene: ResolvedScene): Pose {
  const rs = scene.scene.robot;
  const loc = rs.at ? scene.scene.locations.find((l) => l.id === rs.at) : undefined;
  const pose = loc?.pose ?? rs.pose!;
  return { p: fromTuple(pose.position), q: qYaw(rad(pose.yaw)) };
}

export function buildRobot(R: Rapier, world: RAPIER.World, scene: ResolvedScene): { links: BodyLinks; body: BodyState; battery: Battery } {
  const pose = startPose(scene);
  const links = new BodyLinks(R, world, scene.robot, pose);
  const rs = scene.scene.robot;
  const arm = scene.robot.arm;
  const body: BodyState = {
    basePose: pose,
    q: arm ? jointsFromDeg(arm.postures[rs.posture]!) : undefined,
    opening: arm ? arm.gripperMaxOpening : 0,
    posture: undefined,
    docked: rs.docked,
    baseMoves: 0,
    at: undefined,
  };
  body.posture = arm && body.q ? postureOf(arm, body.q) : undefined;
  body.at = placeAt(scene.scene.locations, pose);
  links.apply(pose, body.q, body.opening, true);
  const b = scene.robot.battery;
  const battery = new Battery(
    { ...b, low: rs.battery.low, critical: rs.battery.critical, drainScale: rs.battery.drainScale },
    rs.battery.percent,
  );
  battery.charging = rs.docked;
  return { links, body, battery };
}

/**
 * Paper 003's snapshot tolerances: the arm is in a named posture when every
 * joint is within 0.01 rad of it, and the robot is at a place when its base
 * stands within 0.2 m of the place's pose. Otherwise the answer is "unknown":
 * a label never outlives the state it names.
 */
export const POSTURE_TOLERANCE = 0.01;
export const AT_TOLERANCE = 0.2;

/** Each arm's named postures in radians (the step labels the posture whenever the arm moves). */
const posturesRad = new WeakMap<ArmConfig, Array<[string, Joints]>>();

/** The named posture the joints are in, or undefined. Yaw and roll compare modulo a full turn. */
export function postureOf(arm: ArmConfig, q: Joints): string | undefined {
  let postures = posturesRad.get(arm);
  if (!postures)
    posturesRad.set(arm, (postures = Object.entries(arm.postures).map(([name, deg]): [string, Joints] => [name, jointsFromDeg(deg)])));
  // Runs every step the arm moves: plain loops, no closures.
  for (let k = 0; k < postures.length; k++) {
    const p = postures[k]![1];
    let near = true;
    for (let i = 0; i < 5 && near; i++) {
      const d = i === 0 || i === 4 ? wrapAngle(q[i]! - p[i]!) : q[i]! - p[i]!;
      near = Math.abs(d) <= POSTURE_TOLERANCE;
    }
    if (near) return postures[k]![0];
  }
  return undefined;
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
