// Perception and query tools: what the robot sees, how far things are, their
// states and properties, how objects stand to each other. Each answers from
// the robot's belief: what it lists as visible it recorded in this call (and
// the camera does not certainly miss), distances are to where it saw things,
// relations hold between the boxes it believes; states of what it sees and
// the catalogue's properties are the world's own.
import { type Judge, type Rule, readOne } from './check-read';
import {
  ID,
  NUM,
  THING,
  believedBox,
  exists,
  gapTo,
  knows,
  recordOf,
  restsNow,
  seenThisCall,
  shoulder,
  stateIs,
  visibleNow,
} from './check-judge';
import { reachReason } from './check-said-parts';
import { distanceTolerance } from './check-said-people';
import type { Box, V } from './truth';
import { agrees, vec } from './truth';

/** Certainly narrow enough for the gripper: its narrowest side well inside the opening. */
function fitsGripper(j: Judge, id: string): boolean {
  const b = j.c.after.bodies.get(id);
  const open = j.c.world.scene.robot.arm?.gripperMaxOpening;
  return Boolean(b && open && Math.min(b.box.max.x - b.box.min.x, b.box.max.z - b.box.min.z) < open - 0.01);
}

/** Items of a list "a (x), b, c (y, z)": commas inside parentheses stay. */
export const items = (s: string): string[] => s.split(/, (?![^()]*\))/);

/** The objects a detection lists must be every object the robot recorded seeing in this call (and nothing it did not). */
function detected(j: Judge, ids: readonly string[], what: string): void {
  for (const id of ids) visibleNow(j, id, `${id} is ${what}`);
  for (const r of j.c.world.belief.objects.values()) {
    if (r.how === 'seen' && seenThisCall(j, r.id) && !ids.includes(r.id) && j.c.after.held !== r.id)
      j.lie(`left ${r.id} out of what it sees, though it recorded seeing it in this call`);
  }
}

/** The distance from the robot as the tools define it, to the box the robot believes: bounds for a measure to a point within it. */
function distanceBounds(j: Judge, id: string): { lo: number; hi: number } | undefined {
  const box = believedBox(j, id);
  if (!box) return undefined;
  const sh = shoulder(j);
  if (!sh) {
    const b = j.c.after.base.pos;
    const d = Math.hypot(Math.max(0, box.min.x - b.x, b.x - box.max.x), Math.max(0, box.min.z - b.z, b.z - box.max.z));
    return { lo: d, hi: d };
  }
  const far = Math.hypot(
    Math.max(Math.abs(box.min.x - sh.x), Math.abs(box.max.x - sh.x)),
    Math.max(Math.abs(box.min.y - sh.y), Math.abs(box.max.y - sh.y)),
    Math.max(Math.abs(box.min.z - sh.z), Math.abs(box.max.z - sh.z)),
  );
  return { lo: gapTo(box, sh), hi: far };
}

function distanceSaid(j: Judge, id: string, said: number, toGrasp: boolean): void {
  const b = distanceBounds(j, id);
  if (!b) return void j.skip(`a distance to ${id}, of which the robot keeps no box`);
  // To where the fingers would close: a point in or just around its box. Else to its nearest point.
  const tol = distanceTolerance(j) + (toGrasp ? 0.06 : 0.01);
  const lo = b.lo - tol;
  const hi = toGrasp ? b.hi + tol : b.lo + tol;
  if (said < lo || said > hi)
    j.lie(
      `said ${id} is ${said} m from the robot, but where the robot saw it that is ${b.lo.toFixed(3)}${toGrasp ? `–${b.hi.toFixed(3)}` : ''} m`,
    );
}

/** "… is 0.42 m from the arm's shoulder to where the gripper would close on it; the arm can grasp it from here." */
const REACH: Rule = [
  new RegExp(
    `${THING} is (${NUM}) m (from the arm's shoulder to where the gripper would close on it|from the robot)(?:; the arm (can|cannot) grasp it from here(?: \\((.+)\\))?)?\\.`,
  ),
  (m, j) => {
    const id = m[1]!;
    if (!exists(j, id, m[2])) return;
    const e = j.c.world.entities.get(id);
    const arm = j.c.world.scene.robot.arm;
    const toGrasp = m[4] !== 'from the robot';
    // To where the gripper would close only for what the arm can pick (the catalogue says so and the fingers close on it).
    const catalogue = Boolean(e && !e.fixed && e.spec.properties.pickable && arm);
    const fits = catalogue && fitsGripper(j, id);
    if (toGrasp && !catalogue) j.lie(`measured ${id} ${m[4]}, but the arm cannot pick it`);
    if (!toGrasp && fits) j.lie(`measured ${id} ${m[4]}, but the arm picks it (it fits the gripper)`);
    distanceSaid(j, id, Number(m[3]), toGrasp);
    if (m[5] === 'can' && arm && Number(m[3]) > arm.upperArm + arm.forearm + arm.hand + 0.02)
      j.lie(`said the arm can grasp ${id} ${m[3]} m away, beyond its reach`);
    if (m[6]) {
      const g = new RegExp(`^cannot grasp ${THING}: (.+)$`).exec(m[6]);
      if (!g) return void j.unread(m[6]);
      const big = new RegExp(`^${THING} is (${NUM}) cm across where the fingers would close; the gripper opens (${NUM}) cm$`).exec(g[3]!);
      if (big) {
        if (!(Number(big[3]) > Number(big[4]) - 0.5)) j.message(`too big, yet narrower than the opening: "${g[3]}"`);
      } else reachReason(j, g[3]!);
    }
  },
];

/** The states of a thing, in words ("open", "closed", "not sliced", "clean", "empty", "raw"), against the world. */
const STATE_WORDS: Record<string, [string, boolean]> = {
  open: ['open', true],
  closed: ['open', false],
  on: ['on', true],
  off: ['on', false],
  sliced: ['sliced', true],
  'not sliced': ['sliced', false],
  dirty: ['dirty', true],
  clean: ['dirty', false],
  filled: ['filled', true],
  empty: ['filled', false],
  cooked: ['cooked', true],
  raw: ['cooked', false],
  'not open': ['open', false],
  'not on': ['on', false],
  'not dirty': ['dirty', false],
  'not filled': ['filled', false],
  'not cooked': ['cooked', false],
};

/** The states an object has at all (by its catalogue properties). */
function statesOf(j: Judge, id: string): string[] {
  const e = j.c.world.entities.get(id)!;
  const p = e.spec.properties;
  return [
    ...(p.openable || e.door ? ['open'] : []),
    ...(p.toggleable ? ['on'] : []),
    ...(p.sliceable ? ['sliced'] : []),
    ...(p.dirtyable ? ['dirty'] : []),
    ...(p.fillable ? ['filled'] : []),
    ...(p.cookable ? ['cooked'] : []),
  ];
}

function statesSaid(j: Judge, id: string, words: readonly string[]): void {
  const keys: string[] = [];
  for (const w of words) {
    const s = STATE_WORDS[w];
    if (!s) return void j.unread(w);
    keys.push(s[0]);
    stateIs(j, id, s[0], s[1], `${id} is ${w}`);
  }
  const want = statesOf(j, id);
  if (want.join() !== keys.join()) j.lie(`gave ${id}'s states as ${keys.join(', ') || 'none'}, but it has ${want.join(', ') || 'none'}`);
}

/** A believed box, and its centre in the base frame (left is +y). */
function believedCentre(j: Judge, id: string): { box: Box; c: V } | undefined {
  const box = believedBox(j, id);
  if (!box) return undefined;
  return { box, c: vec((box.min.x + box.max.x) / 2, (box.min.y + box.max.y) / 2, (box.min.z + box.max.z) / 2) };
}

function footprintShare(a: Box, b: Box): number {
  const ox = Math.max(0, Math.min(a.max.x, b.max.x) - Math.max(a.min.x, b.min.x));
  const oz = Math.max(0, Math.min(a.max.z, b.max.z) - Math.max(a.min.z, b.min.z));
  const area = (a.max.x - a.min.x) * (a.max.z - a.min.z);
  return area > 0 ? (ox * oz) / area : 0;
}

function boxGap(a: Box, b: Box): number {
  return Math.hypot(
    Math.max(0, a.min.x - b.max.x, b.min.x - a.max.x),
    Math.max(0, a.min.y - b.max.y, b.min.y - a.max.y),
    Math.max(0, a.min.z - b.max.z, b.min.z - a.max.z),
  );
}

/** Is the believed place of a within b (directly, or through what it rests on)? */
function believedWithin(j: Judge, a: string, b: string): boolean {
  let p = recordOf(j, a)?.place;
  for (let i = 0; p && i < 8; i++) {
    if (p.kind === 'in' && p.id === b) return true;
    if (p.kind !== 'in' && p.kind !== 'on') return false;
    const e = j.c.world.entities.get(p.id);
    p = e?.fixed ? undefined : recordOf(j, p.id)?.place;
  }
  return false;
}

/** Does a relation hold between a and b? true (certainly), false (certainly not) or undefined (at its edge). */
function relationHolds(j: Judge, rel: string, a: string, b: string): boolean | undefined {
  const ra = recordOf(j, a)?.place;
  if (rel === 'inside') return believedWithin(j, a, b);
  if (rel === 'on top of') return ra?.kind === 'on' && ra.id === b;
  const A = believedCentre(j, a);
  const B = believedCentre(j, b);
  if (!A || !B) return undefined;
  switch (rel) {
    case 'above':
    case 'below': {
      const [up, down] = rel === 'above' ? [A, B] : [B, A];
      const [u, d] = rel === 'above' ? [a, b] : [b, a];
      const share = footprintShare(up.box, down.box);
      const clear = up.box.min.y - down.box.max.y;
      const on = recordOf(j, u)?.place;
      if ((on?.kind === 'on' || on?.kind === 'in') && on.id === d) return false;
      if (believedWithin(j, u, d)) return false;
      if (rel === 'below' && j.c.world.entities.get(a)?.fixed) return false;
      if (clear > 0.01 && share > 0.1) return true;
      if (clear < -0.03 || share === 0) return false;
      return undefined;
    }
    case 'on the left of':
    case 'on the right of': {
      const ca = inBase(j, A.c);
      const cb = inBase(j, B.c);
      const lateral = (ca.y - cb.y) * (rel === 'on the left of' ? 1 : -1);
      const ahead = Math.abs(ca.x - cb.x);
      const apart = Math.hypot(ca.x - cb.x, ca.y - cb.y);
      const vOverlap = Math.min(A.box.max.y, B.box.max.y) - Math.max(A.box.min.y, B.box.min.y);
      const sameBand = vOverlap > 0.04 || Math.abs(A.box.min.y - B.box.min.y) < 0.08;
      const otherBand = vOverlap < 0.0 && Math.abs(A.box.min.y - B.box.min.y) > 0.12;
      const halfA = (A.box.max.z - A.box.min.z + A.box.max.x - A.box.min.x) / 4;
      const halfB = (B.box.max.z - B.box.min.z + B.box.max.x - B.box.min.x) / 4;
      const margin = Math.min(halfA, halfB) * 0.5;
      if (sameBand && apart < 0.57 && lateral > margin + 0.03 && lateral >= ahead * 0.5 + 0.03) return true;
      if (otherBand || apart > 0.63 || lateral < margin - 0.03 || lateral < ahead * 0.5 - 0.03) return false;
      return undefined;
    }
    case 'near': {
      const g = boxGap(A.box, B.box);
      const sa = recordOf(j, a)?.place;
      const sb = recordOf(j, b)?.place;
      // What it rests on or in, and what rests on or in it, are not "near".
      if ((sa?.kind === 'on' || sa?.kind === 'in') && sa.id === b) return false;
      if ((sb?.kind === 'on' || sb?.kind === 'in') && sb.id === a) return false;
      return g < 0.11 ? true : g > 0.13 ? false : undefined;
    }
  }
  return undefined;
}

function inBase(j: Judge, p: V): V {
  const b = j.c.after.base;
  const d = vec(p.x - b.pos.x, p.y - b.pos.y, p.z - b.pos.z);
  return vec(d.x * Math.cos(b.yaw) - d.z * Math.sin(b.yaw), -d.x * Math.sin(b.yaw) - d.z * Math.cos(b.yaw), d.y);
}

/** The pool a relation answers from: what the robot knows, never what it holds. */
function pool(j: Judge): string[] {
  return [...j.c.knownAfter].filter((id) => j.c.world.entities.has(id) && id !== j.c.after.held);
}

function relationSaid(j: Judge, rel: string, b: string, listed: readonly string[], hedged: boolean): void {
  for (const a of listed) {
    if (!exists(j, a)) continue;
    if (!knows(j, a)) j.leak(`listed ${a} ${rel} ${b}, which the robot has not perceived`);
    if (a === j.c.after.held) j.lie(`listed ${a}, which the hand holds, ${rel} ${b}`);
    if (rel === 'blocking' || rel === 'occluding') {
      const A = believedBox(j, a);
      const B = believedBox(j, b);
      if (A && B && boxGap(A, B) > 1.5) j.lie(`said ${a} is ${rel} ${b}, ${boxGap(A, B).toFixed(2)} m away from it`);
      continue;
    }
    if (relationHolds(j, rel, a, b) === false) j.lie(`said ${a} is ${rel} ${b}, but where the robot saw them it is not`);
  }
  if (rel === 'blocking' || rel === 'occluding') return;
  for (const a of pool(j)) {
    if (a === b || listed.includes(a)) continue;
    if (relationHolds(j, rel, a, b) === true) j.lie(`left out ${a}, which the robot saw ${rel} ${b}`);
  }
  // "Nothing inside": the world agrees, or the answer is hedged (closed, not looked into).
  if (rel === 'inside' && !hedged) {
    for (const [id, r] of j.c.after.places) {
      if (listed.includes(id) || id === j.c.after.held) continue;
      if (r.kind === 'in' && r.id === b)
        j.lie(`said ${listed.length ? 'only ' + listed.join(', ') + ' are' : 'nothing is'} inside ${b}, but ${id} is in it`);
    }
  }
}

export const QUERY_RULES: Record<string, readonly Rule[]> = {
  robot_holding: [
    [
      /The robot is not holding anything\./,
      (m, j) => void (j.c.after.held && j.lie(`said the hand is empty, but it holds ${j.c.after.held}`)),
    ],
    [
      new RegExp(`The robot is holding ${THING}\\.`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        if (j.c.after.held !== m[1]) j.lie(`said the hand holds ${m[1]}, but it holds ${j.c.after.held ?? 'nothing'}`);
      },
    ],
    [
      /robot_holding is not available: this robot has no arm capability\./,
      (_m, j) => void (j.c.world.scene.robot.arm && j.lie('said the robot has no arm, but it has one')),
    ],
  ],
  object_detection: [
    [
      /Visible objects: (.+)\./,
      (m, j) => {
        const ids: string[] = [];
        if (m[1] !== 'none')
          for (const it of items(m[1]!)) {
            const t = new RegExp(`^${THING}$`).exec(it);
            if (!t) return void j.unread(it);
            if (exists(j, t[1]!, t[2])) ids.push(t[1]!);
          }
        detected(j, ids, 'visible');
      },
    ],
  ],
  get_objects: [
    [
      /Objects: (.+)\./,
      (m, j) => {
        const ids: string[] = [];
        if (m[1] !== 'none')
          for (const it of items(m[1]!)) {
            const t = new RegExp(`^(${ID}) \\(([^,()]+), ([^,()]+)\\)$`).exec(it);
            if (!t) return void j.unread(it);
            if (!exists(j, t[1]!, t[2])) continue;
            const cat = j.c.world.entities.get(t[1]!)?.spec.category;
            if (cat !== t[3]) j.lie(`gave ${t[1]}'s category as ${t[3]}, but it is ${cat}`);
            ids.push(t[1]!);
          }
        detected(j, ids, 'present');
      },
    ],
  ],
  dist_to_target: [REACH],
  dist_robot_to_obj: [REACH],
  get_obj_state: [
    [
      new RegExp(`${THING} has no changeable state\\.`),
      (m, j) => {
        if (exists(j, m[1]!, m[2]) && statesOf(j, m[1]!).length)
          j.lie(`said ${m[1]} has no changeable state, but it has ${statesOf(j, m[1]!).join(', ')}`);
      },
    ],
    [
      new RegExp(`${THING} is (.+)\\.`),
      (m, j) => {
        if (exists(j, m[1]!, m[2])) statesSaid(j, m[1]!, m[3]!.split(', '));
      },
    ],
  ],
  get_obj_properties: [
    [
      new RegExp(`${THING}: (.+); category ([^,]+)(?:, weighs (${NUM}) kg)?\\.`),
      (m, j) => {
        const id = m[1]!;
        const e = j.c.world.entities.get(id);
        if (!exists(j, id, m[2]) || !e) return;
        const flags = m[3] === 'no special properties' ? [] : m[3]!.split(', ');
        const props = e.spec.properties as unknown as Record<string, boolean>;
        for (const f of flags) {
          if (!(f in props)) return void j.unread(f);
          if (!props[f]) j.lie(`said ${id} is ${f}, but it is not`);
          if (f === 'pickable' && e.fixed) j.lie(`said ${id} is pickable, but it is fixed in place`);
        }
        for (const [k, v] of Object.entries(props)) {
          if (!v || flags.includes(k)) continue;
          // Pickable only where the gripper closes on it: left out of a wide object, never of one that certainly fits.
          if (k === 'pickable') {
            const b = j.c.after.bodies.get(id)?.box;
            const open = j.c.world.scene.robot.arm?.gripperMaxOpening;
            if (!e.fixed && b && open && Math.max(b.max.x - b.min.x, b.max.z - b.min.z) < open - 0.01)
              j.lie(`left pickable out of ${id}, which fits the gripper`);
            continue;
          }
          j.lie(`left ${k} out of ${id}'s properties`);
        }
        if (m[4] !== e.spec.category) j.lie(`gave ${id}'s category as ${m[4]}, but it is ${e.spec.category}`);
        if (m[5] === undefined || Math.abs(Number(m[5]) - e.spec.mass) > 0.0051)
          j.lie(`gave ${id}'s weight as ${m[5] ?? 'nothing'} kg, but it weighs ${e.spec.mass} kg`);
      },
    ],
  ],
  check_obj_relationship: [
    [
      new RegExp(
        `No objects (blocking|inside|on top of|above|below|on the right of|on the left of|near|occluding) ${THING}(?: \\((${ID}) is closed, so its inside cannot be seen\\)| \\(the robot has not looked inside (${ID}) since something could have changed there, so what is inside is not known\\))?\\.`,
      ),
      (m, j) => {
        if (!exists(j, m[2]!, m[3])) return;
        if (m[4]) stateIs(j, m[2]!, 'open', false, m[4]);
        // Not looked inside since a change it could have missed: the robot's belief says so, or it is a lie.
        if (m[5] && j.c.world.belief.contentsKnown(m[5]))
          j.lie(`said the robot has not looked inside ${m[5]} since something could have changed there, but it has`);
        relationSaid(j, m[1]!, m[2]!, [], Boolean(m[4] ?? m[5]));
      },
    ],
    [
      new RegExp(
        `Objects (blocking|inside|on top of|above|below|on the right of|on the left of|near|occluding) ${THING}: (.+?)(?: \\((${ID}) is closed, so its inside cannot be seen: these are what the robot last knew in it, there may be more\\)| \\(the robot has not looked inside (${ID}) since something could have changed there: these are as last seen, there may be more or fewer\\))?\\.`,
      ),
      (m, j) => {
        if (!exists(j, m[2]!, m[3])) return;
        // A list of an inside it cannot see now is hedged, and the hedge must hold.
        if (m[5]) stateIs(j, m[5], 'open', false, m[5]);
        if (m[6] && j.c.world.belief.contentsKnown(m[6]))
          j.lie(`said the robot has not looked inside ${m[6]} since something could have changed there, but it has`);
        const listed: string[] = [];
        for (const it of items(m[4]!)) {
          const t = new RegExp(`^${THING}$`).exec(it);
          if (!t) return void j.unread(it);
          if (exists(j, t[1]!, t[2])) listed.push(t[1]!);
        }
        relationSaid(j, m[1]!, m[2]!, listed, Boolean(m[5] ?? m[6]));
      },
    ],
  ],
  dist_between_objs: [
    [
      new RegExp(`(${ID}) and (${ID}) are (${NUM}) m apart\\.`),
      (m, j) => {
        if (!exists(j, m[1]!) || !exists(j, m[2]!)) return;
        const box = (id: string): Box | undefined => {
          const p = j.c.world.people.get(id);
          if (p)
            return {
              min: vec(p.position.x - 0.22, p.position.y, p.position.z - 0.22),
              max: vec(p.position.x + 0.22, p.position.y + 1.7, p.position.z + 0.22),
            };
          return believedBox(j, id);
        };
        const a = box(m[1]!);
        const b = box(m[2]!);
        if (!a || !b) return void j.skip('a distance between things the robot keeps no box of');
        const g = boxGap(a, b);
        if (Math.abs(g - Number(m[3])) > distanceTolerance(j))
          j.lie(`said ${m[1]} and ${m[2]} are ${m[3]} m apart, but where the robot saw them the gap is ${g.toFixed(3)} m`);
      },
    ],
  ],
};

/** Judges a query tool's text by its rules; false when the tool has none. */
export function readQuery(j: Judge, text: string): boolean {
  const rules = QUERY_RULES[j.c.tool];
  if (!rules) return false;
  readOne(j, text, rules);
  return true;
}

export { agrees, restsNow };
