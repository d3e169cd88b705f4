// RAIDER's human-related tools (paper 001 Fig. 16): who is around, who is
// recognised, how far a person is, whether their hands are free, whether they
// look at the robot, and whether the way to a target is free.
// - Around: people the camera sees now (in view, in range, not occluded),
//   recognised or not; ids, since an unknown face has no name.
// - Recognised: seen, on record (`known`), within RECOGNITION_RANGE of the
//   camera, and facing it: the face points (their gaze, or their body's yaw when
//   they look "away") within FACE_ANGLE of the camera.
// - Gaze: "robot", or a gaze point whose direction from the eyes passes within
//   GAZE_ANGLE of the robot's head (camera) or of its body centre.
// - Free path: the base footprint swept in a straight line to the target's
//   approach point (where the base would stand), against furniture, objects,
//   people and doors; the target itself never blocks its own approach.
import { compareIds } from '../ids';
import { type Aabb, type Vec3, add, aabbCenter, distXZ, dot, fromTuple, length, normalize, qYaw, rad, scale, sub, v3 } from '../math';
import { QUERY } from '../groups';
import type { Location } from '../../scenes/schema';
import type { SimWorld } from '../world/sim-world';
import { cameraView, headCameraPose } from './camera';
import { believedGeos } from './believed';
import { PERSON_RADIUS, geoBox, personHeight } from './geo';
import { supportOf } from './relations';
import { visiblePersonIds } from './visibility';

export const RECOGNITION_RANGE = 4;
export const FACE_ANGLE = rad(70);
export const GAZE_ANGLE = rad(15);
/** Space left between a person and the robot base when it comes to them (as the approach skill does). */
export const PERSON_STANDOFF = 0.35;

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

/** Centre of the robot's base box. */
function robotBodyPoint(sim: SimWorld): Vec3 {
  const b = sim.body.basePose.p;
  return v3(b.x, b.y + sim.scene.robot.base.size[1] / 2, b.z);
}

/** People in view now, recognised or not, nearest first. */
export function humansAround(sim: SimWorld): string[] {
  const view = cameraView(sim);
  const d = (id: string): number => length(sub(person(sim, id).position, view.pose.p));
  return visiblePersonIds(sim, view).sort((a, b) => d(a) - d(b) || compareIds(a, b));
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

/** Names (with ids) of the people seen and recognised now. */
export function recogniseHumans(sim: SimWorld): Array<{ id: string; name: string }> {
  const cam = cameraView(sim).pose.p;
  return humansAround(sim)
    .filter((id) => person(sim, id).spec.known && length(sub(eyePoint(sim, id), cam)) <= RECOGNITION_RANGE && faceVisible(sim, id))
    .map((id) => ({ id, name: person(sim, id).spec.name }));
}

export function handsFree(sim: SimWorld, id: string): boolean {
  return person(sim, id).handsFree;
}

export function gazeAtRobot(sim: SimWorld, id: string): boolean {
  const p = person(sim, id);
  if (p.gaze === 'robot') return true;
  if (p.gaze === 'away') return false;
  const eye = eyePoint(sim, id);
  const look = normalize(sub(p.gaze, eye));
  if (length(look) === 0) return false;
  return [robotHeadPoint(sim), robotBodyPoint(sim)].some((t) => dot(look, normalize(sub(t, eye))) >= Math.cos(GAZE_ANGLE) - 1e-9);
}

export interface FreePath {
  free: boolean;
  /** First thing the footprint would hit (an id, or "an obstacle" for unnamed geometry). */
  obstacle?: string;
  /** Where the base would stand at the target. */
  goal?: Vec3;
  /** Why no sweep was made (a robot that cannot drive, an unknown target). */
  reason?: string;
}

/** The fixed thing (table, counter) an object ultimately rests on, as the robot believes, if any. */
function fixedCarrier(sim: SimWorld, id: string): string | undefined {
  const all = believedGeos(sim);
  let cur = all.find((g) => g.id === id);
  for (let i = 0; cur && i < 8; i++) {
    if (cur.fixed) return cur.id;
    const s = supportOf(cur, all);
    cur = s ? all.find((g) => g.id === s.id) : undefined;
  }
  return undefined;
}

/** How far from `c` (inside or on the box) a horizontal ray along `dir` leaves the box's footprint. */
function exitDistance(box: Aabb, c: Vec3, dir: Vec3): number {
  const t = (p: number, d: number, lo: number, hi: number): number =>
    Math.abs(d) < 1e-9 ? Infinity : Math.max((lo - p) / d, (hi - p) / d);
  return Math.max(0, Math.min(t(c.x, dir.x, box.min.x, box.max.x), t(c.z, dir.z, box.min.z, box.max.z)));
}

/**
 * Where the base stands to reach a target: a location's pose; in front of a
 * person (as the approach skill does); for an object, the nearest location
 * that serves it or the furniture it rests on, else a point on the line from
 * the object toward the robot, clear of that furniture (or of the object
 * itself) by the base's half length and 10 cm.
 */
export function approachPoint(sim: SimWorld, target: string): Vec3 | undefined {
  const [sx] = sim.scene.robot.base.size;
  const base = sim.body.basePose.p;
  const loc = sim.locations.get(target);
  if (loc) return fromTuple(loc.pose.position);
  const p = sim.people.get(target);
  if (p) {
    const facing = v3(Math.cos(p.yaw), 0, -Math.sin(p.yaw));
    const stand = add(p.position, scale(facing, PERSON_RADIUS + PERSON_STANDOFF + sx / 2));
    return v3(stand.x, base.y, stand.z);
  }
  if (!sim.entities.has(target)) return undefined;
  const serving = servingLocation(sim, target);
  if (serving) return fromTuple(serving.pose.position);
  const carrier = fixedCarrier(sim, target);
  const known = believedGeos(sim);
  const boxOf = (x: string): Aabb => known.find((g) => g.id === x)?.box ?? geoBox(sim, x);
  const c = aabbCenter(boxOf(target));
  const clearOf = boxOf(carrier ?? target);
  const toRobot = normalize(v3(base.x - c.x, 0, base.z - c.z));
  const stand = add(c, scale(toRobot, exitDistance(clearOf, c, toRobot) + sx / 2 + 0.1));
  return v3(stand.x, base.y, stand.z);
}

/** The nearest location that serves an object, or the furniture it rests on. */
export function servingLocation(sim: SimWorld, target: string): Location | undefined {
  const base = sim.body.basePose.p;
  const carrier = fixedCarrier(sim, target);
  const servedBy = new Set([target, ...(carrier ? [carrier] : [])]);
  return [...sim.locations.values()]
    .filter((l) => l.serves.some((s) => servedBy.has(s)))
    .sort((a, b) => distXZ(fromTuple(a.pose.position), base) - distXZ(fromTuple(b.pose.position), base))[0];
}

/**
 * Sweeps the base footprint from where it stands to the target's approach
 * point. The box is 4 cm slimmer on each side than the base, as the
 * navigation skill sweeps it, so a pose that sits close to furniture is not
 * reported as blocked by that furniture. Straight line only: a blocked
 * straight path may still be driven round via the scene's waypoints.
 */
export function freePath(sim: SimWorld, target: string): FreePath {
  if (sim.scene.robot.kind === 'fixed_arm')
    return { free: false, reason: `${sim.scene.robot.title} is fixed in place; it cannot move to ${target}` };
  const goal = approachPoint(sim, target);
  if (!goal) return { free: false, reason: `there is no "${target}" to approach` };
  const from = sim.body.basePose.p;
  const d = sub(goal, from);
  if (Math.hypot(d.x, d.z) < 1e-3) return { free: true, goal };
  const [sx, sy, sz] = sim.scene.robot.base.size;
  const shape = new sim.R.Cuboid(Math.max(0.05, sx / 2 - 0.04), sy / 2, Math.max(0.05, sz / 2 - 0.04));
  const rot = qYaw(Math.atan2(-d.z, d.x));
  const start = v3(from.x, from.y + sy / 2 + 0.02, from.z);
  const skip = new Set<number>(sim.bodyLinks.colliders);
  const held = sim.heldId();
  if (held) for (const c of sim.entity(held).colliders) skip.add(c);
  const hit = sim.world.castShape(start, rot, v3(d.x, 0, d.z), shape, 0, 1, true, undefined, QUERY.drive, undefined, undefined, (c) => {
    if (skip.has(c.handle)) return false;
    return sim.colliderOwner.get(c.handle) !== target;
  });
  if (!hit) return { free: true, goal };
  return { free: false, obstacle: sim.colliderOwner.get(hit.collider.handle) ?? 'an obstacle', goal };
}
