// What the robot believes, as geometry: the objects it knows (furniture and
// appliances a priori, everything else once perceived or handled) with their
// boxes at the poses it perceived them. Tools, planners and messages read these;
// sim/perception/geo.ts reads the world itself (physics, scoring).
import type { ObjectStates } from '../../scenes/schema';
import { type Aabb, type Pose, fromTuple, qEulerDeg, qIdentity, qMul, rotate, sub, v3 } from '../math';
import { primitiveHalfExtents } from '../../scenes/shapes';
import type { BeliefEntry } from '../world/belief';
import { aabbToWorld, interiorAt, surfacesAt, transformBox, unionAll } from '../world/entity';
import type { SimWorld } from '../world/sim-world';
import { geoObject } from './geo';
import { look } from './observe';
import { sceneRevision } from './scene-revision';
import type { GeoObject } from './relations';

/**
 * Objects the robot knows of: furniture and appliances, and what it has
 * perceived or handled. A head camera looks all the time (full observability),
 * so asking looks first.
 */
export function knownObjectIds(sim: SimWorld): string[] {
  look(sim);
  return [...sim.entities.values()]
    .filter((e) => e.fixed || sim.belief.has(e.id))
    .map((e) => e.id)
    .sort();
}

export function isKnown(sim: SimWorld, id: string): boolean {
  const e = sim.entities.get(id);
  return Boolean(e && (e.fixed || sim.belief.has(id)));
}

/** A wrist-camera observation made before the base last moved no longer tells where the object is. */
export function isStale(sim: SimWorld, id: string): boolean {
  const o = sim.belief.get(id);
  return Boolean(o && sim.scene.scene.perception.partialObservability && o.how === 'seen' && o.baseMoves !== sim.body.baseMoves);
}

/**
 * Where the hand carries what it holds: the hand's pose (the robot knows its
 * joints) with the object where the fingers closed on it.
 */
export function carriedPose(sim: SimWorld): Pose | undefined {
  const g = sim.grasp?.state;
  const tcp = sim.tcp();
  if (!g || !tcp) return undefined;
  const q = qMul(tcp.q, g.relQ);
  return { p: sub(tcp.p, rotate(q, g.pointLocal)), q };
}

/**
 * A known thing's pose as the robot knows it: furniture where the map puts it
 * (it does not move), what the hand holds where the hand carries it, anything
 * else where it was last perceived. Undefined for what it does not know.
 */
export function believedPose(sim: SimWorld, id: string): Pose | undefined {
  const e = sim.entities.get(id);
  if (!e) return undefined;
  if (e.fixed) return sim.pose(id);
  if (sim.isHeld(id)) return carriedPose(sim) ?? sim.belief.get(id)?.pose;
  return sim.belief.get(id)?.pose;
}

/**
 * A known thing's states as the robot knows them: furniture's and appliances'
 * as they are (only the robot opens, closes or switches them), an object's as
 * last perceived (what changed out of view is not known).
 */
export function believedStates(sim: SimWorld, id: string): ObjectStates | undefined {
  const e = sim.entities.get(id);
  if (!e) return undefined;
  return e.fixed ? { ...e.states } : sim.belief.get(id)?.states;
}

/**
 * The box of a believed object at the pose the robot last perceived it: each part's
 * box turned with the pose, then united. The body's own box turned whole would be
 * far larger than the object when it lies tipped (a chair on its side would reach
 * a toaster 16 cm away and be called "near" it).
 */
export function believedBox(sim: SimWorld, o: BeliefEntry): Aabb {
  const e = sim.entity(o.id);
  const parts = e.prims.filter((p) => p.collider);
  if (!parts.length) return aabbToWorld(e.localAabb, o.pose);
  return unionAll(
    parts.map((p) => {
      const h = primitiveHalfExtents(p.geometry);
      const c = rotate(o.pose.q, fromTuple(p.position));
      const at = v3(o.pose.p.x + c.x, o.pose.p.y + c.y, o.pose.p.z + c.z);
      // A ball's box does not turn with it.
      const q = p.geometry.shape === 'sphere' ? qIdentity() : qMul(o.pose.q, qEulerDeg(p.rotation));
      return transformBox(at, q, v3(h[0], h[1], h[2]));
    }),
  );
}

/** The believed chain of supports: what it rests on or in, and every container up the chain. */
function believedPlace(sim: SimWorld, id: string): GeoObject['place'] {
  const first = sim.belief.get(id)?.place;
  const within: string[] = [];
  const seen = new Set([id]);
  for (let p = first; p && (p.kind === 'in' || p.kind === 'on') && !seen.has(p.id);) {
    seen.add(p.id);
    if (p.kind === 'in') within.push(p.id);
    const e = sim.entities.get(p.id);
    p = e?.fixed ? undefined : sim.belief.get(p.id)?.place;
  }
  return {
    ...(first?.kind === 'on' ? { on: first.id } : first?.kind === 'in' ? { in: first.id } : {}),
    within,
    free: first?.kind === 'held' || first?.kind === 'handed',
  };
}

/** A known object as the robot believes it: furniture as it is, others as last perceived. */
export function believedGeo(sim: SimWorld, id: string): GeoObject {
  const e = sim.entity(id);
  if (e.fixed) return geoObject(sim, id);
  const o = sim.belief.get(id);
  if (!o) throw new Error(`${id} is not in the robot's belief`);
  const upright = rotate(o.pose.q, v3(0, 1, 0)).y >= 0.5;
  return {
    id,
    box: believedBox(sim, o),
    interior: upright ? interiorAt(e, o.pose) : undefined,
    surfaces: e.spec.surfaces.length ? surfacesAt(e, o.pose) : undefined,
    fixed: false,
    place: believedPlace(sim, id),
  };
}

/** Built once per scene revision and belief (poses and places): tools and queries ask many times. Read only. */
const geosCache = new WeakMap<SimWorld, { scene: number; belief: number; geos: readonly GeoObject[] }>();

/** Every known object as believed (the held one at the hand, as the robot knows). The objects are shared: read only. */
export function believedGeos(sim: SimWorld): GeoObject[] {
  look(sim);
  const scene = sceneRevision(sim);
  const belief = sim.belief.placeRevision;
  const hit = geosCache.get(sim);
  if (hit && hit.scene === scene && hit.belief === belief) return [...hit.geos];
  const geos = knownObjectIds(sim).map((id) =>
    sim.isHeld(id) ? { ...geoObject(sim, id), place: { within: [], free: true } } : believedGeo(sim, id),
  );
  geosCache.set(sim, { scene, belief, geos });
  return [...geos];
}
