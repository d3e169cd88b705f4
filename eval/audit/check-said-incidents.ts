// What else happened while a skill ran ("Also: …"): an object knocked off,
// over, out of a box, onto the robot or off it, slipped from the fingers, a
// simulator fault repaired, moved by a person. Each incident names what
// happened and where the object is now: the change is judged against the
// audit's readings before and after the call, the mover against the events
// that really happened, and where it is now against the physics and the belief.
import type { Judge } from './check-read';
import { ID, THING, gapTo, knows, tiltOf } from './check-judge';
import { WHO, faultReason, slipReason, whereItIs } from './check-said-parts';
import { agrees, certainlyMoved, robotBearsNow, rot, vec } from './truth';
import { recognisedName, whoIs } from './check-said-people';

const UNNAMED = 'an object the robot had not perceived';
const UNKNOWN_SUPPORT = 'something it had not perceived';
/** The said distance is rounded to 1 cm; the readings are taken a step apart from the skill's own. */
const PUSH_TOLERANCE_CM = 1.5;

/** The tilt of an object before the call, in degrees from upright. */
function tiltBefore(j: Judge, id: string): number | undefined {
  const b = j.c.before.bodies.get(id);
  if (!b) return undefined;
  return (Math.acos(Math.max(-1, Math.min(1, rot(b.q, vec(0, 1, 0)).y))) * 180) / Math.PI;
}

/** The tilt of an object as the call returned, when it still moved then. */
function tiltAtEnd(j: Judge, id: string): number | undefined {
  const b = j.c.after.atEnd?.bodies.get(id);
  if (!b) return undefined;
  return (Math.acos(Math.max(-1, Math.min(1, rot(b.q, vec(0, 1, 0)).y))) * 180) / Math.PI;
}

/** Did this change happen to the object? true, false, or undefined when the readings cannot tell. */
function happened(j: Judge, id: string, what: string): boolean | undefined {
  const c = j.c;
  const was = c.before.places.get(id);
  const now = c.after.places.get(id);
  const support = (s: string): string | undefined => (s === UNKNOWN_SUPPORT ? undefined : s);
  let m = new RegExp(`^came off (${ID}|${UNKNOWN_SUPPORT}) onto the robot$`).exec(what);
  if (m) {
    const s = support(m[1]!);
    const before = s ? agrees(was, 'on', s) !== false || agrees(was, 'in', s) !== false : true;
    return before && agrees(now, 'robot') !== false;
  }
  if (what === 'came to rest on the robot') return agrees(now, 'robot');
  m = new RegExp(`^(fell out of|was knocked off) (${ID}|${UNKNOWN_SUPPORT})$`).exec(what);
  if (m) {
    const s = support(m[2]!);
    const rel = m[1] === 'fell out of' ? 'in' : 'on';
    if (!s) return was?.kind === 'unsure' ? undefined : certainlyMoved(was, now) || was?.kind === rel;
    if (agrees(was, rel, s) === false) return false;
    // Still there, and only there: it did not leave it (resting on it and on something else, it may have).
    const still = rel === 'in' ? now?.kind === 'in' && now.id === s : now?.kind === 'on' && now.ids.size === 1 && now.ids.has(s);
    return still ? false : true;
  }
  if (what === 'was pushed across the floor') return agrees(was, 'floor');
  m = new RegExp(`^(was pushed|was already moving and went on) (\\d+) cm(?: (along|within) (${ID}|what it stood on))?$`).exec(what);
  if (m) {
    // Shoved where it stood, by about that much: from the reading as the call began to the one as it returned.
    // Already moving as the call began, it may have gone part of the way before the skill's own first reading.
    const b0 = c.before.bodies.get(id);
    const b1 = (c.after.atEnd ?? c.after).bodies.get(id);
    if (!b0 || !b1) return undefined;
    const moved = Math.hypot(b1.pos.x - b0.pos.x, b1.pos.y - b0.pos.y, b1.pos.z - b0.pos.z) * 100;
    const said = Number(m[2]);
    const rolling = b0.speed > 0.005 || c.movedByEvent.has(id);
    if (m[1] === 'was pushed' ? Math.abs(moved - said) > PUSH_TOLERANCE_CM : !rolling || said > moved + PUSH_TOLERANCE_CM) return false;
    const s = m[4] === 'what it stood on' ? undefined : m[4];
    return s ? agrees(was, m[3] === 'along' ? 'on' : 'in', s) !== false : true;
  }
  if (what === 'left the hand') return was?.kind === 'held' && now?.kind !== 'held';
  m = /^slid partly off the robot's (hand|arm|base); the robot still bears some of its weight$/.exec(what);
  if (m) {
    // Off the robot only partly: it was on it (or against the hand) and some of it still rests on it.
    const b = c.before.bodies.get(id);
    const atHand = b && c.before.tcp ? gapTo(b.box, c.before.tcp) < 0.08 : false;
    // Where it is now may be a container it slid into while it still leans on the robot: the contacts tell.
    return (agrees(was, 'robot') !== false || atHand) && (agrees(now, 'robot') !== false || robotBearsNow(c.world, id));
  }
  m = /^fell off the robot's (hand|arm|base)$/.exec(what);
  if (m) {
    // On the robot as the call began: its reading says so, or it lay against the hand (contact the reading may not count).
    const b = c.before.bodies.get(id);
    const atHand = b && c.before.tcp ? gapTo(b.box, c.before.tcp) < 0.08 : false;
    return (agrees(was, 'robot') !== false || atHand) && agrees(now, 'robot') !== true;
  }
  if (what === 'moved') return was?.kind === 'handed';
  if (what === 'came to rest') return true;
  if (what === 'was knocked over') {
    // A ball has no upright to be knocked from: turned, it rolled.
    if (c.world.entities.get(id)?.spec.parts.every((p) => p.collider === false || p.shape === 'sphere')) return false;
    const t0 = tiltBefore(j, id);
    // Still rolling as the call returned (a fruit): tipped then, or where it came to rest.
    const t1s = [tiltOf(j, id), tiltAtEnd(j, id)].filter((t): t is number => t !== undefined);
    if (t0 === undefined || !t1s.length) return undefined;
    return t0 <= 65 && t1s.some((t1) => t1 >= 55);
  }
  return undefined;
}

/** An event of this kind for the object was posted during the call. */
function posted(j: Judge, type: string, id: string): { by?: string } | undefined {
  return j.c.world.events.since(j.c.eventsBefore).find((e) => e.type === type && 'object' in e && e.object === id) as
    { by?: string } | undefined;
}

/** One incident: "<name> <what happened>; <where it is now>". */
export function readIncident(j: Judge, s: string): void {
  const m = /^(.+?); (it is .+|where it is now is not known)$/.exec(s);
  if (!m) return void j.unread(s);
  const [, head, where] = m as unknown as [string, string, string];
  const named = new RegExp(`^(${UNNAMED}|${ID})(?:(:| dropped:) (.+)| was moved by (${ID}|a person)| (.+))$`).exec(head);
  if (!named) return void j.unread(head);
  const [, who, colon, reason, mover, change] = named;
  const id = who === UNNAMED ? undefined : who!;
  const c = j.c;
  if (id && !c.world.entities.has(id)) return void j.lie(`named ${id}, which does not exist`);
  // Unnamed: some object the robot does not know went through it.
  const candidates = id ? [id] : [...c.world.entities.values()].filter((e) => !e.fixed && !knows(j, e.id)).map((e) => e.id);
  if (id && !knows(j, id)) j.leak(`named ${id} in an incident, which the robot had not perceived`);
  if (colon === ':') {
    if (!candidates.some((x) => posted(j, 'physics_fault', x)))
      j.lie(`reported a simulator fault for ${who}, but none happened during the call`);
    faultReason(j, id, reason!);
  } else if (colon === ' dropped:') {
    if (!candidates.some((x) => posted(j, 'object_dropped', x))) j.lie(`said ${who} dropped, but nothing left the fingers during the call`);
    slipReason(j, id, reason!);
  } else if (mover !== undefined) {
    const e = candidates.map((x) => posted(j, 'object_moved', x)).find(Boolean);
    if (!e) j.lie(`said ${who} was moved by ${mover}, but nobody moved it during the call`);
    else if (mover !== 'a person') {
      const p = whoIs(j, mover);
      const did = p ? j.c.world.people.get(p.id) : undefined;
      if (!did || (e.by !== did.spec.id && e.by !== did.spec.name))
        j.lie(`said ${who} was moved by ${mover}, but ${e.by ?? 'an unnamed person'} moved it`);
      if (p?.byName) recognisedName(j, p.id);
    }
  } else {
    const verdicts = candidates.map((x) => happened(j, x, change!));
    if (verdicts.every((v) => v === false)) j.lie(`said ${who} ${change}, but the readings before and after the call do not show it`);
    else if (
      verdicts.every((v) => v === undefined) &&
      !/^(came off|came to rest|fell out of|was knocked off|was pushed|was already moving|left the hand|fell off|slid partly off|moved$|was knocked over)/.test(
        change!,
      )
    )
      j.unread(head);
    else if (id && verdicts[0] === undefined) j.skip(`an incident where the readings are unsure (${change})`);
  }
  whereItIs(j, id, where);
}

/** A person's words in a skill's sentence ("Adriana (adriana)") name someone the robot recognises. */
export function readWho(j: Judge, name: string, id: string): void {
  const p = j.c.world.people.get(id);
  if (!p) return void j.lie(`named a person "${id}" who is not in the scene`);
  if (p.spec.name !== name) j.lie(`called ${id} "${name}", but their name is "${p.spec.name}"`);
  recognisedName(j, id);
}

export { THING, WHO };
