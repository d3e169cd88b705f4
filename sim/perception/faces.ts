// Faces: where a person's eyes are and which way their face points, and whether
// the camera can recognise them now (on record, within RECOGNITION_RANGE, the
// face turned to it within FACE_ANGLE). people.ts answers the tools from these;
// person-names.ts names people by them (kept apart so naming does not depend on
// the route planner and the belief geometry people.ts needs).
import { type Vec3, add, dot, length, normalize, rad, sub, v3 } from '../math';
import type { SimWorld } from '../world/sim-world';
import { cameraView, headCameraPose } from './camera';
import { personHeight } from './geo';

export const RECOGNITION_RANGE = 4;
export const FACE_ANGLE = rad(70);

function person(sim: SimWorld, id: string) {
  const p = sim.people.get(id);
  if (!p) throw new Error(`no person "${id}"`);
  return p;
}

/** Eye point: a little below the top of the head. */
export function eyePoint(sim: SimWorld, id: string): Vec3 {
  const p = person(sim, id);
  return add(p.position, v3(0, personHeight(sim, id) - 0.1, 0));
}

/** Robot's head: the camera for a head camera, the configured head position otherwise. */
export function robotHeadPoint(sim: SimWorld): Vec3 {
  return headCameraPose(sim.scene.robot.camera, sim.body.basePose).p;
}

/** Horizontal direction a person's face points: toward their gaze target, or along their yaw. */
export function facingDirection(sim: SimWorld, id: string): Vec3 {
  const p = person(sim, id);
  const eye = eyePoint(sim, id);
  const target = p.gaze === 'robot' ? robotHeadPoint(sim) : p.gaze === 'away' ? undefined : p.gaze;
  if (target) {
    const d = normalize(v3(target.x - eye.x, 0, target.z - eye.z));
    if (length(d) > 0) return d;
  }
  return v3(Math.cos(p.yaw), 0, -Math.sin(p.yaw));
}

/** The camera can see the face: it points toward the camera within FACE_ANGLE. */
export function faceVisible(sim: SimWorld, id: string): boolean {
  const cam = cameraView(sim).pose.p;
  const eye = eyePoint(sim, id);
  const toCam = normalize(v3(cam.x - eye.x, 0, cam.z - eye.z));
  return dot(facingDirection(sim, id), toCam) >= Math.cos(FACE_ANGLE) - 1e-9;
}

/** Can the camera recognise this person now: on record (`known`), within range, the face turned to it? */
export function recognisableNow(sim: SimWorld, id: string): boolean {
  const cam = cameraView(sim).pose.p;
  return person(sim, id).spec.known && length(sub(eyePoint(sim, id), cam)) <= RECOGNITION_RANGE && faceVisible(sim, id);
}
