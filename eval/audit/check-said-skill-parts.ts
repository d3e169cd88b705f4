// The parts the readers of a skill's outcome share: points and postures said,
// where a place puts an object, and the checks of a failure's reason (no surface,
// too big, not there, blocked) against the physics and the belief.
import { type Judge } from './check-read';
import { ID, NUM, exists, inBaseFrame, recordOf, restsNow, samePoint, placeWords, tiltOf } from './check-judge';
import { believedThere } from './check-judge';
import { recognisedName, whoIs } from './check-said-people';
import { personBox } from './check-sight';
import { readWho } from './check-said-incidents';
import { agrees, vec } from './truth';
import { postureOffset } from '../../sim/world/robot-body';

export const TRIPLE = `\\((?:x )?(${NUM}), (?:y )?(${NUM}), (?:z )?(${NUM})\\)`;
export const LIES = `(?:; it lies (on its side|upside down) \\(tilted (\\d+)° from upright\\))?`;
export const WHERE_AT = `(?: at ${TRIPLE}, (\\d+) cm from the requested point \\(the tolerance is (${NUM}) cm\\))?`;

export const args = (j: Judge): Record<string, unknown> => j.c.args;

/** A point said in a summary: "(x 0.3, y 0.1, z 0.2)" is in the base frame; "(1.2, 0.9, -0.4)" in the world's. */
export function pointOf(
  j: Judge,
  m: RegExpExecArray,
  at: number,
  text: string,
): { world: boolean; p: { x: number; y: number; z: number } } {
  const base = /\(x /.test(text);
  return { world: !base, p: vec(Number(m[at]), Number(m[at + 1]), Number(m[at + 2])) };
}

/** An object's position said in the base frame (or the world's) against where it is. */
export function positionSaid(j: Judge, id: string, said: { world: boolean; p: { x: number; y: number; z: number } }, what: string): void {
  const b = j.c.after.bodies.get(id);
  if (!b) return;
  const want = said.world ? b.pos : inBaseFrame(j, b.pos);
  samePoint(j, said.p, want, 0.02, what);
}

/** How an object lies after being set down: its tilt and the words for it. */
export function liesSaid(j: Judge, id: string, way: string | undefined, tilt: string | undefined): void {
  const t = tiltOf(j, id);
  if (t === undefined) return;
  if (way === undefined) {
    // Said nothing of how it stands: upright, or round (no up).
    return;
  }
  if (Math.abs(t - Number(tilt)) > 3) j.lie(`said ${id} is tilted ${tilt}°, but it is tilted ${t.toFixed(0)}°`);
  const want = t < 30 ? 'upright' : t > 150 ? 'upside down' : 'on its side';
  if (Math.abs(t - 30) > 2 && Math.abs(t - 150) > 2 && want !== way) j.lie(`said ${id} lies ${way}, but at ${t.toFixed(0)}° it is ${want}`);
}

/** The requested point of a placement, when the call gave one (base frame). */
export function requested(j: Judge): { x: number; y: number; z: number } | undefined {
  const p = args(j)['position'] as { x: number; y: number; z: number } | undefined;
  if (p) return p;
  const t = args(j)['target'];
  const ref = typeof t === 'string' ? j.c.world.scene.scene.referencePositions.find((r) => r.id === t) : undefined;
  return ref ? inBaseFrame(j, vec(...ref.position)) : undefined;
}

export function offSaid(j: Judge, id: string, cm: string | undefined, tol: string | undefined): void {
  if (cm === undefined) return;
  if (!(Number(cm) > Number(tol))) j.message(`"${cm} cm from the requested point", within the tolerance of ${tol} cm`);
  const want = requested(j);
  const b = j.c.after.bodies.get(id);
  if (!want || !b) return;
  const c = inBaseFrame(j, vec((b.box.min.x + b.box.max.x) / 2, 0, (b.box.min.z + b.box.max.z) / 2));
  const d = Math.hypot(c.x - want.x, c.y - want.y) * 100;
  if (Math.abs(d - Number(cm)) > 1.5) j.lie(`said ${id} landed ${cm} cm from the requested point, but it is ${d.toFixed(1)} cm`);
}

/** The arm is in a named posture (every joint within 0.01 rad). */
export function inPosture(j: Judge, posture: string): void {
  const q = j.c.after.joints;
  const kin = j.c.world.kinematics;
  const off = kin && q ? postureOffset(kin, posture, q) : undefined;
  if (off === undefined) return void j.lie(`said the arm is in the ${posture} posture, which it does not have`);
  if (off > 0.01 + 1e-9) j.lie(`said the arm is in the ${posture} posture, but a joint is ${off.toFixed(3)} rad from it`);
}

/** The base stands at a named place (within 0.2 m), or the robot names the place it stands at. */
export function baseAt(j: Judge, place: string, said: string): void {
  const l = j.c.world.locations.get(place);
  if (!l) return void j.lie(`said "${said}", but there is no place ${place}`);
  const b = j.c.after.base.pos;
  const d = Math.hypot(b.x - l.pose.position[0], b.z - l.pose.position[2]);
  if (d > 0.2) j.lie(`said "${said}", but the base stands ${d.toFixed(2)} m from ${place}`);
}

/** The place the base stands at (within 0.2 m), if any, and whether that is certain. */
export function placeHere(j: Judge): { id: string | undefined; sure: boolean } {
  const b = j.c.after.base.pos;
  let best: { id: string; d: number } | undefined;
  let edge = false;
  for (const l of j.c.world.locations.values()) {
    const d = Math.hypot(b.x - l.pose.position[0], b.z - l.pose.position[2]);
    if (Math.abs(d - 0.2) < 0.005) edge = true;
    if (d <= 0.2 && (!best || d < best.d)) best = { id: l.id, d };
  }
  return { id: best?.id, sure: !edge };
}

/** The object is a container (or not), as the catalogue says. */
export const isReceptacle = (j: Judge, id: string): boolean => Boolean(j.c.world.entities.get(id)?.spec.receptacle);

/** Certainly small enough for the gripper (its narrowest side well inside the opening)? */
export function fitsHand(j: Judge, id: string): boolean {
  const b = j.c.after.bodies.get(id);
  const open = j.c.world.scene.robot.arm?.gripperMaxOpening;
  if (!b || !open) return false;
  return Math.min(b.box.max.x - b.box.min.x, b.box.max.z - b.box.min.z) < open - 0.01;
}

/** In a container, as the robot believes or as it is. */
export function within(j: Judge, id: string, container: string): boolean {
  const r = recordOf(j, id)?.place;
  return (r?.kind === 'in' && r.id === container) || agrees(j.c.after.places.get(id), 'in', container) !== false;
}

export function readWhoId(j: Judge, id: string): void {
  const p = j.c.world.people.get(id);
  if (!p) return void j.lie(`named "${id}", who is not in the scene`);
  readWho(j, p.spec.name, id);
}

/** One object a look saw: "lemon_1 on table_1", "cup_2 in something the robot has not perceived", "mug_1". */
export function perceivedItem(j: Judge, item: string): void {
  const m = new RegExp(`^(${ID})(?: (.+))?$`).exec(item);
  if (!m) return void j.unread(item);
  const id = m[1]!;
  if (!exists(j, id)) return;
  const r = recordOf(j, id);
  if (!r || r.time < j.c.before.time - 1e-9) j.lie(`said it perceived ${id}, but the robot recorded no sight of it`);
  if (!m[2]) return;
  const place = placeWords(m[2]);
  if (!place) return void j.unread(item);
  // As it was seen: its record says so, and so does the world.
  believedThere(j, id, place, item);
  restsNow(j, id, place, item);
}

/** No surface under a point: no furniture's top (with its surfaces) lies under it, at or below it. */
export function noSurface(j: Judge, said: { world: boolean; p: { x: number; y: number; z: number } }): void {
  const b = j.c.before.base;
  const p = said.world
    ? said.p
    : vec(
        b.pos.x + said.p.x * Math.cos(b.yaw) - said.p.y * Math.sin(b.yaw),
        b.pos.y + said.p.z,
        b.pos.z - said.p.x * Math.sin(b.yaw) - said.p.y * Math.cos(b.yaw),
      );
  for (const e of j.c.world.entities.values()) {
    if (!e.fixed || !e.spec.surfaces.length) continue;
    const box = j.c.after.bodies.get(e.id)?.box;
    if (!box) continue;
    const inside = p.x > box.min.x + 0.05 && p.x < box.max.x - 0.05 && p.z > box.min.z + 0.05 && p.z < box.max.z - 0.05;
    if (inside && box.max.y <= p.y + 0.05)
      j.lie(`said there is no surface at (${p.x.toFixed(2)}, ${p.y.toFixed(2)}, ${p.z.toFixed(2)}), but ${e.id}'s top is under it`);
  }
}

export function tooBig(j: Judge, m: RegExpExecArray): void {
  exists(j, m[1]!, m[2]);
  const open = j.c.world.scene.robot.arm?.gripperMaxOpening;
  if (!(Number(m[5]) > Number(m[6]) - 0.5)) j.message(`too big, yet narrower than the opening: "${m[0]}"`);
  if (open !== undefined && Math.abs(open * 100 - Number(m[6])) > 0.06)
    j.lie(`said the gripper opens ${m[6]} cm, but it opens ${(open * 100).toFixed(1)} cm`);
  const b = j.c.after.bodies.get(m[1]!);
  // Across where the fingers close: no wider than the object's box diagonal on the floor plane.
  if (b && Number(m[5]) > Math.hypot(b.box.max.x - b.box.min.x, b.box.max.z - b.box.min.z) * 100 + 1)
    j.lie(`said ${m[1]} is ${m[5]} cm across, wider than its whole box`);
}

export function notThere(j: Judge, m: RegExpExecArray): void {
  exists(j, m[1]!, m[2]);
  const was = j.c.beliefBefore.get(m[1]!) as { pose?: { p: { x: number; y: number; z: number } } } | undefined;
  const b = j.c.before.bodies.get(m[1]!);
  if (
    was?.pose &&
    b &&
    Math.hypot(b.pos.x - was.pose.p.x, b.pos.y - was.pose.p.y, b.pos.z - was.pose.p.z) < 0.01 &&
    !j.c.movedByEvent.has(m[1]!)
  )
    j.lie(`said ${m[1]} was not where it was last seen, but it was there`);
}

/** The world point a move_to asked for (base frame in its arguments). */
export function movePoint(j: Judge): { x: number; y: number; z: number } | undefined {
  const p = (args(j)['pose'] as { position?: { x: number; y: number; z: number } } | undefined)?.position;
  if (!p) return undefined;
  const b = j.c.before.base;
  return vec(
    b.pos.x + p.x * Math.cos(b.yaw) - p.y * Math.sin(b.yaw),
    b.pos.y + p.z,
    b.pos.z - p.x * Math.sin(b.yaw) - p.y * Math.cos(b.yaw),
  );
}

/** What blocks the way: a thing the robot may name (near the way there), or a person or unperceived object left unnamed. */
export function blockedBy(j: Judge, what: string, target: string | undefined): void {
  const w = j.c.world;
  if (what === 'a person') return void (w.people.size || j.lie('said a person blocks the way, but the scene has nobody'));
  if (what === 'an object the robot had not perceived' || what === 'an obstacle') return;
  const who = whoIs(j, what);
  if (!who && !exists(j, what)) return;
  if (who?.byName) recognisedName(j, who.id);
  const l = target ? w.locations.get(target) : undefined;
  const box = who ? personBox(w, who.id) : j.c.after.bodies.get(what)?.box;
  if (!l || !box) return;
  // Somewhere along the straight way, or near its ends: within the base's reach of the segment.
  const a = j.c.before.base.pos;
  const bx = l.pose.position[0];
  const bz = l.pose.position[2];
  const [sx, , sz] = w.scene.robot.base.size;
  const near = segmentGap(box, a.x, a.z, bx, bz);
  if (near > Math.hypot(sx, sz) / 2 + 0.5)
    j.lie(`said the way to ${target} is blocked by ${what}, but ${what} is ${near.toFixed(2)} m from the straight way there`);
}

/** Distance on the floor plane from a box's footprint to a segment. */
export function segmentGap(
  b: { min: { x: number; z: number }; max: { x: number; z: number } },
  ax: number,
  az: number,
  bx: number,
  bz: number,
): number {
  let best = Infinity;
  for (let i = 0; i <= 40; i++) {
    const x = ax + ((bx - ax) * i) / 40;
    const z = az + ((bz - az) * i) / 40;
    best = Math.min(best, Math.hypot(Math.max(0, b.min.x - x, x - b.max.x), Math.max(0, b.min.z - z, z - b.max.z)));
  }
  return best;
}
