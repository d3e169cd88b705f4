// Snapshot of the scene's geometry for relation queries: every entity's box,
// receptacle interior and support surfaces, plus people as boxes.
import type { Aabb } from '../math';
import type { SimWorld } from '../world/sim-world';
import type { GeoObject } from './relations';

export function geoObject(sim: SimWorld, id: string): GeoObject {
  const e = sim.entity(id);
  const box = sim.aabb(id);
  const door = sim.doorAabb(id);
  return {
    id,
    // A closed door is part of the thing's outline; an open one swings outside it.
    box: door && !e.states.open ? union(box, door) : box,
    interior: sim.interior(id),
    surfaces: e.spec.surfaces.length ? sim.surfaces(id) : undefined,
    fixed: e.fixed,
  };
}

export function geoObjects(sim: SimWorld): GeoObject[] {
  return [...sim.entities.keys()].map((id) => geoObject(sim, id));
}

function union(a: Aabb, b: Aabb): Aabb {
  return {
    min: { x: Math.min(a.min.x, b.min.x), y: Math.min(a.min.y, b.min.y), z: Math.min(a.min.z, b.min.z) },
    max: { x: Math.max(a.max.x, b.max.x), y: Math.max(a.max.y, b.max.y), z: Math.max(a.max.z, b.max.z) },
  };
}
