// What a skill's outcome says, sentence by sentence: its summary (success or
// failure, with the code) and each incident. Success is judged against the
// physics after the call (the hand, the place, the posture, the base, the
// door, the battery); a failure's reason against the physics, the catalogue
// and the robot's belief, as the reason speaks of one or the other.
import { type Judge, type Rule, readOne } from './check-read';
import {
  ID,
  NUM,
  THING,
  believedPosition,
  exists,
  gapTo,
  holds,
  inBaseFrame,
  recordOf,
  restsNow,
  samePoint,
  stateIs,
  placeWords,
  tiltOf,
} from './check-judge';
import { believedThere } from './check-judge';
import { recognisedName, whoIs } from './check-said-people';
import { personBox } from './check-sight';
import { WHO, doing, estopDuring, reachReason, slipReason, whereItIs } from './check-said-parts';
import { readIncident, readWho } from './check-said-incidents';
import { readScan } from './check-said-farm';
import { checkArrived } from './check-said-paths';
import { agrees, vec } from './truth';

const TRIPLE = `\\((?:x )?(${NUM}), (?:y )?(${NUM}), (?:z )?(${NUM})\\)`;
const LIES = `(?:; it lies (on its side|upside down) \\(tilted (\\d+)° from upright\\))?`;
const WHERE_AT = `(?: at ${TRIPLE}, (\\d+) cm from the requested point \\(the tolerance is (${NUM}) cm\\))?`;

const args = (j: Judge): Record<string, unknown> => j.c.args;

/** A point said in a summary: "(x 0.3, y 0.1, z 0.2)" is in the base frame; "(1.2, 0.9, -0.4)" in the world's. */
function pointOf(j: Judge, m: RegExpExecArray, at: number, text: string): { world: boolean; p: { x: number; y: number; z: number } } {
  const base = /\(x /.test(text);
  return { world: !base, p: vec(Number(m[at]), Number(m[at + 1]), Number(m[at + 2])) };
}

/** An object's position said in the base frame (or the world's) against where it is. */
function positionSaid(j: Judge, id: string, said: { world: boolean; p: { x: number; y: number; z: number } }, what: string): void {
  const b = j.c.after.bodies.get(id);
  if (!b) return;
  const want = said.world ? b.pos : inBaseFrame(j, b.pos);
  samePoint(j, said.p, want, 0.02, what);
}

/** How an object lies after being set down: its tilt and the words for it. */
function liesSaid(j: Judge, id: string, way: string | undefined, tilt: string | undefined): void {
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
function requested(j: Judge): { x: number; y: number; z: number } | undefined {
  const p = args(j)['position'] as { x: number; y: number; z: number } | undefined;
  if (p) return p;
  const t = args(j)['target'];
  const ref = typeof t === 'string' ? j.c.world.scene.scene.referencePositions.find((r) => r.id === t) : undefined;
  return ref ? inBaseFrame(j, vec(...ref.position)) : undefined;
}

function offSaid(j: Judge, id: string, cm: string | undefined, tol: string | undefined): void {
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
function inPosture(j: Judge, posture: string): void {
  const p = j.c.world.scene.robot.arm?.postures[posture];
  const q = j.c.after.joints;
  if (!p || !q) return void j.lie(`said the arm is in the ${posture} posture, which it does not have`);
  const off = p.map((deg, i) => {
    const d = q[i]! - (deg * Math.PI) / 180;
    return i === 0 || i === 4 ? Math.abs(Math.atan2(Math.sin(d), Math.cos(d))) : Math.abs(d);
  });
  if (Math.max(...off) > 0.01 + 1e-9)
    j.lie(`said the arm is in the ${posture} posture, but a joint is ${Math.max(...off).toFixed(3)} rad from it`);
}

/** The base stands at a named place (within 0.2 m), or the robot names the place it stands at. */
function baseAt(j: Judge, place: string, said: string): void {
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
const isReceptacle = (j: Judge, id: string): boolean => Boolean(j.c.world.entities.get(id)?.spec.receptacle);

/** Certainly small enough for the gripper (its narrowest side well inside the opening)? */
function fitsHand(j: Judge, id: string): boolean {
  const b = j.c.after.bodies.get(id);
  const open = j.c.world.scene.robot.arm?.gripperMaxOpening;
  if (!b || !open) return false;
  return Math.min(b.box.max.x - b.box.min.x, b.box.max.z - b.box.min.z) < open - 0.01;
}

/** In a container, as the robot believes or as it is. */
function within(j: Judge, id: string, container: string): boolean {
  const r = recordOf(j, id)?.place;
  return (r?.kind === 'in' && r.id === container) || agrees(j.c.after.places.get(id), 'in', container) !== false;
}

const SUCCESS: readonly Rule[] = [
  [
    new RegExp(`picked up ${THING}`),
    (m, j) => {
      exists(j, m[1]!, m[2]);
      holds(j, m[1], m[0]!);
    },
  ],
  [
    new RegExp(`(put|placed) ${THING} (into|on) (.+?)${WHERE_AT}${LIES}`),
    (m, j) => {
      const id = m[2]!;
      exists(j, id, m[3]);
      const label = m[5]!;
      const t = new RegExp(`^${THING}$`).exec(label);
      if (!t) return void j.unread(label);
      exists(j, t[1]!, t[2]);
      restsNow(j, id, { kind: m[4] === 'into' ? 'in' : 'on', id: t[1]! }, m[0]!);
      if (m[6] !== undefined) positionSaid(j, id, pointOf(j, m, 6, m[0]!), `${id}'s position`);
      offSaid(j, id, m[9], m[10]);
      liesSaid(j, id, m[11], m[12]);
    },
  ],
  [
    /the arm is (?:already )?in the (\w+) posture(?:; holding (\S+))?/,
    (m, j) => {
      inPosture(j, m[1]!);
      if (m[2]) holds(j, m[2], m[0]!);
    },
  ],
  [
    new RegExp(`the gripper is at ${TRIPLE}`),
    (m, j) => {
      const said = pointOf(j, m, 1, m[0]!);
      if (!j.c.after.tcp) return void j.lie('said where the gripper is, but the robot has no arm');
      samePoint(j, said.p, said.world ? j.c.after.tcp : inBaseFrame(j, j.c.after.tcp), 0.01, 'the gripper');
    },
  ],
  [
    new RegExp(`moved the gripper by \\((${NUM}), (${NUM}), (${NUM})\\) m to ${TRIPLE}`),
    (m, j) => {
      const a = args(j);
      const by = [Number(a['forward'] ?? 0), Number(a['left'] ?? 0), Number(a['up'] ?? 0)];
      if (j.c.tool === 'nudge_arm' && by.some((v, i) => Math.abs(v - Number(m[i + 1])) > 1e-6))
        j.lie(`said it moved by (${m[1]}, ${m[2]}, ${m[3]}), but was asked (${by.join(', ')})`);
      const said = pointOf(j, m, 4, m[0]!);
      if (j.c.after.tcp) samePoint(j, said.p, said.world ? j.c.after.tcp : inBaseFrame(j, j.c.after.tcp), 0.01, 'the gripper');
    },
  ],
  [
    new RegExp(`arrived at (${ID}|the new pose|${WHO})(?: after (${NUM}) m; battery now (${NUM})%)?`),
    (m, j) => {
      const label = m[1]!;
      if (m[2] !== undefined) readWho(j, m[2], m[3]!);
      else if (label !== 'the new pose') baseAt(j, label, m[0]!);
      checkArrived(j, m[3] ?? label);
      if (m[4] !== undefined) {
        const moved = Math.hypot(j.c.after.base.pos.x - j.c.before.base.pos.x, j.c.after.base.pos.z - j.c.before.base.pos.z);
        if (Number(m[4]) < moved - 0.05) j.lie(`said it drove ${m[4]} m, but the base moved ${moved.toFixed(2)} m in a straight line`);
        if (Math.abs(Number(m[5]) - j.c.after.batteryPercent) > 0.6)
          j.lie(`said the battery is now ${m[5]}%, but it is ${j.c.after.batteryPercent.toFixed(1)}%`);
      }
    },
  ],
  [
    new RegExp(`switched ${THING} (on|off)`),
    (m, j) => {
      exists(j, m[1]!, m[2]);
      stateIs(j, m[1]!, 'on', m[3] === 'on', m[0]!);
    },
  ],
  [
    new RegExp(`(opened|closed) ${THING}`),
    (m, j) => {
      exists(j, m[2]!, m[3]);
      stateIs(j, m[2]!, 'open', m[1] === 'opened', m[0]!);
    },
  ],
  [
    new RegExp(`sliced ${THING} with (${ID})`),
    (m, j) => {
      exists(j, m[1]!, m[2]);
      stateIs(j, m[1]!, 'sliced', true, m[0]!);
      holds(j, m[3], m[0]!);
    },
  ],
  [
    /said: "([^]*)"/,
    (m, j) => {
      const a = args(j);
      const asked = [a['statement'], a['text'], Array.isArray(a['params']) ? (a['params'] as string[]).join(' ') : undefined].find(
        (x) => typeof x === 'string',
      ) as string | undefined;
      if (asked !== undefined && asked.trim() !== m[1]) j.lie(`said it said "${m[1]}", but was asked to say "${asked.trim()}"`);
    },
  ],
  [
    new RegExp(`waited (${NUM}) s`),
    (m, j) => {
      const p = args(j)['params'];
      const asked = Number(Array.isArray(p) && p.length ? p[0] : 5);
      const took = j.c.ended - j.c.before.time;
      if (Number.isFinite(asked) && Math.abs(asked - Number(m[1])) > Math.max(0.05, asked * 0.001))
        j.lie(`said it waited ${m[1]} s, but was asked ${asked} s`);
      if (took < Number(m[1]) - 0.05) j.lie(`said it waited ${m[1]} s, but the call took ${took.toFixed(2)} s`);
    },
  ],
  [
    /(someone|\S+) answered: "([^]*)"/,
    (m, j) => {
      const said = j.c.world.events.since(j.c.eventsBefore).some((e) => e.type === 'person_said' && e.text === m[2]);
      if (!said) j.lie(`said ${m[1]} answered "${m[2]}", but nobody said that during the call`);
      if (m[1] !== 'someone') readWhoId(j, m[1]!);
    },
  ],
  [
    new RegExp(`undocked; now at (${ID})`),
    (m, j) => {
      if (j.c.after.docked) j.lie('said it undocked, but it is docked');
      baseAt(j, m[1]!, m[0]!);
    },
  ],
  [
    new RegExp(`docked at (${ID})`),
    (m, j) => {
      if (!j.c.after.docked) j.lie('said it docked, but it is not docked');
      exists(j, m[1]!);
    },
  ],
  [
    /charged from (\d+)% to (\d+)% in (\d+) min/,
    (m, j) => {
      if (Math.abs(Number(m[1]) - j.c.before.batteryPercent) > 0.6)
        j.lie(`said it charged from ${m[1]}%, but the battery was at ${j.c.before.batteryPercent.toFixed(1)}%`);
      if (Math.abs(Number(m[2]) - j.c.after.batteryPercent) > 0.6)
        j.lie(`said it charged to ${m[2]}%, but the battery is at ${j.c.after.batteryPercent.toFixed(1)}%`);
      const min = (j.c.ended - j.c.before.time) / 60;
      if (Math.abs(Number(m[3]) - min) > 0.6) j.lie(`said charging took ${m[3]} min, but the call took ${min.toFixed(1)} min`);
    },
  ],
  [new RegExp(`scanned (${ID}), (\\d+) plants?(?:: (.+))?`), (m, j) => readScan(j, m[1]!, Number(m[2]), m[3])],
  [
    /perceived (at \S+|here): (.+?)(?:; no longer seen: (.+))?/,
    (m, j) => {
      const here = placeHere(j);
      const at = m[1] === 'here' ? undefined : m[1]!.slice(3);
      if (here.sure && here.id !== at) j.lie(`said it perceived ${m[1]}, but the base stands at ${here.id ?? 'no named place'}`);
      if (m[2] !== 'no objects') for (const item of m[2]!.split(', ')) perceivedItem(j, item);
      for (const id of m[3]?.split(', ') ?? []) if (recordOf(j, id)) j.lie(`said ${id} is no longer seen, but the robot still records it`);
    },
  ],
  [
    new RegExp(`handed ${THING} to ${WHO}`),
    (m, j) => {
      exists(j, m[1]!, m[2]);
      readWho(j, m[3]!, m[4]!);
      if (j.c.world.handedOver.get(m[1]!) !== m[4]) j.lie(`said it handed ${m[1]} to ${m[4]}, but ${m[4]} does not have it`);
    },
  ],
  [
    /waved (\d) times?/,
    (m, j) => {
      const asked = Number(args(j)['times'] ?? 2);
      if (asked !== Number(m[1])) j.lie(`said it waved ${m[1]} times, but was asked ${asked}`);
    },
  ],
];

function readWhoId(j: Judge, id: string): void {
  const p = j.c.world.people.get(id);
  if (!p) return void j.lie(`named "${id}", who is not in the scene`);
  readWho(j, p.spec.name, id);
}

/** One object a look saw: "lemon_1 on table_1", "cup_2 in something the robot has not perceived", "mug_1". */
function perceivedItem(j: Judge, item: string): void {
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

const FAILURE: Record<string, readonly Rule[]> = {
  hand_empty: [
    [/the hand is empty(?:: pick something up first|: there is nothing to hand over)/, (m, j) => holds(j, undefined, m[0]!)],
    [new RegExp(`the hand is empty; pick (${ID}) first`), (m, j) => holds(j, undefined, m[0]!)],
    [new RegExp(`the hand holds (${ID}), not (${ID})`), (m, j) => holds(j, m[1], m[0]!)],
  ],
  hand_full: [
    [new RegExp(`already holding ${THING}`), (m, j) => holds(j, m[1], m[0]!)],
    [new RegExp(`the hand is full: it holds (${ID}); place it first`), (m, j) => holds(j, m[1], m[0]!)],
    [
      new RegExp(`the hand holds (${ID}); it needs a free hand to (?:open|close|press the switch of) ${THING}`),
      (m, j) => {
        holds(j, m[1], m[0]!);
        exists(j, m[2]!, m[3]);
      },
    ],
  ],
  not_pickable: [
    [
      new RegExp(`${THING} is (an appliance|furniture) fixed in place; it cannot be picked up`),
      (m, j) => {
        const e = j.c.world.entities.get(m[1]!);
        if (!exists(j, m[1]!, m[2]) || !e) return;
        if (!e.fixed) j.lie(`said ${m[1]} is fixed in place, but it is not`);
        if ((e.spec.category === 'appliance') !== (m[3] === 'an appliance'))
          j.lie(`called ${m[1]} ${m[3]}, but its category is ${e.spec.category}`);
      },
    ],
    [
      new RegExp(`${THING} cannot be picked up`),
      (m, j) => {
        const e = j.c.world.entities.get(m[1]!);
        if (!exists(j, m[1]!, m[2]) || !e) return;
        if (!e.fixed && e.spec.properties.pickable && fitsHand(j, m[1]!))
          j.lie(`said ${m[1]} cannot be picked up, but it is pickable and fits the gripper`);
      },
    ],
  ],
  inside_closed_receptacle: [
    [
      new RegExp(`${THING} is inside ${THING}, which is closed(?:; open it first)?`),
      (m, j) => {
        if (!exists(j, m[1]!, m[2]) || !exists(j, m[3]!, m[4])) return;
        if (!within(j, m[1]!, m[3]!)) j.lie(`said ${m[1]} is inside ${m[3]}, but neither the robot nor the world has it there`);
        stateIs(j, m[3]!, 'open', false, m[0]!);
      },
    ],
  ],
  blocked: [
    [
      new RegExp(`${THING} is blocked: (.+) (?:is|are) on top of it`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        for (const t of m[3]!.split(' and ')) {
          const x = new RegExp(`^${THING}$`).exec(t);
          if (!x) return void j.unread(t);
          exists(j, x[1]!, x[2]);
          const r = recordOf(j, x[1]!)?.place;
          if (!(r?.kind === 'on' && r.id === m[1]) && agrees(j.c.after.places.get(x[1]!), 'on', m[1]!) === false)
            j.lie(`said ${x[1]} is on top of ${m[1]}, but neither the robot nor the world has it there`);
        }
      },
    ],
    [
      new RegExp(`${THING} has (.+) inside it; take (?:it|them) out first`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        for (const t of m[3]!.split(' and ')) {
          const x = new RegExp(`^${THING}$`).exec(t);
          if (!x) return void j.unread(t);
          if (exists(j, x[1]!, x[2]) && !within(j, x[1]!, m[1]!))
            j.lie(`said ${x[1]} is inside ${m[1]}, but neither the robot nor the world has it there`);
        }
      },
    ],
    [
      new RegExp(`${THING} is blocked: ${THING} is in the way of the gripper`),
      (m, j) => {
        if (!exists(j, m[1]!, m[2]) || !exists(j, m[3]!, m[4])) return;
        // In the way: near it, as the robot believes both to be.
        const a = believedPosition(j, m[1]!);
        const box = j.c.after.bodies.get(m[3]!)?.box;
        if (a && box && gapTo(box, a) > 0.6)
          j.lie(`said ${m[3]} is in the way of the gripper over ${m[1]}, but it is ${gapTo(box, a).toFixed(2)} m from it`);
      },
    ],
    [
      new RegExp(`${THING} is tipped over: its opening does not face up, so nothing stays in it; set it upright first`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        const t = tiltOf(j, m[1]!);
        if (t !== undefined && t < 50) j.lie(`said ${m[1]} is tipped over, but it is tilted ${t.toFixed(0)}°`);
      },
    ],
    [
      new RegExp(`${THING} is open; close its door before switching it on`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        stateIs(j, m[1]!, 'open', true, m[0]!);
      },
    ],
    [
      new RegExp(`${WHO} has no free hand to take ${THING}`),
      (m, j) => {
        readWho(j, m[1]!, m[2]!);
        if (j.c.world.people.get(m[2]!)?.handsFree) j.lie(`said ${m[2]} has no free hand, but their hands are free`);
      },
    ],
    [
      new RegExp(`${WHO} is not looking at the robot; ask for their attention first`),
      (m, j) => {
        readWho(j, m[1]!, m[2]!);
        if (j.c.world.people.get(m[2]!)?.gaze === 'robot') j.lie(`said ${m[2]} is not looking at the robot, but they are`);
      },
    ],
  ],
  too_big: [
    [
      new RegExp(`cannot grasp ${THING}: ${THING} is (${NUM}) cm across where the fingers would close; the gripper opens (${NUM}) cm`),
      (m, j) => tooBig(j, m),
    ],
  ],
  too_heavy: [
    [
      new RegExp(`could not lift ${THING}: (with what is in it, )?it weighs (${NUM}) kg and the arm lifts at most (${NUM}) kg; it is (.+)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        const e = j.c.world.entities.get(m[1]!);
        const payload = j.c.world.scene.robot.arm?.payloadKg;
        if (!(Number(m[4]) > Number(m[5]))) j.message(`too heavy, yet lighter than the payload: "${m[0]}"`);
        if (payload !== undefined && Math.abs(payload - Number(m[5])) > 1e-6)
          j.lie(`said the arm lifts at most ${m[5]} kg, but it lifts ${payload} kg`);
        if (e && !m[3] && Math.abs(e.spec.mass - Number(m[4])) > 0.006)
          j.lie(`said ${m[1]} weighs ${m[4]} kg, but it weighs ${e.spec.mass} kg`);
        if (e && m[3] && Number(m[4]) < e.spec.mass - 0.006)
          j.lie(`said ${m[1]} with its contents weighs ${m[4]} kg, less than it alone (${e.spec.mass} kg)`);
        whereItIs(j, m[1], `it is ${m[6]}`);
      },
    ],
  ],
  slipped: [
    [
      new RegExp(`could not lift ${THING}: (.+); it is (.+)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        slipReason(j, m[1], m[3]!);
        whereItIs(j, m[1], `it is ${m[4]}`);
      },
    ],
    [
      new RegExp(`${THING} slipped out of the fingers on the way to (.+?)(?:: (it .+?))?; it is (.+)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        if (j.c.after.held === m[1]) j.lie(`said ${m[1]} slipped out of the fingers, but the hand holds it`);
        if (m[4]) slipReason(j, m[1], m[4]);
        whereItIs(j, m[1], `it is ${m[5]}`);
      },
    ],
  ],
  skill_failure: [
    [new RegExp(`the fingers found nothing at the place where ${THING} was last seen; it is not there any more`), (m, j) => notThere(j, m)],
    [new RegExp(`the knife came down where ${THING} was last seen, but it was not there any more`), (m, j) => notThere(j, m)],
    [
      new RegExp(
        `the fingers came down at ${THING} but it was not between them as they closed; it moved (\\d+) cm from where it was seen as they came down`,
      ),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        // There as the call began (as the robot last saw it), and that far from there as it returned.
        const was = j.c.beliefBefore.get(m[1]!) as { pose?: { p: { x: number; y: number; z: number } } } | undefined;
        const b0 = j.c.before.bodies.get(m[1]!);
        const b1 = (j.c.after.atEnd ?? j.c.after).bodies.get(m[1]!);
        if (!was?.pose || !b0 || !b1) return void j.skip(`a miss where the record or the readings are missing (${m[1]})`);
        const from = (b: { pos: { x: number; y: number; z: number } }): number =>
          Math.hypot(b.pos.x - was.pose!.p.x, b.pos.y - was.pose!.p.y, b.pos.z - was.pose!.p.z) * 100;
        if (from(b0) > 3 && !j.c.movedByEvent.has(m[1]!))
          j.lie(`said ${m[1]} moved as the fingers came down, but it was ${from(b0).toFixed(0)} cm from where it was seen before the call`);
        if (Math.abs(from(b1) - Number(m[3])) > 1.5)
          j.lie(`said ${m[1]} moved ${m[3]} cm from where it was seen, but it is ${from(b1).toFixed(1)} cm from there`);
      },
    ],
    [
      new RegExp(`the fingers came down at ${THING} but it was not between them as they closed; it is still where it was seen`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        const r = recordOf(j, m[1]!);
        const b = j.c.after.bodies.get(m[1]!);
        if (!r) j.lie(`said ${m[1]} is still where it was seen, but the robot keeps no record of it`);
        else if (b && Math.hypot(b.pos.x - r.pose.p.x, b.pos.y - r.pose.p.y, b.pos.z - r.pose.p.z) > 0.03)
          j.lie(
            `said ${m[1]} is still where it was seen, but it is ${Math.hypot(b.pos.x - r.pose.p.x, b.pos.y - r.pose.p.y, b.pos.z - r.pose.p.z).toFixed(2)} m from there`,
          );
      },
    ],
    [
      new RegExp(`the fingers closed too early and missed ${THING}; it is still where it was`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        const a = j.c.before.bodies.get(m[1]!);
        const b = j.c.after.bodies.get(m[1]!);
        if (a && b && Math.hypot(a.pos.x - b.pos.x, a.pos.y - b.pos.y, a.pos.z - b.pos.z) > 0.03 && !j.c.movedByEvent.has(m[1]!))
          j.lie(`said ${m[1]} is still where it was, but it moved`);
      },
    ],
  ],
  out_of_reach: [
    [
      // A door the arm could swing only part of the way: how open it stands, and whether that counts as open (over 5 %).
      new RegExp(
        `${THING} (opened|closed) only part of the way: the handle left the arm's reach along the door's swing; it is (\\d+)% open(, which counts as closed)?`,
      ),
      (m, j) => {
        const e = j.c.world.entities.get(m[1]!);
        if (!exists(j, m[1]!, m[2]) || !e) return;
        if (!e.door) return void j.lie(`said ${m[1]}'s door swung part of the way, but it has no door`);
        const pct = Number(m[4]);
        if (pct < 0 || pct > 100) j.message(`said ${m[1]} is ${pct}% open`);
        if (Boolean(m[5]) === e.states.open)
          j.lie(`said ${m[1]} ${m[5] ? 'counts as closed' : 'is open'}, but it is ${e.states.open ? 'open' : 'closed'}`);
        if (pct > 5 !== e.states.open && pct !== 5) j.message(`said ${m[1]} is ${pct}% open and ${e.states.open ? 'open' : 'closed'}`);
      },
    ],
    [
      new RegExp(`cannot (?:pick|grasp) ${THING}: (.+?)(?:; it still holds (${ID}))?`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        reachReason(j, m[3]!);
        if (m[4]) holds(j, m[4], m[0]!);
      },
    ],
    [
      new RegExp(`cannot place ${THING} (?:into|on) (.+?): (.+)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        reachReason(j, m[4]!);
      },
    ],
    [
      new RegExp(`cannot place ${THING}: (.+)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        reachReason(j, m[3]!);
      },
    ],
    [
      new RegExp(`cannot reach the (?:handle|switch) of ${THING}: (.+)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        reachReason(j, m[3]!);
      },
    ],
    [/cannot move the gripper there: (.+)/, (m, j) => reachReason(j, m[1]!)],
    [new RegExp(`cannot bring the knife down onto ${THING}`), (m, j) => void exists(j, m[1]!, m[2])],
    [new RegExp(`cannot reach (.+)`), () => {}],
    [
      new RegExp(`${WHO} is (${NUM}) m away; handovers happen within (${NUM}) m`),
      (m, j) => {
        readWho(j, m[1]!, m[2]!);
        if (!(Number(m[3]) > Number(m[4]))) j.message(`too far for a handover, yet within: "${m[0]}"`);
      },
    ],
    [/(.+)/, (m, j) => reachReason(j, m[1]!, movePoint(j))],
  ],
  invalid_argument: [
    [new RegExp(`cannot place ${THING} on itself`), (m, j) => holds(j, m[1], m[0]!)],
    [
      new RegExp(`${THING} is not a container; things cannot be put inside it`),
      (m, j) => {
        if (exists(j, m[1]!, m[2]) && isReceptacle(j, m[1]!)) j.lie(`said ${m[1]} is not a container, but it is`);
      },
    ],
    [
      /no arm posture "([^"]*)"; the postures are (.+)/,
      (m, j) => {
        const ps = Object.keys(j.c.world.scene.robot.arm?.postures ?? {});
        if (ps.includes(m[1]!)) j.lie(`said there is no posture "${m[1]}", but there is`);
        if (m[2] !== ps.join(', ')) j.lie(`listed the postures as ${m[2]}, but they are ${ps.join(', ')}`);
      },
    ],
    [
      new RegExp(`a wait of (${NUM}) s cannot run: a wait lasts more than 0 and at most 3600 seconds`),
      (m, j) => {
        const s = Number(m[1]);
        if (s > 0 && s <= 3600) j.lie(`refused a wait of ${s} s, which is allowed`);
      },
    ],
    [/there is nothing to say|there is no question to ask/, () => {}],
    [
      /no person "([^"]*)"/,
      (m, j) => {
        if (j.c.world.people.has(m[1]!)) j.lie(`said there is no person "${m[1]}", but there is`);
      },
    ],
    [
      /no place called "([^"]*)"/,
      (m, j) => {
        if (j.c.world.locations.has(m[1]!)) j.lie(`said there is no place "${m[1]}", but there is`);
      },
    ],
    [new RegExp(`${THING} is in the hand; put it down to slice it`), (m, j) => holds(j, m[1], m[0]!)],
    [
      new RegExp(`${THING} was handed to (${ID}); the robot no longer has it`),
      (m, j) => {
        const r = recordOf(j, m[1]!)?.place;
        if (!(r?.kind === 'handed' && r.person === m[3]))
          j.lie(`said ${m[1]} was handed to ${m[3]}, but the robot records ${JSON.stringify(r)}`);
      },
    ],
    [new RegExp(`there is no surface to place on at ${TRIPLE}`), (m, j) => noSurface(j, pointOf(j, m, 1, m[0]!))],
    [/the target charge must be between 1 and 100 percent/, () => {}],
  ],
  receptacle_closed: [
    [
      new RegExp(`${THING} is closed; open it first`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        stateIs(j, m[1]!, 'open', false, m[0]!);
      },
    ],
  ],
  receptacle_full: [
    [
      new RegExp(`no free space (?:in|on) (.+) for ${THING}`),
      (m, j) => {
        exists(j, m[2]!, m[3]);
        holds(j, m[2], m[0]!);
      },
    ],
    [
      new RegExp(`${THING} is full: it holds (\\d+) of (\\d+) \\((.+)\\)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        const cap = j.c.world.entities.get(m[1]!)?.spec.receptacle?.capacity;
        if (cap !== Number(m[4])) j.lie(`said ${m[1]} holds at most ${m[4]}, but its capacity is ${cap ?? 'unlimited'}`);
        const items = m[5]!.split(', ');
        if (items.length !== Number(m[3])) j.message(`said it holds ${m[3]} but listed ${items.length}`);
        for (const x of items)
          if (exists(j, x) && !within(j, x, m[1]!)) j.lie(`said ${x} is in ${m[1]}, but neither the robot nor the world has it there`);
      },
    ],
  ],
  not_openable: [
    [
      new RegExp(`${THING} cannot be opened or closed`),
      (m, j) => {
        const e = j.c.world.entities.get(m[1]!);
        if (exists(j, m[1]!, m[2]) && e && (e.spec.properties.openable || e.door)) j.lie(`said ${m[1]} cannot be opened, but it can`);
      },
    ],
  ],
  not_toggleable: [
    [
      new RegExp(`${THING} cannot be switched on or off`),
      (m, j) => {
        if (exists(j, m[1]!, m[2]) && j.c.world.entities.get(m[1]!)?.spec.properties.toggleable)
          j.lie(`said ${m[1]} cannot be switched, but it can`);
      },
    ],
  ],
  not_sliceable: [
    [
      new RegExp(`${THING} cannot be sliced`),
      (m, j) => {
        if (exists(j, m[1]!, m[2]) && j.c.world.entities.get(m[1]!)?.spec.properties.sliceable)
          j.lie(`said ${m[1]} cannot be sliced, but it can`);
      },
    ],
  ],
  already_done: [
    [
      new RegExp(`${THING} is already (open|closed|on|off|sliced)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        const w = m[3]!;
        stateIs(
          j,
          m[1]!,
          w === 'open' || w === 'closed' ? 'open' : w === 'sliced' ? 'sliced' : 'on',
          w === 'open' || w === 'on' || w === 'sliced',
          m[0]!,
        );
      },
    ],
    [/the robot is already docked/, (m, j) => void (j.c.after.docked || j.lie('said it is already docked, but it is not'))],
    [
      /the battery is already at (\d+)%/,
      (m, j) => {
        if (Math.abs(Number(m[1]) - j.c.before.batteryPercent) > 0.6)
          j.lie(`said the battery is at ${m[1]}%, but it is at ${j.c.before.batteryPercent.toFixed(1)}%`);
      },
    ],
  ],
  needs_tool: [
    [
      /slicing needs a knife in the hand; the hand (?:holds (\S+)|is empty)/,
      (m, j) => {
        holds(j, m[1], m[0]!);
        if (m[1] && /knife/.test(j.c.world.entities.get(m[1])?.spec.type ?? m[1]))
          j.lie(`said slicing needs a knife, but the hand holds ${m[1]}`);
      },
    ],
  ],
  estop: [
    [
      /the emergency stop is pressed(?:: the (?:arm|base) cannot move(?: to look| until it is released))?/,
      (m, j) => void (estopDuring(j) || j.lie(`said "${m[0]}", but the emergency stop was not pressed`)),
    ],
    [
      /emergency stop pressed while (.+): the robot stopped where it was(?:; it still holds (\S+))?/,
      (m, j) => {
        if (!estopDuring(j)) j.lie('said the emergency stop was pressed, but it was not');
        doing(j, m[1]!);
        if (m[2]) holds(j, m[2], m[0]!);
      },
    ],
  ],
  aborted: [
    [
      /stopped while (.+?)(?:; it still holds (\S+))?/,
      (m, j) => {
        doing(j, m[1]!);
        if (m[2]) holds(j, m[2], m[0]!);
      },
    ],
  ],
  battery_empty: [
    [
      /the battery is empty(?:; the robot cannot drive)?/,
      (m, j) =>
        void (j.c.before.batteryPercent > 0 && j.lie(`said the battery is empty, but it is at ${j.c.before.batteryPercent.toFixed(1)}%`)),
    ],
    [
      /the battery ran out while (.+?)(?:; it still holds (\S+))?/,
      (m, j) => {
        if (j.c.after.batteryPercent > 0) j.lie(`said the battery ran out, but it is at ${j.c.after.batteryPercent.toFixed(1)}%`);
        doing(j, m[1]!);
        if (m[2]) holds(j, m[2], m[0]!);
      },
    ],
  ],
  timeout: [
    [
      /asked "([^]*)" but nobody answered within (\d+) s/,
      (m, j) => {
        const answered = j.c.world.events.since(j.c.eventsBefore).some((e) => e.type === 'person_said');
        if (answered) j.lie('said nobody answered, but someone spoke during the call');
      },
    ],
    [
      /(.+) took too long and was stopped(?:; it still holds (\S+))?/,
      (m, j) => {
        doing(j, m[1]!);
        if (m[2]) holds(j, m[2], m[0]!);
      },
    ],
  ],
  no_arm: [[/(.+) has no arm/, (_m, j) => void (j.c.world.scene.robot.arm && j.lie('said the robot has no arm, but it has one'))]],
  unsupported: [
    [
      /(.+) is fixed in place; it cannot drive/,
      (_m, j) => void (j.c.world.scene.robot.kind !== 'fixed_arm' && j.lie('said the robot is fixed in place, but it drives')),
    ],
    [
      /this scene has no (charging dock|shelter entry)/,
      (m, j) => {
        const kind = m[1] === 'charging dock' ? 'dock' : 'entry';
        if ([...j.c.world.locations.values()].some((l) => l.kind === kind)) j.lie(`said the scene has no ${m[1]}, but it has one`);
      },
    ],
  ],
  docked: [
    [
      /the robot is docked(?: in its shelter)?; undock first(?: \(driving inside the shelter is not allowed\))?/,
      (m, j) => void (j.c.before.docked || j.lie('said the robot is docked, but it was not')),
    ],
  ],
  not_docked: [
    [
      /the robot is not docked|charging happens at the dock; dock first/,
      (m, j) => void (j.c.before.docked && j.lie(`said "${m[0]}", but the robot was docked`)),
    ],
  ],
  path_blocked: [[new RegExp(`the (?:way to (${ID}|${WHO})|step) is blocked by (.+)`), (m, j) => blockedBy(j, m[4]!, m[1])]],
  arm_outside_footprint: [
    [
      new RegExp(
        `(?:the arm is|(${ID}) in the hand sticks) (\\d+) cm outside the base footprint \\(posture: (\\w+)\\); (?:move it to (\\w+) before driving|place what the hand holds first: it is too big to carry)`,
      ),
      (m, j) => {
        if (m[1]) holds(j, m[1], m[0]!);
        if (m[3] !== 'custom') inPosture(j, m[3]!);
      },
    ],
  ],
  not_perceived: [
    [
      new RegExp(
        `${THING} has not been (?:perceived yet; perceive the table it is on first|seen from where the robot has been; go where it is and look)`,
      ),
      (m, j) => {
        if (exists(j, m[1]!, m[2]) && j.c.beliefBefore.has(m[1]!) && recordOf(j, m[1]!))
          j.lie(`said ${m[1]} has not been perceived, but the robot records it`);
      },
    ],
  ],
  stale_observation: [
    [
      new RegExp(
        `${THING} was perceived(?: at (${ID}))? before the robot last moved, so its pose is stale; (?:go back to (${ID}) and perceive it there again|perceive (\\S+) again)`,
      ),
      (m, j) => {
        const r = recordOf(j, m[1]!);
        if (!r) return void j.lie(`said ${m[1]} was perceived, but the robot records nothing of it`);
        if (r.baseMoves === j.c.world.body.baseMoves) j.lie(`said ${m[1]}'s record is stale, but the base has not moved since`);
        if ((m[3] ?? undefined) !== (r.at ?? undefined))
          j.lie(`said ${m[1]} was perceived at ${m[3] ?? 'no place'}, but it was at ${r.at ?? 'no place'}`);
      },
    ],
  ],
  not_at_entry: [
    [
      new RegExp(`docking starts from the shelter entry pose \\((${ID})\\); the robot is (${NUM}) m from it and turned (${NUM})° off`),
      (m, j) => {
        const l = j.c.world.locations.get(m[1]!);
        if (!l) return void j.lie(`named the entry ${m[1]}, which is no place`);
        const b = j.c.before.base;
        const d = Math.hypot(b.pos.x - l.pose.position[0], b.pos.z - l.pose.position[2]);
        if (Math.abs(d - Number(m[2])) > 0.06) j.lie(`said the robot is ${m[2]} m from ${m[1]}, but it is ${d.toFixed(2)} m`);
        let off = Math.abs((b.yaw * 180) / Math.PI - l.pose.yaw) % 360;
        if (off > 180) off = 360 - off;
        if (Math.abs(off - Number(m[3])) > 2) j.lie(`said the robot is turned ${m[3]}° off, but it is ${off.toFixed(0)}°`);
      },
    ],
  ],
  not_here: [
    [
      new RegExp(`scans are made at a point of interest; the robot is at (${ID}|no known place)(?:; drive to (\\S+) first)?`),
      (m, j) => {
        const here = placeHere(j);
        const at = m[1] === 'no known place' ? undefined : m[1];
        if (here.sure && here.id !== at) j.lie(`said the robot is at ${m[1]}, but it stands at ${here.id ?? 'no named place'}`);
        if (at && j.c.world.locations.get(at)?.kind === 'poi') j.lie(`refused to scan at ${at}, which is a point of interest`);
      },
    ],
    [new RegExp(`the robot is at (${ID}), not (\\S+); drive there first`), (m, j) => baseAt(j, m[1]!, m[0]!)],
  ],
  placement_failed: [
    [
      new RegExp(`${THING} was (released over|released on|set into|set on) (.+?) but did not stay there; it is (.+)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        const t = new RegExp(`^${THING}$`).exec(m[4]!);
        const rel = /over|into/.test(m[3]!) ? 'in' : 'on';
        if (t && exists(j, t[1]!, t[2])) {
          const r = j.c.after.places.get(m[1]!);
          // Still there (as it was to be: in, or on and only on), it stayed.
          const there = rel === 'in' ? r?.kind === 'in' && r.id === t[1] : r?.kind === 'on' && r.ids.size === 1 && r.ids.has(t[1]!);
          if (there) j.lie(`said ${m[1]} did not stay ${rel} ${t[1]}, but it is there`);
        }
        whereItIs(j, m[1], `it is ${m[5]}`);
      },
    ],
    [
      new RegExp(
        `${THING} was set down (in|on) (${ID}) but lies (on its side|upside down) \\(tilted (\\d+)° from upright\\) at ${TRIPLE}, so it does not hold things`,
      ),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        restsNow(j, m[1]!, { kind: m[3] as 'in' | 'on', id: m[4]! }, m[0]!);
        liesSaid(j, m[1]!, m[5], m[6]);
        positionSaid(j, m[1]!, pointOf(j, m, 7, m[0]!), `${m[1]}'s position`);
      },
    ],
  ],
  no_free_space: [
    [
      new RegExp(`${THING} \\((\\d+)×(\\d+) cm\\) does not fit (?:into|on) (.+)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        holds(j, m[1], m[0]!);
      },
    ],
    [
      new RegExp(`no free space (?:in|on) (.+) for ${THING}`),
      (m, j) => {
        exists(j, m[2]!, m[3]);
        holds(j, m[2], m[0]!);
      },
    ],
  ],
};

/** No surface under a point: no furniture's top (with its surfaces) lies under it, at or below it. */
function noSurface(j: Judge, said: { world: boolean; p: { x: number; y: number; z: number } }): void {
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

function tooBig(j: Judge, m: RegExpExecArray): void {
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

function notThere(j: Judge, m: RegExpExecArray): void {
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
function movePoint(j: Judge): { x: number; y: number; z: number } | undefined {
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
function blockedBy(j: Judge, what: string, target: string | undefined): void {
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
function segmentGap(
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

/** Judges a skill's outcome text: the summary by its code, then each incident. */
export function readOutcome(j: Judge, o: { ok: boolean; code?: string; summary: string; incidents?: string[] }): void {
  if (o.ok) readOne(j, o.summary, SUCCESS);
  else {
    const rules = FAILURE[o.code ?? ''];
    if (rules) readOne(j, o.summary, rules);
    else j.unread(`Failed (${o.code}): ${o.summary}`);
  }
  for (const i of o.incidents ?? []) readIncident(j, i);
}
