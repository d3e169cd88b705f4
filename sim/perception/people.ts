// RAIDER's human-related tools (paper 001 Fig. 16): who is around, who is
// recognised, how far a person is, whether their hands are free, whether they
// look at the robot, and whether the way to a target is free.
// - Around: people the camera sees now (in view, in range, not occluded),
//   recognised or not (person-names.ts says what the robot calls them).
// - Recognised: seen, on record (`known`), within RECOGNITION_RANGE of the
//   camera, and facing it: the face points (their gaze, or their body's yaw when
//   they look "away") within FACE_ANGLE of the camera.
// - Gaze: "robot", or a gaze point whose direction from the eyes passes within
//   GAZE_ANGLE of the robot's head (camera) or of its body centre.
// - Free path: planned exactly as the drive there would be (route.ts: the
//   footprint swept straight, else via named places) to where the skills would
//   stand (driveGoal); a person never blocks their own approach.
import { compareIds } from '../ids';
import { type Vec3, add, distXZ, dot, fromTuple, length, normalize, rad, scale, sub, v3 } from '../math';
import type { Location } from '../../scenes/schema';
import type { SimWorld } from '../world/sim-world';
import { cameraView } from './camera';
import { eyePoint, recognisableNow, robotHeadPoint } from './faces';
import { believedGeos } from './believed';
import { PERSON_RADIUS } from './geo';
import { supportOf } from './relations';
import { planRoute } from './route';
import { visiblePersonIds } from './visibility';

export { FACE_ANGLE, RECOGNITION_RANGE, eyePoint, faceVisible, facingDirection, recognisableNow, robotHeadPoint } from './faces';

export const GAZE_ANGLE = rad(15);
/** Space left between a person and the robot base when it comes to them (as the approach skill does). */
export const PERSON_STANDOFF = 0.35;

function person(sim: SimWorld, id: string) {
  const p = sim.people.get(id);
  if (!p) throw new Error(`no person "${id}"`);
  return p;
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

/** Names (with ids) of the people in view the camera can recognise now. */
export function recogniseHumans(sim: SimWorld): Array<{ id: string; name: string }> {
  return humansAround(sim)
    .filter((id) => recognisableNow(sim, id))
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
  /** First thing the footprint would hit on the straight way (an id, or "an obstacle" for unnamed geometry). */
  obstacle?: string;
  /** Where the base would stand at the target. */
  goal?: Vec3;
  /** Named places the way passes through when the straight way is blocked (0: straight). */
  via?: number;
  /** Why no drive is possible (a robot that cannot drive, an unknown target, no place to approach from). */
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

/** Where the base stands to reach a person: in front of them, clear of them by PERSON_STANDOFF (as the approach skill does). */
export function approachPoint(sim: SimWorld, target: string): Vec3 | undefined {
  const [sx] = sim.scene.robot.base.size;
  const p = sim.people.get(target);
  if (!p) return undefined;
  const facing = v3(Math.cos(p.yaw), 0, -Math.sin(p.yaw));
  const stand = add(p.position, scale(facing, PERSON_RADIUS + PERSON_STANDOFF + sx / 2));
  return v3(stand.x, sim.body.basePose.p.y, stand.z);
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
 * Where a drive to a target goes, exactly as the skills take it (SimRobot's
 * approach and navigate): in front of a person (never blocked by that person),
 * a named place's pose, or the place that serves an object or what it stands on.
 */
export function driveGoal(sim: SimWorld, target: string): { goal: Vec3; ignore: string[] } | { reason: string } {
  if (sim.people.has(target)) {
    const stand = approachPoint(sim, target);
    return stand ? { goal: stand, ignore: [target] } : { reason: `there is no "${target}" to approach` };
  }
  const loc = sim.locations.get(target);
  if (loc) return { goal: fromTuple(loc.pose.position), ignore: [] };
  if (!sim.entities.has(target)) return { reason: `there is no "${target}" to approach` };
  const serving = servingLocation(sim, target);
  if (!serving) return { reason: `no known place to approach ${target} from` };
  return { goal: fromTuple(serving.pose.position), ignore: [] };
}

/**
 * Whether the base can drive to the target, planned as the drive itself plans
 * it (route.ts): free straight or via named places, or blocked by what is in
 * the straight way. "Blocked" here is a failed drive there, and "free" an
 * arrival, in the same world.
 */
export function freePath(sim: SimWorld, target: string): FreePath {
  if (sim.scene.robot.kind === 'fixed_arm')
    return { free: false, reason: `${sim.scene.robot.title} is fixed in place; it cannot move to ${target}` };
  const g = driveGoal(sim, target);
  if ('reason' in g) return { free: false, reason: g.reason };
  const route = planRoute(sim, g.goal, new Set(g.ignore));
  if ('blockedBy' in route) return { free: false, obstacle: route.blockedBy, goal: g.goal };
  return { free: true, goal: g.goal, via: route.path.length - 1 };
}
