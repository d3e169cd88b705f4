// Snapshot of the scene's geometry for relation queries: every entity's box,
// receptacle interior and support surfaces, plus people as boxes.
import type { Aabb } from '../math';
import { PERSON_RADIUS, personHalfLength } from '../world/people';
import { type Place, locations } from '../world/location';
import type { SimWorld } from '../world/sim-world';
import type { GeoObject } from './relations';

export { PERSON_RADIUS };

/** An entity's outline: its box, with a closed door (an open one swings outside it). */
export function geoBox(sim: SimWorld, id: string): Aabb {
  const box = sim.aabb(id);
  const door = sim.doorAabb(id);
  return door && !sim.entity(id).states.open ? union(box, door) : box;
}

export function geoObject(sim: SimWorld, id: string): GeoObject {
  const e = sim.entity(id);
  return {
    id,
    // The box alone does not need the places (contact reads): geoBox for callers that read only it.
    box: geoBox(sim, id),
    interior: sim.interior(id),
    surfaces: e.spec.surfaces.length ? sim.surfaces(id) : undefined,
    fixed: e.fixed,
    place: e.fixed ? { within: [] } : placeChain(locations(sim), id),
  };
}

/** The direct support or container of an object, and every container up its chain of supports. */
function placeChain(places: ReadonlyMap<string, Place>, id: string): GeoObject['place'] {
  const first = places.get(id);
  const within: string[] = [];
  const seen = new Set([id]);
  for (let p = first; p && (p.kind === 'in' || p.kind === 'on') && !seen.has(p.id); p = places.get(p.id)) {
    seen.add(p.id);
    if (p.kind === 'in') within.push(p.id);
  }
  return {
    ...(first?.kind === 'on' ? { on: first.id } : first?.kind === 'in' ? { in: first.id } : {}),
    within,
    free: first?.kind === 'held' || first?.kind === 'handed',
  };
}

export function geoObjects(sim: SimWorld): GeoObject[] {
  return [...sim.entities.keys()].map((id) => geoObject(sim, id));
}

/** Standing (or seated) height of a person's body, as built in the physics world. */
export function personHeight(sim: SimWorld, id: string): number {
  const p = sim.people.get(id);
  if (!p) throw new Error(`no person "${id}"`);
  // The capsule the physics builds (world/people.ts), standing on the feet.
  return 2 * (personHalfLength(p.spec) + PERSON_RADIUS);
}

/** A person's body as a box: the capsule's bounds around the feet position. */
export function personBox(sim: SimWorld, id: string): Aabb {
  const p = sim.people.get(id);
  if (!p) throw new Error(`no person "${id}"`);
  return personBoxAt(sim, id, p.position);
}

/** A person's box with the feet at a given position (where the robot saw them). */
export function personBoxAt(sim: SimWorld, id: string, position: { x: number; y: number; z: number }): Aabb {
  const p = { position };
  const r = PERSON_RADIUS;
  const h = personHeight(sim, id);
  return {
    min: { x: p.position.x - r, y: p.position.y, z: p.position.z - r },
    max: { x: p.position.x + r, y: p.position.y + h, z: p.position.z + r },
  };
}

/** A person as a relation operand: never a support or a container. */
export function geoPerson(sim: SimWorld, id: string): GeoObject {
  return { id, box: personBox(sim, id), fixed: true };
}

/** The box of an entity or a person, by id (undefined for unknown ids). */
export function targetBox(sim: SimWorld, id: string): Aabb | undefined {
  if (sim.entities.has(id)) return geoBox(sim, id);
  if (sim.people.has(id)) return personBox(sim, id);
  return undefined;
}

function union(a: Aabb, b: Aabb): Aabb {
  return {
    min: { x: Math.min(a.min.x, b.min.x), y: Math.min(a.min.y, b.min.y), z: Math.min(a.min.z, b.min.z) },
    max: { x: Math.max(a.max.x, b.max.x), y: Math.max(a.max.y, b.max.y), z: Math.max(a.max.z, b.max.z) },
  };
}
