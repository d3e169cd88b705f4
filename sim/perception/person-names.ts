// How the robot names people. A person it has recognised (their face known to
// it, close enough and turned to the camera: people.ts) is called by their id
// and name from then on; anyone else gets a tracker handle the first time the
// camera sees them ("person_1") and is described by where they stand ("a person
// by fridge_1"), never named. A handle is all a tool may use for them: the
// name of a person the robot has not recognised denotes nobody it knows.
import type { PersonSeen } from '../world/belief';
import type { SimWorld } from '../world/sim-world';
import { personBoxAt } from './geo';
import { recognisableNow } from './faces';
import { gap } from './relations';

/** Closer than this (metres, box to box), a person stands "by" a piece of furniture. */
const BY_GAP = 0.8;

/** A handle no thing, place or person in the scene is called, nor another person was given. */
function nextHandle(sim: SimWorld): string {
  const taken = new Set<string>([...sim.entities.keys(), ...sim.people.keys(), ...sim.locations.keys()]);
  for (const p of sim.belief.people.values()) taken.add(p.handle);
  for (let n = 1; ; n++) if (!taken.has(`person_${n}`)) return `person_${n}`;
}

/** Records a person the camera sees now, recognising them if it can. */
export function seePerson(sim: SimWorld, id: string): PersonSeen {
  const p = sim.people.get(id);
  if (!p) throw new Error(`no person "${id}"`);
  return sim.belief.seePerson(id, p.position, sim.time, recognisableNow(sim, id), () => nextHandle(sim));
}

/** What the robot calls a person it has seen: their id once recognised, else its handle. */
export function personHandle(sim: SimWorld, id: string): string | undefined {
  return sim.belief.people.get(id)?.handle;
}

/** The person a handle (or, once recognised, an id) denotes, among those the robot has seen. */
export function personByHandle(sim: SimWorld, handle: string): string | undefined {
  for (const p of sim.belief.people.values()) if (p.handle === handle) return p.id;
  return undefined;
}

/** The nearest furniture to where the robot saw a person, with the gap to it. */
function nearestFurniture(sim: SimWorld, p: PersonSeen): { id: string; gap: number } | undefined {
  const box = personBoxAt(sim, p.id, p.position);
  let best: { id: string; gap: number } | undefined;
  for (const e of sim.entities.values()) {
    if (!e.fixed) continue;
    const d = gap(box, sim.aabb(e.id));
    if (!best || d < best.gap || (d === best.gap && e.id < best.id)) best = { id: e.id, gap: d };
  }
  return best;
}

/** "a person by fridge_1": where the robot saw someone it has not recognised. */
export function describePerson(sim: SimWorld, p: PersonSeen): string {
  const near = nearestFurniture(sim, p);
  if (!near) return 'a person';
  return near.gap <= BY_GAP ? `a person by ${near.id}` : `a person near ${near.id}`;
}

/** A person's name once recognised; otherwise where the robot saw them ("a person by fridge_1"). */
export function personName(sim: SimWorld, p: PersonSeen): string {
  return p.recognised ? (sim.people.get(p.id)?.spec.name ?? p.handle) : describePerson(sim, p);
}

/** A person as the robot may speak of them: "Adriana (adriana)" once recognised, else "person_1 (a person by fridge_1)". */
export function personLabel(sim: SimWorld, id: string): string {
  const p = sim.belief.people.get(id);
  if (!p) return 'a person';
  if (p.recognised) return `${sim.people.get(id)?.spec.name ?? id} (${id})`;
  return `${p.handle} (${describePerson(sim, p)})`;
}

/**
 * Who an event says acted (a mover, a speaker), as the robot may say it: a
 * person of the scene by what it calls them (their handle until recognised), or
 * "a person" if it never saw them; any other label (an operator, "a person") as given.
 */
export function actorName(sim: SimWorld, label: string | undefined): string | undefined {
  if (label === undefined) return undefined;
  const l = label.toLowerCase();
  const p = [...sim.people.values()].find((x) => x.spec.id.toLowerCase() === l || x.spec.name.toLowerCase() === l);
  if (!p) return label;
  return sim.belief.people.get(p.spec.id)?.handle ?? 'a person';
}
