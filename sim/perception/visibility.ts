// Line of sight from the camera, by ray casts in the physics world: an object is
// seen when at least one ray to a sample point on its box is in view and hits
// it first. Anything in front (a taller object, a closed fridge door, a person)
// occludes it. The robot's own links and the object it holds never block a
// view: the camera is assumed to see past them, and a held object is "held",
// not something lying in the scene.
import { type Aabb, type Vec3, aabbCenter, aabbSize, dist, length, scale, sub } from '../math';
import { QUERY } from '../groups';
import type { SimWorld } from '../world/sim-world';
import { type CameraView, cameraView, inView } from './camera';
import { targetBox } from './geo';
import { sceneRevision } from './scene-revision';

/** What a sight ray met first. `owner` is undefined for the floor and unnamed colliders. */
export interface SightHit {
  owner: string | undefined;
  /** Distance from the camera to the hit, metres. */
  distance: number;
}

export interface SightRay {
  point: Vec3;
  /** Distance from the camera to the sample point. */
  distance: number;
  /** The sample point is inside the field of view and range. */
  inView: boolean;
  /** First hit along the ray (only cast for points in view). */
  hit: SightHit | undefined;
}

export interface Sight {
  id: string;
  /** Some part of its box is in the field of view and range. */
  inView: boolean;
  /** Some in-view ray hits it first. */
  visible: boolean;
  rays: SightRay[];
}

/**
 * Sample points on a box: its centre and the eight points halfway to its
 * corners. Halfway keeps them inside round things (spheres, capsules, bowls),
 * so a ray aimed at one meets the object rather than grazing past it.
 */
export function samplePoints(box: Aabb): Vec3[] {
  const c = aabbCenter(box);
  const h = scale(aabbSize(box), 0.25);
  const out: Vec3[] = [c];
  for (const sx of [-1, 1])
    for (const sy of [1, -1]) for (const sz of [-1, 1]) out.push({ x: c.x + sx * h.x, y: c.y + sy * h.y, z: c.z + sz * h.z });
  return out;
}

/** Colliders that sight rays pass through: the robot's own, and the held object's unless it is the target. */
export function transparentColliders(sim: SimWorld, targetId?: string): Set<number> {
  const out = new Set<number>(sim.bodyLinks.colliders);
  const held = sim.heldId();
  if (held && held !== targetId) for (const c of sim.entity(held).colliders) out.add(c);
  return out;
}

/** First thing a ray from the camera toward `point` meets, within `maxDistance`. */
export function castSight(
  sim: SimWorld,
  view: CameraView,
  point: Vec3,
  maxDistance: number,
  skip: ReadonlySet<number>,
): SightHit | undefined {
  const o = view.pose.p;
  const d = sub(point, o);
  const len = length(d);
  if (len < 1e-6) return undefined;
  const dir = scale(d, 1 / len);
  const ray = new sim.R.Ray(o, dir);
  const hit = sim.world.castRay(ray, maxDistance, true, undefined, QUERY.sight, undefined, undefined, (c) => !skip.has(c.handle));
  if (!hit) return undefined;
  return { owner: sim.colliderOwner.get(hit.collider.handle), distance: hit.timeOfImpact };
}

/**
 * Sight of one entity or person. Rays run past the sample point by half the
 * box diagonal, so hitting the far side of a hollow thing (into a bowl) still
 * counts as seeing it; something else hit first means it is hidden there.
 */
export function sightOf(sim: SimWorld, id: string, view: CameraView = cameraView(sim)): Sight {
  const box = targetBox(sim, id);
  if (!box) throw new Error(`no object or person "${id}"`);
  const skip = transparentColliders(sim, id);
  const beyond = length(aabbSize(box)) / 2 + 0.01;
  const rays: SightRay[] = samplePoints(box).map((point) => {
    const distance = dist(view.pose.p, point);
    const seen = inView(view, point);
    return { point, distance, inView: seen, hit: seen ? castSight(sim, view, point, distance + beyond, skip) : undefined };
  });
  return {
    id,
    inView: rays.some((r) => r.inView),
    visible: rays.some((r) => r.inView && r.hit?.owner === id),
    rays,
  };
}

/**
 * Things in front of a target along its sight rays: owners of first hits that
 * lie clearly before the sample point. Counted per owner; the centre ray counts
 * twice, so one grazing corner ray does not make a neighbour an occluder.
 */
export function occludersOf(sight: Sight): Map<string, number> {
  const out = new Map<string, number>();
  sight.rays.forEach((r, i) => {
    if (!r.inView || !r.hit || r.hit.owner === undefined || r.hit.owner === sight.id) return;
    if (r.hit.distance >= r.distance - 0.01) return;
    out.set(r.hit.owner, (out.get(r.hit.owner) ?? 0) + (i === 0 ? 2 : 1));
  });
  return out;
}

/**
 * Is the target seen? The same rays as sightOf, centre first, stopping at the
 * first one that reaches it: most visible things cost one ray.
 */
function seen(sim: SimWorld, id: string, view: CameraView, skip: ReadonlySet<number>): boolean {
  const box = targetBox(sim, id);
  if (!box) return false;
  const beyond = length(aabbSize(box)) / 2 + 0.01;
  for (const point of samplePoints(box)) {
    if (!inView(view, point)) continue;
    if (castSight(sim, view, point, dist(view.pose.p, point) + beyond, skip)?.owner === id) return true;
  }
  return false;
}

/** One answer per scene revision and camera pose: tools ask the same question many times, and a still scene looks the same step after step. */
const visibleCache = new WeakMap<SimWorld, { key: string; ids: string[] }>();

/** Entities the camera sees now, exactly (no noise), in id order; the held object is not among them. */
export function visibleEntityIds(sim: SimWorld, view: CameraView = cameraView(sim)): string[] {
  const held = sim.heldId();
  const p = view.pose;
  const key = `${sceneRevision(sim)}|${held ?? ''}|${p.p.x},${p.p.y},${p.p.z},${p.q.x},${p.q.y},${p.q.z},${p.q.w}`;
  const hit = visibleCache.get(sim);
  if (hit && hit.key === key) return [...hit.ids];
  const skip = transparentColliders(sim);
  const ids = [...sim.entities.keys()].filter((id) => id !== held && seen(sim, id, view, skip)).sort();
  visibleCache.set(sim, { key, ids });
  return [...ids];
}

/** People the camera sees now, exactly, in id order. */
export function visiblePersonIds(sim: SimWorld, view: CameraView = cameraView(sim)): string[] {
  return [...sim.people.keys()].filter((id) => sightOf(sim, id, view).visible).sort();
}

export function isVisible(sim: SimWorld, id: string): boolean {
  if (sim.isHeld(id)) return false;
  return sightOf(sim, id).visible;
}
