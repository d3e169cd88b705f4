// Distances the tools report (RAIDER's dist_to_target, dist_between_objs,
// dist_robot_to_human). Definitions, so numbers can be checked against geometry:
// - robot to a target: from the arm's shoulder (where reach is measured, see
//   sim/skills/arm.ts) to the closest point of the target's box, in 3D; for a
//   robot without an arm, from the base centre to the box on the floor plane.
// - between two objects: the gap between their boxes (0 when they touch or
//   overlap), because "how close is the medicine to the plant" is about the
//   space between them; `centreDistance` gives the distance between centres.
// - robot to a person: the gap between the base footprint and the person's
//   body, as the handover skill measures it (handovers need 0.5 m or less).
// With `sim.noise.distanceSigma` set, reported distances get seeded gaussian
// noise (never below 0); pass `{ noise: false }` for the exact value.
import { type Aabb, type Vec3, aabbCenter, dist, poseApply, poseInv, v3 } from '../math';
import type { SimWorld } from '../world/sim-world';
import { PERSON_RADIUS, targetBox } from './geo';
import { gap } from './relations';

export interface DistanceOptions {
  /** Add the configured noise (default true; a no-op while distanceSigma is 0). */
  noise?: boolean;
}

/** Shoulder of the arm in the world (the kinematics' shoulder in the mount frame). */
export function shoulderPoint(sim: SimWorld): Vec3 | undefined {
  const k = sim.kinematics;
  if (!k) return undefined;
  return poseApply(sim.bodyLinks.mountPose(sim.body.basePose), k.shoulder);
}

export function closestPoint(box: Aabb, p: Vec3): Vec3 {
  const c = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
  return v3(c(p.x, box.min.x, box.max.x), c(p.y, box.min.y, box.max.y), c(p.z, box.min.z, box.max.z));
}

/** A reported distance with the configured gaussian noise drawn from the world's seeded RNG. */
export function reportDistance(sim: SimWorld, exact: number, opts: DistanceOptions = {}): number {
  const sigma = sim.noise.distanceSigma;
  if (opts.noise === false || !(sigma > 0)) return exact;
  return Math.max(0, exact + sigma * sim.rng.gaussian());
}

function boxOf(sim: SimWorld, id: string): Aabb {
  const box = targetBox(sim, id);
  if (!box) throw new Error(`no object or person "${id}"`);
  return box;
}

/** Robot to an object or person, metres (see the header for the definition). */
export function distanceToTarget(sim: SimWorld, id: string, opts: DistanceOptions = {}): number {
  const box = boxOf(sim, id);
  const shoulder = shoulderPoint(sim);
  let exact: number;
  if (shoulder) {
    exact = dist(shoulder, closestPoint(box, shoulder));
  } else {
    const b = sim.body.basePose.p;
    const dx = Math.max(0, box.min.x - b.x, b.x - box.max.x);
    const dz = Math.max(0, box.min.z - b.z, b.z - box.max.z);
    exact = Math.hypot(dx, dz);
  }
  return reportDistance(sim, exact, opts);
}

/** Gap between two objects' (or people's) boxes, metres; 0 when they touch. */
export function distanceBetween(sim: SimWorld, a: string, b: string, opts: DistanceOptions = {}): number {
  return reportDistance(sim, gap(boxOf(sim, a), boxOf(sim, b)), opts);
}

/** Distance between the centres of two boxes, metres (exact). */
export function centreDistance(sim: SimWorld, a: string, b: string): number {
  return dist(aabbCenter(boxOf(sim, a)), aabbCenter(boxOf(sim, b)));
}

/** Gap between the robot's base footprint and a person's body on the floor plane, metres. */
export function robotHumanDistance(sim: SimWorld, personId: string, opts: DistanceOptions = {}): number {
  const p = sim.people.get(personId);
  if (!p) throw new Error(`no person "${personId}"`);
  const local = poseApply(poseInv(sim.body.basePose), p.position);
  const [sx, , sz] = sim.scene.robot.base.size;
  const dx = Math.max(0, Math.abs(local.x) - sx / 2);
  const dz = Math.max(0, Math.abs(local.z) - sz / 2);
  return reportDistance(sim, Math.max(0, Math.hypot(dx, dz) - PERSON_RADIUS), opts);
}
