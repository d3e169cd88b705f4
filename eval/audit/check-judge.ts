// The claims a tool's sentences make, each with its judge. Physics: what the
// hand holds, where an object rests, a door, a switch, the base, the battery,
// read from the audit's own reading of the world after the call. Belief: what
// the robot has perceived (sim/world/belief.ts, read here directly): the
// record's place, pose and time. Catalogue: what a thing is (its kind,
// properties, display name), from the scene.
import type { BeliefEntry } from '../../sim/world/belief';
import type { Judge } from './check-read';
import { type Box, type V, ROBOT, agrees, boxAtPose, rot, vec } from './truth';
import { readable, unsureWhy } from './check-core';
import { sightOf } from './check-sight';

/** An id, and an id with its display name: "lemon_1", "mug_2 (blue mug)". */
export const ID = '[a-z][a-z0-9_]*';
export const THING = `(${ID})(?: \\(([^()]+)\\))?`;
export const NUM = '-?\\d+(?:\\.\\d+)?';

export type PlaceWords =
  | { kind: 'held' }
  | { kind: 'handed'; person: string }
  | { kind: 'in' | 'on'; id: string }
  | { kind: 'floor' }
  | { kind: 'robot'; part: string }
  | { kind: 'unperceived'; relation: 'on' | 'in' }
  | { kind: 'moving' };

/** A place in the words describePlace-like sentences use; undefined when the words are not a place. */
export function placeWords(s: string): PlaceWords | undefined {
  if (s === 'in the hand') return { kind: 'held' };
  if (s === 'on the floor') return { kind: 'floor' };
  if (/^still moving/.test(s)) return { kind: 'moving' };
  let m = /^with (\S+)$/.exec(s);
  if (m) return { kind: 'handed', person: m[1]! };
  m = /^resting on the robot's (hand|arm|base)$/.exec(s);
  if (m) return { kind: 'robot', part: m[1]! };
  m = /^(on|in) something the robot has not perceived$/.exec(s);
  if (m) return { kind: 'unperceived', relation: m[1] as 'on' | 'in' };
  m = new RegExp(`^(on|in) (${ID})$`).exec(s);
  if (m) return { kind: m[1] as 'on' | 'in', id: m[2]! };
  return undefined;
}

/** The thing exists (an entity, person or place), with its display name when one is given. */
export function exists(j: Judge, id: string, label?: string): boolean {
  const w = j.c.world;
  const e = w.entities.get(id);
  if (e) {
    if (label !== undefined && label !== e.spec.name) j.lie(`names ${id} "${label}", but it is "${e.spec.name}"`);
    return true;
  }
  const p = w.people.get(id);
  if (p) {
    if (label !== undefined && label !== p.spec.name) j.lie(`names ${id} "${label}", but they are "${p.spec.name}"`);
    return true;
  }
  const l = w.locations.get(id);
  if (l) return true;
  j.lie(`names "${id}", which is no object, person or place in the scene`);
  return false;
}

/** Does the robot know the object (furniture a priori, or perceived) at the call's start or end? */
export function knows(j: Judge, id: string): boolean {
  const c = j.c;
  return c.knownBefore.has(id) || c.knownAfter.has(id) || c.learnt.has(id);
}

/** The belief's record of an object after the call. */
export function recordOf(j: Judge, id: string): BeliefEntry | undefined {
  return j.c.world.belief.get(id);
}

/** Was the object seen (recorded or renewed) during this call? */
export function seenThisCall(j: Judge, id: string): boolean {
  const r = recordOf(j, id);
  return Boolean(r && r.time >= j.c.before.time - 1e-9);
}

/** Physics: the hand holds this object (or nothing). */
export function holds(j: Judge, id: string | undefined, said: string): void {
  if (j.c.after.held !== id) j.lie(`said "${said}", but the hand holds ${j.c.after.held ?? 'nothing'}`);
}

/** Physics: the object rests there after the call. */
export function restsNow(j: Judge, id: string, p: PlaceWords, said: string): void {
  const c = j.c;
  const r = c.after.places.get(id);
  let ok: boolean | undefined;
  switch (p.kind) {
    case 'held':
      ok = c.after.held === id;
      break;
    case 'handed':
      ok = c.world.handedOver.get(id) === p.person;
      break;
    case 'in':
    case 'on':
      ok = agrees(r, p.kind, p.id);
      break;
    case 'floor':
      ok = agrees(r, 'floor');
      break;
    case 'robot':
      ok = agrees(r, 'robot');
      break;
    case 'unperceived': {
      // On or in something the robot has not perceived: the support is not known to it.
      const unknown = (q: typeof r): boolean =>
        p.relation === 'in'
          ? q?.kind === 'in' && !c.knownAfter.has(q.id)
          : q?.kind === 'on' && [...q.ids].some((x) => x !== 'floor' && x !== ROBOT && !c.knownAfter.has(x));
      ok = r?.kind === 'unsure' ? (r.plausible?.length ? r.plausible.some(unknown) : undefined) : unknown(r);
      break;
    }
    case 'moving':
      ok = c.after.moving.has(id) || r?.kind === 'unsure';
      break;
  }
  if (ok === undefined) j.skip(`where an object rests, where the reading is unsure (${unsureWhy(r)})`);
  if (ok === false) j.lie(`said "${said}", but ${id} is ${JSON.stringify(readable(r ?? 'nowhere'))}`);
}

/** Belief: the robot's record puts the object there. */
export function believedThere(j: Judge, id: string, p: PlaceWords, said: string): void {
  const b = recordOf(j, id)?.place;
  const same =
    b &&
    (p.kind === 'in' || p.kind === 'on'
      ? b.kind === p.kind && b.id === p.id
      : p.kind === 'handed'
        ? b.kind === 'handed' && b.person === p.person
        : p.kind === 'robot'
          ? b.kind === 'robot' && b.part === p.part
          : p.kind === 'unperceived'
            ? b.kind === 'unperceived' && b.relation === p.relation
            : b.kind === p.kind);
  // What the hand holds the robot knows without a record.
  if (!same && !(p.kind === 'held' && j.c.after.held === id))
    j.lie(`said "${said}", but the robot's belief holds ${b ? JSON.stringify(b) : 'no record of it'}`);
}

/** The robot's own box for a believed object: its shapes at the pose it was perceived at. */
export function believedBox(j: Judge, id: string): Box | undefined {
  const w = j.c.world;
  const e = w.entities.get(id);
  if (!e) return undefined;
  if (e.fixed || j.c.after.held === id) return j.c.after.bodies.get(id)?.box;
  const r = recordOf(j, id);
  return r ? boxAtPose(w, id, r.pose) : undefined;
}

/** Where the robot believes a thing is: its record's pose for an object, the true pose of furniture and of what it holds. */
export function believedPosition(j: Judge, id: string): V | undefined {
  const w = j.c.world;
  const e = w.entities.get(id);
  if (e) {
    if (e.fixed || j.c.after.held === id) return j.c.after.bodies.get(id)?.pos;
    const r = recordOf(j, id);
    return r ? vec(r.pose.p.x, r.pose.p.y, r.pose.p.z) : undefined;
  }
  const seen = w.belief.people.get(id);
  if (seen) return vec(seen.position.x, seen.position.y, seen.position.z);
  const l = w.locations.get(id);
  return l ? vec(...l.pose.position) : undefined;
}

/**
 * A state of an object after the call: the world's (what the robot sees now, or
 * did itself), or, where the tool answers from the belief and the robot's record
 * keeps the states it perceived, the record's.
 */
export function stateIs(j: Judge, id: string, key: string, value: boolean, said: string, from: 'physics' | 'belief' = 'physics'): void {
  const e = j.c.world.entities.get(id);
  if (!e) return void j.lie(`said "${said}" of ${id}, which does not exist`);
  const perceived =
    from === 'belief' && !e.fixed ? (recordOf(j, id) as { states?: Record<string, boolean> } | undefined)?.states : undefined;
  const s = perceived ? perceived[key] : (e.states as unknown as Record<string, boolean>)[key];
  if (s !== value) j.lie(`said "${said}", but ${id}'s ${key} is ${String(s)}${perceived ? ' as the robot perceived it' : ''}`);
}

/** Where an object's box was as the call returned (what a look then saw), not where a roll took it after. */
function boxAsCallEnded(j: Judge, id: string): Box | undefined {
  return (j.c.after.atEnd?.bodies.get(id) ?? j.c.after.bodies.get(id))?.box;
}

/** Is the thing in view now? A movable object: the robot recorded it this call, and the camera does not certainly miss it. */
export function visibleNow(j: Judge, id: string, said: string): void {
  const w = j.c.world;
  const e = w.entities.get(id);
  const sight = sightOf(w, id, boxAsCallEnded(j, id));
  if (sight === 'hidden') j.lie(`said "${said}", but ${id} is outside the camera's view`);
  if (e && !e.fixed && !seenThisCall(j, id) && j.c.after.held !== id)
    j.lie(`said "${said}", but the robot recorded no sight of ${id} in this call`);
}

/** Is the thing certainly not in view? Then "not visible" holds; certainly seen makes it a lie. */
export function notVisibleNow(j: Judge, id: string, said: string): void {
  const w = j.c.world;
  const e = w.entities.get(id);
  if (e && !e.fixed && seenThisCall(j, id) && recordOf(j, id)?.how === 'seen') {
    j.lie(`said "${said}", but the robot saw ${id} in this call`);
    return;
  }
  if (sightOf(w, id, boxAsCallEnded(j, id)) === 'seen') j.lie(`said "${said}", but ${id} is in plain view of the camera`);
}

/** A world point in the robot's base frame (REP 103: x forward, y left, z up), from the base's pose after the call. */
export function inBaseFrame(j: Judge, p: V): V {
  const b = j.c.after.base;
  const d = vec(p.x - b.pos.x, p.y - b.pos.y, p.z - b.pos.z);
  const fwd = vec(Math.cos(b.yaw), 0, -Math.sin(b.yaw));
  const left = vec(-Math.sin(b.yaw), 0, -Math.cos(b.yaw));
  return vec(d.x * fwd.x + d.z * fwd.z, d.x * left.x + d.z * left.z, d.y);
}

/** A base-frame point said against the one expected, per axis: a swapped or mirrored axis is off on two of them. */
export function samePoint(j: Judge, said: V, want: V, tol: number, what: string): void {
  const off = Math.max(Math.abs(said.x - want.x), Math.abs(said.y - want.y), Math.abs(said.z - want.z));
  if (off > tol) {
    const f = (v: V): string => `(x ${v.x.toFixed(3)}, y ${v.y.toFixed(3)}, z ${v.z.toFixed(3)})`;
    j.lie(`gave ${what} at ${f(said)} (base frame), but it is at ${f(want)} (${off.toFixed(3)} m off)`);
  }
}

/** The object's up axis, tilted from upright, in degrees (physics). */
export function tiltOf(j: Judge, id: string): number | undefined {
  const b = j.c.after.bodies.get(id);
  if (!b) return undefined;
  const up = rot(b.q, vec(0, 1, 0));
  return (Math.acos(Math.max(-1, Math.min(1, up.y))) * 180) / Math.PI;
}

/** The arm's shoulder (where reach is measured from): the upper arm's base. */
export function shoulder(j: Judge): V | undefined {
  const arm = j.c.world.bodyLinks.arm;
  if (!arm) return undefined;
  const t = j.c.world.world.getRigidBody(arm.upper).translation();
  return vec(t.x, t.y, t.z);
}

/** Distance from a point to a box (0 inside). */
export function gapTo(b: Box, p: V): number {
  const dx = Math.max(0, b.min.x - p.x, p.x - b.max.x);
  const dy = Math.max(0, b.min.y - p.y, p.y - b.max.y);
  const dz = Math.max(0, b.min.z - p.z, p.z - b.max.z);
  return Math.hypot(dx, dy, dz);
}

/** Two numbers agree within a tolerance; otherwise the message contradicts what it measures. */
export function near(a: number, b: number, tol: number): boolean {
  return Math.abs(a - b) <= tol;
}
