// The robot's camera: where it is and where it looks, and whether a world point
// falls inside its view. A head camera rides on the base (the config gives its
// position in the base frame and a downward pitch); a wrist camera rides on the
// hand and looks along the hand, so what it sees depends on the arm's posture
// (Mobipick must move to its observe posture to see a table, paper 003 §4).
// Camera frame: forward +X, up +Y, left -Z, like the robot's frames.
import type { RobotConfig } from '../../scenes/schema';
import { type Pose, type Vec3, dist, fromTuple, poseApply, poseInv, poseMul, qAxisAngle, qMul, rad, v3 } from '../math';
import type { SimWorld } from '../world/sim-world';

/** Image aspect: the vertical field of view is this share of the horizontal one. */
export const VERTICAL_FOV_RATIO = 0.75;

export interface CameraView {
  mount: RobotConfig['camera']['mount'];
  /** Camera pose in the world; local +X is the optical axis. */
  pose: Pose;
  /** Half-angles of the field of view, radians. */
  halfHorizontal: number;
  halfVertical: number;
  /** Metres. */
  range: number;
}

const Z = v3(0, 0, 1);

/** The head camera's pose for a base pose: mount offset, then pitch about the lateral axis. */
export function headCameraPose(cfg: RobotConfig['camera'], basePose: Pose): Pose {
  // A positive rotation about +Z turns +X toward +Y, so a negative pitch looks down.
  return poseMul(basePose, { p: fromTuple(cfg.position), q: qAxisAngle(Z, rad(cfg.pitch)) });
}

/** The camera pose now. A wrist camera without an arm falls back to the head mount. */
export function cameraPose(sim: SimWorld): Pose {
  const cfg = sim.scene.robot.camera;
  if (cfg.mount === 'wrist') {
    const hand = sim.links()?.hand;
    // The hand's +Y is its pointing axis; turning +X onto +Y makes it the optical axis.
    // A wrist camera looks along the hand tilted by its pitch, so observing a
    // table holds the hand near horizontal: whatever the fingers carry turns with it.
    if (hand) return { p: hand.p, q: qMul(hand.q, qAxisAngle(Z, Math.PI / 2 + rad(cfg.pitch))) };
  }
  return headCameraPose(cfg, sim.body.basePose);
}

export function cameraView(sim: SimWorld): CameraView {
  const cfg = sim.scene.robot.camera;
  return {
    mount: cfg.mount,
    pose: cameraPose(sim),
    halfHorizontal: rad(cfg.fov) / 2,
    halfVertical: (rad(cfg.fov) * VERTICAL_FOV_RATIO) / 2,
    range: cfg.range,
  };
}

/** A world point in the camera frame. */
export function toCameraFrame(view: CameraView, p: Vec3): Vec3 {
  return poseApply(poseInv(view.pose), p);
}

/** Inside the viewing pyramid (in front of the camera, within both half-angles)? */
export function inFieldOfView(view: CameraView, p: Vec3): boolean {
  const l = toCameraFrame(view, p);
  if (l.x <= 1e-6) return false;
  return Math.atan2(Math.abs(l.z), l.x) <= view.halfHorizontal + 1e-9 && Math.atan2(Math.abs(l.y), l.x) <= view.halfVertical + 1e-9;
}

export function inRange(view: CameraView, p: Vec3): boolean {
  return dist(view.pose.p, p) <= view.range + 1e-9;
}

/** In the field of view and in range (occlusion is checked separately, by rays). */
export function inView(view: CameraView, p: Vec3): boolean {
  return inRange(view, p) && inFieldOfView(view, p);
}
