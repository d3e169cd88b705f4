// The robot as the scene starts it: its links in the physics world, its body
// state (base pose, joints, fingers) and its battery.
import type { ResolvedScene } from '../../scenes/resolve';
import { type Pose, fromTuple, qYaw, rad } from '../math';
import type { Rapier, RAPIER } from '../rapier';
import { jointsFromDeg } from '../body/arm-kinematics';
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
    posture: arm ? rs.posture : undefined,
    docked: rs.docked,
    baseMoves: 0,
    at: rs.at,
  };
  links.apply(pose, body.q, body.opening, true);
  const b = scene.robot.battery;
  const battery = new Battery(
    { ...b, low: rs.battery.low, critical: rs.battery.critical, drainScale: rs.battery.drainScale },
    rs.battery.percent,
  );
  battery.charging = rs.docked;
  return { links, body, battery };
}
