// Path and motion agree: what check_free_path said of the way to a target
// holds when the robot then drives there. "Blocked by X" names something near
// the straight way; and a way said to be blocked, with neither the robot nor
// the obstacle moved since, is not then driven to "arrived".
import type { Judge, Rule } from './check-read';
import { ID, exists, recordOf } from './check-judge';
import { recognisedName, whoIs } from './check-said-people';
import { personBox } from './check-sight';
import { ROBOT, type V } from './truth';
import { QUERY } from '../../sim/groups';

/** Where an obstacle stands now (a person's feet, an object's centre). */
export function obstacleAt(j: Judge, id: string): V | undefined {
  const p = j.c.world.people.get(whoIs(j, id)?.id ?? id);
  if (p) return { x: p.position.x, y: p.position.y, z: p.position.z };
  return j.c.after.bodies.get(id)?.pos;
}

/** Where the way to a target ends, as far as the audit can tell: a place's pose, a person, an object. */
function targetAt(j: Judge, id: string): V | undefined {
  const l = j.c.world.locations.get(id);
  if (l) return { x: l.pose.position[0], y: l.pose.position[1], z: l.pose.position[2] };
  return obstacleAt(j, id);
}

function gapToSegment(box: { min: V; max: V }, a: V, b: V): number {
  let best = Infinity;
  for (let i = 0; i <= 40; i++) {
    const x = a.x + ((b.x - a.x) * i) / 40;
    const z = a.z + ((b.z - a.z) * i) / 40;
    best = Math.min(best, Math.hypot(Math.max(0, box.min.x - x, x - box.max.x), Math.max(0, box.min.z - z, z - box.max.z)));
  }
  return best;
}

/** Colliders that drive with the robot: its links, what it holds and what rests on its body. */
function carriedColliders(j: Judge): Set<number> {
  const w = j.c.world;
  const out = new Set<number>(w.bodyLinks.colliders);
  for (const [id, p] of j.c.after.places)
    if (p.kind === 'held' || (p.kind === 'on' && p.ids.has(ROBOT))) for (const c of w.entities.get(id)?.colliders ?? []) out.add(c);
  return out;
}

/**
 * Would the base's footprint (`grow` metres wider on each side; negative: slimmer) hit
 * anything driving straight from `a` to `b`? The world's own shape cast, apart from the planner.
 */
function legBlocked(j: Judge, a: V, b: V, grow: number, skip: ReadonlySet<number>): boolean {
  const w = j.c.world;
  const dx = b.x - a.x;
  const dz = b.z - a.z;
  const len = Math.hypot(dx, dz);
  if (len < 1e-3) return false;
  const [sx, sy, sz] = w.scene.robot.base.size;
  const shape = new w.R.Cuboid(Math.max(0.05, sx / 2 + grow), sy / 2, Math.max(0.05, sz / 2 + grow));
  const yaw = Math.atan2(-dz, dx) / 2;
  const rot = { x: 0, y: Math.sin(yaw), z: 0, w: Math.cos(yaw) };
  const start = { x: a.x, y: a.y + sy / 2 + 0.02, z: a.z };
  const hit = w.world.castShape(
    start,
    rot,
    { x: dx, y: 0, z: dz },
    shape,
    0,
    1,
    true,
    undefined,
    QUERY.drive,
    undefined,
    undefined,
    (c) => !skip.has(c.handle),
  );
  return hit !== null;
}

/** Where a drive to the target ends: a named place, the nearest place serving an object (or the furniture it is believed on), before a person. */
function driveEnd(j: Judge, target: string): { goal: V; person: boolean } | undefined {
  const w = j.c.world;
  const person = whoIs(j, target);
  const base = j.c.after.base.pos;
  if (person) {
    const p = w.people.get(person.id);
    return p ? { goal: { x: p.position.x, y: base.y, z: p.position.z }, person: true } : undefined;
  }
  const l = w.locations.get(target);
  if (l) return { goal: { x: l.pose.position[0], y: l.pose.position[1], z: l.pose.position[2] }, person: false };
  const served = new Set([target]);
  let id: string | undefined = target;
  for (let i = 0; id && i < 8 && !w.entities.get(id)?.fixed; i++) {
    const p: NonNullable<ReturnType<typeof recordOf>>['place'] | undefined = recordOf(j, id)?.place;
    id = p?.kind === 'in' || p?.kind === 'on' ? p.id : undefined;
  }
  if (id && w.entities.get(id)?.fixed) served.add(id);
  const at = [...w.locations.values()]
    .filter((x) => x.serves.some((s) => served.has(s)))
    .map((x) => ({ x: x.pose.position[0], y: x.pose.position[1], z: x.pose.position[2] }))
    .sort((a, b) => Math.hypot(a.x - base.x, a.z - base.z) - Math.hypot(b.x - base.x, b.z - base.z))[0];
  return at ? { goal: at, person: false } : undefined;
}

/**
 * "Free, round the way": the straight way to the target is not free, and the base can go
 * there in free straight legs through exactly `via` of the scene's named places (a place
 * may be passed twice). Judged leg by leg with the world's own sweep of the footprint, with
 * a band for what the planner's slimmer footprint may pass: the straight way is a lie only
 * if even a footprint 2 cm wider passes, the route only if one 8 cm slimmer finds no way.
 */
function freeRoundAbout(j: Judge, target: string, via: number): void {
  const w = j.c.world;
  if (!whoIs(j, target) && !exists(j, target)) return;
  const end = driveEnd(j, target);
  if (!end) return void j.lie(`said the path to ${target} is free, but there is no known place to drive to it from`);
  const skip = carriedColliders(j);
  const person = whoIs(j, target);
  const body = person ? w.people.get(person.id)?.body : undefined;
  if (body !== undefined) {
    const b = w.world.getRigidBody(body);
    for (let i = 0; i < b.numColliders(); i++) skip.add(b.collider(i).handle);
  }
  // Before a person the drive stops short of their feet: the last leg is swept that far.
  const [sx] = w.scene.robot.base.size;
  const lastLeg = (a: V): boolean => {
    if (!end.person) return legBlocked(j, a, end.goal, -0.08, skip);
    const d = Math.hypot(end.goal.x - a.x, end.goal.z - a.z);
    const k = Math.max(0, d - sx / 2 - 0.5) / Math.max(d, 1e-6);
    return legBlocked(j, a, { x: a.x + (end.goal.x - a.x) * k, y: a.y, z: a.z + (end.goal.z - a.z) * k }, -0.08, skip);
  };
  const start = j.c.after.base.pos;
  if (!end.person && !legBlocked(j, start, end.goal, 0.02, skip)) j.lie(`said the straight way to ${target} is blocked, but it is free`);
  const places: V[] = [...w.locations.values()].map((l) => ({ x: l.pose.position[0], y: start.y, z: l.pose.position[2] }));
  if (via < 1 || via > places.length)
    return void j.lie(`said the way to ${target} goes round via ${via} named places, but the scene has ${places.length}`);
  // The places reachable after each leg: the goal must be one free leg from those after `via` legs.
  let at: V[] = [start];
  for (let leg = 0; leg < via && at.length; leg++) at = places.filter((p) => at.some((a) => !legBlocked(j, a, p, -0.08, skip)));
  if (!at.some((a) => !lastLeg(a)))
    j.lie(
      `said the way to ${target} goes round via ${via} named place${via > 1 ? 's' : ''}, but no chain of free straight legs through ${via} does`,
    );
}

export const PATH_RULES: readonly Rule[] = [
  [new RegExp(`The path to (${ID}) is free\\.`), (m, j) => void exists(j, m[1]!)],
  [
    new RegExp(`The path to (${ID}) is free \\(the straight way is blocked; it goes round via (\\d+) named places?\\)\\.`),
    (m, j) => freeRoundAbout(j, m[1]!, Number(m[2])),
  ],
  [
    new RegExp(`The path to (${ID}) is blocked by (${ID}|a person|an obstacle|an object the robot had not perceived)\\.`),
    (m, j) => {
      const [target, what] = [m[1]!, m[2]!];
      exists(j, target);
      if (!/^(a person|an obstacle|an object)/.test(what)) {
        const who = whoIs(j, what);
        if (!who && !exists(j, what)) return;
        if (who?.byName) recognisedName(j, who.id);
        const box = who ? personBox(j.c.world, who.id) : j.c.after.bodies.get(what)?.box;
        const to = targetAt(j, target);
        const [sx, , sz] = j.c.world.scene.robot.base.size;
        // Anywhere along the straight way, allowing for the base's size and the approach pose near the target.
        if (box && to && gapToSegment(box, j.c.after.base.pos, to) > Math.hypot(sx, sz) / 2 + 0.6)
          j.lie(
            `said the path to ${target} is blocked by ${what}, which stands ${gapToSegment(box, j.c.after.base.pos, to).toFixed(2)} m from the way`,
          );
      }
    },
  ],
];

/**
 * "No known place to approach X from": no named place serves X, nor the fixed
 * furniture the robot believes it rests on or in (a drive goes where the robot
 * believes things are).
 */
export function noPlaceToApproach(j: Judge, target: string): void {
  const w = j.c.world;
  if (!w.entities.has(target)) {
    if (w.people.has(target) || w.locations.has(target))
      j.lie(`said there is no place to approach ${target} from, but it is approached directly`);
    else exists(j, target);
    return;
  }
  const served = (id: string): string | undefined => [...w.locations.values()].find((l) => l.serves.includes(id))?.id;
  let id: string | undefined = target;
  for (let i = 0; id && i < 8; i++) {
    const fixed = w.entities.get(id)?.fixed === true;
    const by = id === target || fixed ? served(id) : undefined;
    if (by) {
      const what = id === target ? 'it' : `${id}, which the robot believes it rests on or in`;
      return void j.lie(`said there is no known place to approach ${target} from, but ${by} serves ${what}`);
    }
    if (fixed) return;
    const p: NonNullable<ReturnType<typeof recordOf>>['place'] | undefined = recordOf(j, id)?.place;
    id = p?.kind === 'in' || p?.kind === 'on' ? p.id : undefined;
  }
}

/** check_free_path's failures: a target it cannot drive to at all. */
export const PATH_FAILURES: readonly Rule[] = [
  [new RegExp(`No path to (${ID}): no known place to approach (${ID}) from\\.`), (m, j) => noPlaceToApproach(j, m[2]!)],
  [
    new RegExp(`No path to (${ID}): (.+) is fixed in place; it cannot move to (${ID})\\.`),
    (m, j) => {
      const cfg = j.c.world.scene.robot;
      if (cfg.kind !== 'fixed_arm') j.lie('said the robot is fixed in place, but it drives');
      if (m[2] !== cfg.title) j.lie(`called the robot "${m[2]}", but it is "${cfg.title}"`);
    },
  ],
];

/** An arrival at a target a free-path check called blocked, with nothing moved since, contradicts it. */
export function checkArrived(j: Judge, target: string): void {
  const v = j.c.paths.get(target);
  if (!v) return;
  const b = j.c.before.base.pos;
  const still = Math.hypot(b.x - v.base.x, b.z - v.base.z) < 0.01;
  const o = obstacleAt(j, v.obstacle);
  const obstacleStill = !v.obstacleAt || (o !== undefined && Math.hypot(o.x - v.obstacleAt.x, o.z - v.obstacleAt.z) < 0.01);
  if (still && obstacleStill)
    j.lie(`said it arrived at ${target}, but check_free_path said the way there is blocked by ${v.obstacle}, and neither has moved since`);
}
