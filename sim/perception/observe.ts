// Perception writes the robot's belief (world/belief.ts; paper 003 §5's
// observation buffer). `observe` records what the camera sees now, where it
// rests and how it stands, and forgets what it should see but does not (someone
// took it away). The perceive skill points a wrist camera first; a head camera
// looks all the time, so under full observability every query and skill looks
// first (`look`). Observations made before the base last moved stay in the
// belief but are stale for a wrist-camera robot (snapshot marks them).
import { compareIds } from '../ids';
import { type Vec3, dist } from '../math';
import type { BeliefEntry } from '../world/belief';
import { aabbToWorld } from '../world/entity';
import { locationOf } from '../world/location';
import type { BelievedPlace } from '../world/place';
import type { SimWorld } from '../world/sim-world';
import { cameraView, inView } from './camera';
import { sceneRevision } from './scene-revision';
import { detectObjects } from './detection';
import { lookInside } from './insides';
import { seePerson } from './person-names';
import { castSight, transparentColliders, visibleEntityIds, visiblePersonIds } from './visibility';

export interface ObservedObject {
  id: string;
  support: string | undefined;
  relation: 'on' | 'in' | undefined;
  position: Vec3;
}

export interface ObserveResult {
  /** Objects seen now, with what they rest on or in (furniture is known a priori and not listed). */
  observed: ObservedObject[];
  /** Objects forgotten: their recorded spot was in plain view and empty. */
  removed: string[];
}

export interface ObserveOptions {
  /** Apply detection dropout (default true; a no-op when it is 0). */
  noise?: boolean;
}

/** Where the belief says the object's box centre is. */
export function believedCentre(sim: SimWorld, o: BeliefEntry): Vec3 {
  const b = aabbToWorld(sim.entity(o.id).localAabb, o.pose);
  return { x: (b.min.x + b.max.x) / 2, y: (b.min.y + b.max.y) / 2, z: (b.min.z + b.max.z) / 2 };
}

/**
 * Is the recorded spot of an observation in plain view now? Yes when it is in
 * the field of view and range and the sight ray reaches it (the first hit is
 * not clearly in front of it). A closed fridge door, or another object in
 * front, leaves the spot unseen and the observation is kept.
 */
function spotInPlainView(sim: SimWorld, o: BeliefEntry): boolean {
  const view = cameraView(sim);
  const spot = believedCentre(sim, o);
  if (!inView(view, spot)) return false;
  const d = dist(view.pose.p, spot);
  const hit = castSight(sim, view, spot, d + 0.05, transparentColliders(sim));
  // Hitting the object itself means it is still there (missed only by detection noise).
  return !hit || (hit.owner !== o.id && hit.distance >= d - 0.03);
}

function supportOfPlace(p: BelievedPlace): { support: string | undefined; relation: 'on' | 'in' | undefined } {
  return p.kind === 'on' || p.kind === 'in' ? { support: p.id, relation: p.kind } : { support: undefined, relation: undefined };
}

/**
 * Records what the robot knows of an object now (it sees it, or put it there
 * itself). A support the robot knows (furniture, or perceived) is named; one it
 * sees now is recorded too; one it has not perceived stays unnamed
 * ("on something the robot has not perceived"), so no record names a thing the
 * robot does not know.
 */
export function record(sim: SimWorld, id: string, how: BeliefEntry['how'], depth = 0): BeliefEntry {
  let place: BelievedPlace = locationOf(sim, id);
  if (place.kind === 'on' || place.kind === 'in') {
    const e = sim.entities.get(place.id);
    if (e && !e.fixed && !sim.belief.has(e.id)) {
      if (depth < 8 && visibleEntityIds(sim).includes(e.id)) record(sim, e.id, 'seen', depth + 1);
      else place = { kind: 'unperceived', relation: place.kind };
    }
  }
  // Handed to a person: the robot calls them what it calls them (a handle until it recognised them).
  if (place.kind === 'handed') place = { kind: 'handed', person: personHandleFor(sim, place.person) };
  const entry: BeliefEntry = {
    id,
    pose: sim.pose(id),
    place,
    time: sim.time,
    baseMoves: sim.body.baseMoves,
    at: sim.body.at,
    how,
    states: { ...sim.entity(id).states },
  };
  sim.belief.set(entry);
  return entry;
}

/** The robot's name for a person it handed something to (it stood before them): their handle. */
function personHandleFor(sim: SimWorld, person: string): string {
  return sim.belief.people.get(person)?.handle ?? (sim.people.has(person) ? seePerson(sim, person).handle : person);
}

export function observe(sim: SimWorld, opts: ObserveOptions = {}): ObserveResult {
  const seen = detectObjects(sim, { noise: opts.noise !== false, fixed: false });
  const observed: ObservedObject[] = [];
  for (const d of seen) {
    const e = record(sim, d.id, 'seen');
    observed.push({ id: d.id, ...supportOfPlace(e.place), position: believedCentre(sim, e) });
  }
  const seenIds = new Set(seen.map((d) => d.id));
  const held = sim.heldId();
  const removed: string[] = [];
  for (const [id, o] of [...sim.belief.objects].sort(([a], [b]) => compareIds(a, b))) {
    if (seenIds.has(id) || id === held || o.place.kind === 'held' || o.place.kind === 'handed') continue;
    if (spotInPlainView(sim, o)) {
      sim.belief.forget(id);
      removed.push(id);
    }
  }
  for (const pid of visiblePersonIds(sim)) seePerson(sim, pid);
  lookInside(sim);
  return { observed, removed };
}

/** The robot knows where it has just put an object: it watched its own hand. */
export function recordPlacement(sim: SimWorld, id: string): void {
  record(sim, id, sim.isHeld(id) ? 'held' : 'placed');
}

/** What the last full look saw, to renew it while nothing moves. */
interface LastLook {
  version: number;
  camera: string;
  scene: number;
  belief: number;
  /** Belief entries and people that look recorded (seen now), and the storages it saw inside. */
  objects: string[];
  people: string[];
  insides: string[];
}
const looked = new WeakMap<SimWorld, LastLook>();

/**
 * Looks with the camera it has when the scene says it looks all the time (full
 * observability). When nothing the camera or the belief depends on has moved
 * since the last look (same scene revision, the belief untouched since), looking
 * again would see the same things at the same poses: what it saw then is seen
 * again now (its time renewed) without casting a ray. With detection dropout,
 * every look draws again, as a real detector would.
 */
export function look(sim: SimWorld): void {
  if (sim.scene.scene.perception.partialObservability) return;
  const last = looked.get(sim);
  const p = cameraView(sim).pose;
  const camera = `${p.p.x},${p.p.y},${p.p.z},${p.q.x},${p.q.y},${p.q.z},${p.q.w}`;
  if (last && last.version === sim.version) {
    if (last.camera === camera) return;
    // The camera moved with no step (the world's version kept): look afresh.
    fullLook(sim, camera, NaN);
    return;
  }
  const scene = sceneRevision(sim);
  // Noisy detection draws from the world's RNG on every look: the draws must go on.
  const exact = !(sim.noise.detectionDropout > 0) && !(sim.noise.distanceSigma > 0);
  if (last && exact && last.scene === scene && last.belief === sim.belief.revision) {
    renew(sim, last);
    return;
  }
  fullLook(sim, camera, scene);
}

function fullLook(sim: SimWorld, camera: string, scene: number): void {
  const objects = new Map(sim.belief.objects);
  const people = new Map(sim.belief.people);
  const insides = new Map(sim.belief.insides);
  observe(sim);
  looked.set(sim, {
    version: sim.version,
    camera,
    scene,
    belief: sim.belief.revision,
    objects: [...sim.belief.objects].filter(([id, e]) => objects.get(id) !== e).map(([id]) => id),
    people: [...sim.belief.people].filter(([id, p]) => people.get(id) !== p).map(([id]) => id),
    insides: [...sim.belief.insides].filter(([id, i]) => insides.get(id) !== i).map(([id]) => id),
  });
}

/** Seen again, unchanged: the same records with the time of now. */
function renew(sim: SimWorld, last: LastLook): void {
  for (const id of last.objects) sim.belief.renew(id, sim.time);
  for (const id of last.people) sim.belief.renewPerson(id, sim.time);
  for (const id of last.insides) sim.belief.sawInside(id, sim.time);
  last.version = sim.version;
  last.belief = sim.belief.revision;
}
