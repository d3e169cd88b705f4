// The independent checker: after every call it compares what the tool said
// with the world (its own reading, truth.ts) and with what the robot knows (its
// belief), and checks invariants and the numbers inside messages. It does not
// use the simulator's perception helpers; it reads Rapier bodies itself.
import type { ToolResult } from '../../agents/tools/tool';
import type { SimWorld } from '../../sim/world/sim-world';
import { type Box, type Reading, type V, type WorldReading, ROBOT, agrees, certainlyMoved } from './truth';

export const CLASSES = ['lies', 'leaks', 'invariants', 'messages', 'crashes'] as const;
export type ViolationClass = (typeof CLASSES)[number];

export interface Finding {
  class: ViolationClass;
  detail: string;
}

/** A check a class could not decide for a call, and why (the audit counts these; the goal is none). */
export interface Unjudged {
  class: ViolationClass;
  reason: string;
}

/** Where the checks of one call put what they could not judge. */
type Skip = (cls: ViolationClass, reason: string) => void;

/** Faster than anything thrown or dropped here (the world guard holds bodies to 8 m/s). */
export const THROWN_SPEED = 8.5;
/** Below the floor's top by more than contact depth. */
export const BELOW_FLOOR = -0.03;
/**
 * Tool sets over the AIMM world model (paper 000 §II.C.3): its tree reflects the
 * world as perception filled it (furniture, perceived objects, places, people
 * seen) and what operators added, with true poses. They are held to that grant:
 * no names beyond it, and every pose and parent they give must be true.
 */
export const WORLD_MODEL_SETS = new Set(['world-model', 'world-model-queries']);

export interface CallUnderCheck {
  world: SimWorld;
  set: string;
  tool: string;
  args: Record<string, unknown>;
  result: ToolResult | undefined;
  thrown: string | undefined;
  before: WorldReading;
  after: WorldReading;
  /** Objects the robot knew (furniture and belief) before and after the call. */
  knownBefore: ReadonlySet<string>;
  knownAfter: ReadonlySet<string>;
  /** People in view before or after, or seen before. */
  peopleSeen: ReadonlySet<string>;
  /** Names that reached the robot's side earlier in the run (tool outputs, events it was told). */
  mentioned: ReadonlySet<string>;
  /** Objects an event moved while the call ran. */
  movedByEvent: ReadonlySet<string>;
  /** The belief's records before the call (a record the call wrote is a new object). */
  beliefBefore: ReadonlyMap<string, unknown>;
}

interface Claim {
  kind: string;
  [k: string]: unknown;
}

const near = (a: V, b: V): number => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
function boxGap(b: Box, p: V): number {
  const dx = Math.max(0, b.min.x - p.x, p.x - b.max.x);
  const dy = Math.max(0, b.min.y - p.y, p.y - b.max.y);
  const dz = Math.max(0, b.min.z - p.z, p.z - b.max.z);
  return Math.hypot(dx, dy, dz);
}

function claimsOf(result: ToolResult | undefined): Claim[] {
  const outcome = result?.data as { ok?: boolean; data?: { claims?: unknown } } | undefined;
  if (!result?.ok || !outcome || outcome.ok !== true) return [];
  const c = outcome.data?.claims;
  return Array.isArray(c) ? (c as Claim[]) : [];
}

/** Every entity id and person id mentioned in a text. */
function mentions(text: string, ids: readonly string[]): string[] {
  const out: string[] = [];
  for (const id of ids) {
    const re = new RegExp(`(^|[^a-z0-9_])${id}([^a-z0-9_]|$)`);
    if (re.test(text)) out.push(id);
  }
  return out;
}

function checkClaims(c: CallUnderCheck, skip: Skip): Finding[] {
  const out: Finding[] = [];
  const w = c.world;
  const a = c.after;
  for (const claim of claimsOf(c.result)) {
    const lie = (detail: string): void => void out.push({ class: 'lies', detail: `claimed ${JSON.stringify(claim)} but ${detail}` });
    switch (claim.kind) {
      case 'held': {
        const id = String(claim['object']);
        if (a.held !== id) lie(`the hand holds ${a.held ?? 'nothing'}`);
        break;
      }
      case 'rests': {
        const id = String(claim['object']);
        const rel = claim['relation'] === 'in' ? 'in' : 'on';
        const support = String(claim['support']);
        const ok = agrees(a.places.get(id), rel, support);
        if (ok === false) lie(`${id} is ${JSON.stringify(readable(a.places.get(id)))}`);
        if (ok === undefined) skip('lies', `a rests claim where the reading is unsure (${unsureWhy(a.places.get(id))})`);
        break;
      }
      case 'at': {
        const l = w.locations.get(String(claim['place']));
        if (!l) {
          lie('there is no such place');
          break;
        }
        const d = Math.hypot(a.base.pos.x - l.pose.position[0], a.base.pos.z - l.pose.position[2]);
        if (d > 0.2) lie(`the base stands ${d.toFixed(2)} m from it`);
        break;
      }
      case 'base': {
        const [x, z] = claim['position'] as [number, number];
        const d = Math.hypot(a.base.pos.x - x, a.base.pos.z - z);
        if (d > 0.05) lie(`the base stands ${d.toFixed(2)} m from it`);
        break;
      }
      case 'posture': {
        const p = w.scene.robot.arm?.postures[String(claim['posture'])];
        if (!p || !a.joints) {
          lie(a.joints ? 'the arm has no such posture' : 'the robot has no arm');
          break;
        }
        const off = p.map((deg, i) => {
          const d = a.joints![i]! - (deg * Math.PI) / 180;
          return i === 0 || i === 4 ? Math.abs(Math.atan2(Math.sin(d), Math.cos(d))) : Math.abs(d);
        });
        if (Math.max(...off) > 0.01 + 1e-9) lie(`a joint is ${Math.max(...off).toFixed(3)} rad from it`);
        break;
      }
      case 'tool': {
        const [x, y, z] = claim['position'] as [number, number, number];
        if (!a.tcp) lie('the robot has no arm');
        else if (near(a.tcp, { x, y, z }) > 0.01) lie(`the tool centre is ${near(a.tcp, { x, y, z }).toFixed(3)} m from it`);
        break;
      }
      case 'state': {
        const e = w.entities.get(String(claim['object']));
        if (!e) {
          lie('there is no such object');
          break;
        }
        const key = claim['state'] as 'open' | 'on' | 'sliced';
        if (e.states[key] !== claim['value']) lie(`${e.id} is ${key}: ${String(e.states[key])}`);
        if (key === 'open' && e.door) {
          const f = e.door.openValue ? e.door.value / e.door.openValue : 0;
          if (claim['value'] === true && f < 0.9) lie(`${e.id}'s door is ${Math.round(f * 100)}% open`);
          if (claim['value'] === false && f > 0.05) lie(`${e.id}'s door is ${Math.round(f * 100)}% open`);
        }
        break;
      }
      case 'handed': {
        const id = String(claim['object']);
        if (w.handedOver.get(id) !== claim['person'] || a.held === id) lie(`${id} is not with ${String(claim['person'])}`);
        break;
      }
      case 'docked':
        if (a.docked !== claim['value']) lie(`docked is ${String(a.docked)}`);
        break;
      case 'battery':
        if (a.batteryPercent < Number(claim['atLeast']) - 0.5) lie(`the battery is at ${a.batteryPercent.toFixed(1)}%`);
        break;
      default:
        skip('lies', `a claim of a kind the checker does not know (${String(claim.kind)})`);
    }
  }
  return out;
}

function unsureWhy(r: Reading | undefined): string {
  return r?.kind === 'unsure' ? r.why : 'no reading';
}

function readable(r: unknown): unknown {
  if (r && typeof r === 'object' && 'ids' in r) return { ...(r as object), ids: [...(r as { ids: Set<string> }).ids] };
  return r;
}

/** Robot facts in a snapshot: the robot knows its own state, so each must hold exactly. */
function checkRobotFacts(c: CallUnderCheck, text: string): Finding[] {
  const out: Finding[] = [];
  const w = c.world;
  const a = c.after;
  const lie = (f: string, why: string): void => void out.push({ class: 'lies', detail: `reported ${f} but ${why}` });
  for (const f of text.split('\n').map((l) => l.trim())) {
    let m = /^robot_at\(robot, ([a-z0-9_]+)\)$/.exec(f);
    if (m) {
      let best: { id: string; d: number } | undefined;
      for (const l of w.locations.values()) {
        const d = Math.hypot(a.base.pos.x - l.pose.position[0], a.base.pos.z - l.pose.position[2]);
        if (d <= 0.2 && (!best || d < best.d)) best = { id: l.id, d };
      }
      const want = best?.id ?? 'unknown';
      if (m[1] !== want) lie(f, `the base is at ${want} (0.2 m tolerance)`);
      continue;
    }
    m = /^robot_has_arm_posture\(robot, ([a-z0-9_]+)\)$/.exec(f);
    if (m && !a.joints) lie(f, 'the robot has no arm');
    if (m && a.joints) {
      const postures = w.scene.robot.arm?.postures ?? {};
      const within = Object.entries(postures)
        .filter(([, p]) =>
          p.every((deg, i) => {
            const d = a.joints![i]! - (deg * Math.PI) / 180;
            return (i === 0 || i === 4 ? Math.abs(Math.atan2(Math.sin(d), Math.cos(d))) : Math.abs(d)) <= 0.01 + 1e-9;
          }),
        )
        .map(([n]) => n);
      if (m[1] === 'unknown' ? within.length > 0 : !within.includes(m[1]!))
        lie(f, `the joints are in ${within.join(' or ') || 'no named posture'}`);
      continue;
    }
    m = /^holding\(robot, ([a-z0-9_]+)\)$/.exec(f);
    if (m && a.held !== m[1]) lie(f, `the hand holds ${a.held ?? 'nothing'}`);
    if (f === 'hand_empty(robot)' && a.held) lie(f, `the hand holds ${a.held}`);
    if (f === 'estop_pressed(robot)' && !a.estop) lie(f, 'the emergency stop is not pressed');
    if (f === 'docked(robot)' && !a.docked) lie(f, 'the robot is not docked');
  }
  if (/^(robot_|battery)/m.test(text) && a.estop && !text.includes('estop_pressed(robot)')) {
    out.push({ class: 'lies', detail: 'a snapshot left out estop_pressed(robot) while the emergency stop is pressed' });
  }
  return out;
}

/** Placement facts in a snapshot: at most one per object (exactly one location each). */
function checkOneLocation(text: string): Finding[] {
  const count = new Map<string, number>();
  for (const m of text.matchAll(/^(?:on|in)\(([a-z0-9_]+), [a-z0-9_]+\)$/gm)) count.set(m[1]!, (count.get(m[1]!) ?? 0) + 1);
  for (const m of text.matchAll(/^holding\(robot, ([a-z0-9_]+)\)$/gm)) count.set(m[1]!, (count.get(m[1]!) ?? 0) + 1);
  return [...count]
    .filter(([, n]) => n > 1)
    .map(([id, n]) => ({ class: 'invariants' as const, detail: `${id} has ${n} location facts in one snapshot` }));
}

function checkInvariants(c: CallUnderCheck): Finding[] {
  const out: Finding[] = [];
  const w = c.world;
  const hx = w.scene.scene.floor.size[0] / 2 + 2;
  const hz = w.scene.scene.floor.size[1] / 2 + 2;
  for (const b of c.after.bodies.values()) {
    if (b.fixed) continue;
    const bad = (d: string): void => void out.push({ class: 'invariants', detail: `${b.id} ${d}` });
    if (!b.finite) bad('has a non-finite pose');
    else if (b.box.min.y < BELOW_FLOOR) bad(`is below the floor (bottom at y = ${b.box.min.y.toFixed(3)} m)`);
    else if (Math.abs(b.pos.x) > hx || Math.abs(b.pos.z) > hz)
      bad(`is outside the world (at ${b.pos.x.toFixed(2)}, ${b.pos.z.toFixed(2)})`);
    if (b.finite && b.speed > THROWN_SPEED) bad(`moves at ${b.speed.toFixed(1)} m/s, faster than a thrown object`);
  }
  const held = c.after.held;
  if (held && c.after.tcp) {
    const g = boxGap(c.after.bodies.get(held)!.box, c.after.tcp);
    if (g > 0.06) out.push({ class: 'invariants', detail: `${held} is held but ${g.toFixed(3)} m from the fingers` });
  }
  return out;
}

/** Every certain change of where an object is must be named by the call (or anonymised if never perceived). */
function checkAccounted(c: CallUnderCheck, text: string, skip: Skip): Finding[] {
  const out: Finding[] = [];
  for (const [id, was] of c.before.places) {
    if (c.movedByEvent.has(id)) continue;
    const now = c.after.places.get(id);
    const judgeable = (r: Reading | undefined): boolean => r !== undefined && (r.kind !== 'unsure' || !!r.plausible?.length);
    if ((was.kind === 'unsure' || now?.kind === 'unsure') && !(judgeable(was) && judgeable(now))) {
      // Still where it was to the last millimetre: nothing happened to account for.
      const b0 = c.before.bodies.get(id);
      const b1 = c.after.bodies.get(id);
      if (!b0 || !b1 || near(b0.pos, b1.pos) > 0.005)
        skip('lies', `whether an object moved, where a reading is unsure (${unsureWhy(was.kind === 'unsure' ? was : now)})`);
      continue;
    }
    if (!certainlyMoved(was, now)) continue;
    const known = c.knownBefore.has(id) || c.knownAfter.has(id);
    const named = known ? mentions(text, [id]).length > 0 : /not perceived|had not perceived|an object the robot/.test(text);
    if (!named) {
      out.push({
        class: 'lies',
        detail: `${id} went from ${JSON.stringify(readable(was))} to ${JSON.stringify(readable(now))} during ${c.tool}, and the result does not say so`,
      });
    }
  }
  return out;
}

/**
 * Names in the output the robot could not know. The world-model tools are held
 * to the same bound (their tree holds what perception and operators put in it);
 * exogenous events are what people tell the robot (paper 003 §5).
 */
function checkLeaks(c: CallUnderCheck, text: string): Finding[] {
  if (c.tool === 'check_events') return [];
  const out: Finding[] = [];
  const argText = JSON.stringify(c.args);
  const ids = [...c.world.entities.keys(), ...c.world.people.keys()];
  for (const id of mentions(text, ids)) {
    const person = c.world.people.has(id);
    const allowed =
      (person ? c.peopleSeen.has(id) : c.knownBefore.has(id) || c.knownAfter.has(id)) || c.mentioned.has(id) || argText.includes(id);
    if (!allowed) out.push({ class: 'leaks', detail: `${c.tool} named ${id}, which the robot has not perceived` });
  }
  return out;
}

/** A distance to an object the robot saw elsewhere must be measured to where it saw it. */
function checkDistance(c: CallUnderCheck, believed: ReadonlyMap<string, V>): Finding[] {
  const d = c.result?.data as { target?: unknown; distanceM?: unknown } | undefined;
  if (!c.result?.ok || !d || typeof d.target !== 'string' || typeof d.distanceM !== 'number') return [];
  const truth = c.after.bodies.get(d.target);
  const seen = believed.get(d.target);
  const from = c.world.bodyLinks.arm ? c.world.world.getRigidBody(c.world.bodyLinks.arm.upper).translation() : c.after.base.pos;
  if (!truth || !seen || truth.fixed) return [];
  const centre = (b: Box): V => ({ x: (b.min.x + b.max.x) / 2, y: (b.min.y + b.max.y) / 2, z: (b.min.z + b.max.z) / 2 });
  if (near(centre(truth.box), seen) < 0.15) return [];
  const dTruth = near(from, centre(truth.box));
  const dSeen = near(from, seen);
  return Math.abs(d.distanceM - dTruth) < Math.abs(d.distanceM - dSeen) - 0.05
    ? [
        {
          class: 'leaks',
          detail: `${c.tool} gave ${d.distanceM} m to ${d.target}: the distance to where it is, not to where the robot saw it`,
        },
      ]
    : [];
}

/** Numbers inside a message agree with what the message claims. */
export function checkMessage(text: string, ok: boolean): Finding[] {
  const out: Finding[] = [];
  const bad = (detail: string): void => void out.push({ class: 'messages', detail });
  if (/injected|\bsimulated (failure|fault)\b/i.test(text)) bad(`the message says the failure was simulated: "${text.slice(0, 160)}"`);
  if (/\bat here\b/.test(text)) bad(`"at here": "${text.slice(0, 120)}"`);
  if (ok && /^Failed \(/.test(text)) bad(`a successful result reads "Failed": "${text.slice(0, 120)}"`);
  if (!ok && /^Success:/.test(text)) bad(`a failed result reads "Success": "${text.slice(0, 120)}"`);
  const pairs: Array<[RegExp, string]> = [
    [/(\d+(?:\.\d+)?) m from the arm's shoulder; the arm reaches (\d+(?:\.\d+)?) m/g, 'beyond reach, yet nearer than the reach'],
    [
      /wrist would have to be (\d+(?:\.\d+)?) m from the shoulder, and the upper arm and forearm reach (\d+(?:\.\d+)?) m/g,
      'wrist beyond reach, yet nearer',
    ],
    [
      /took about (\d+(?:\.\d+)?) N \(it weighs [\d.]+ N\) but the fingers hold (\d+(?:\.\d+)?) N/g,
      'slipped, yet needed less than the grip',
    ],
    [/needed about (\d+(?:\.\d+)?) Nm but the grip holds (\d+(?:\.\d+)?) Nm/g, 'twisted out, yet needed less than the grip'],
    [/weighs (\d+(?:\.\d+)?) kg and the arm lifts at most (\d+(?:\.\d+)?) kg/g, 'too heavy, yet lighter than the payload'],
    [/is (\d+(?:\.\d+)?) m away; handovers happen within (\d+(?:\.\d+)?) m/g, 'too far for a handover, yet within'],
  ];
  for (const [re, what] of pairs) {
    for (const m of text.matchAll(re)) if (!(Number(m[1]) > Number(m[2]))) bad(`${what}: "${m[0]}"`);
  }
  for (const m of text.matchAll(/is (\d+(?:\.\d+)?) cm across where the fingers would close; the gripper opens (\d+(?:\.\d+)?) cm/g)) {
    if (!(Number(m[1]) > Number(m[2]) - 0.5)) bad(`too big, yet narrower than the opening: "${m[0]}"`);
  }
  for (const m of text.matchAll(/it is (\d+)% open/g)) if (Number(m[1]) > 100) bad(`more than fully open: "${m[0]}"`);
  return out;
}

/** What perception recorded during the call must have been true when it was recorded (at the call's end). */
export function checkFreshBelief(c: CallUnderCheck, skip: Skip = () => {}): Finding[] {
  // Only records written by this call, and only when the object has not moved since it was
  // recorded (recorded at the end, or still at the recorded pose and at rest): a record made
  // mid-call of something that then rolled away was true when made.
  const out: Finding[] = [];
  for (const e of c.world.belief.objects.values()) {
    if (e.how !== 'seen' || c.beliefBefore.get(e.id) === e) continue;
    const body = c.after.bodies.get(e.id);
    const still = body && near(body.pos, e.pose.p) < 0.002 && body.speed < 0.01;
    if (e.time !== c.after.time && !still) continue;
    const p = e.place;
    const r = c.after.places.get(e.id);
    let ok: boolean | undefined;
    if (p.kind === 'unperceived') {
      // On or in something it has not perceived: the reading must show a support the robot does not know.
      const unknownSupport = (q: Reading | undefined): boolean =>
        p.relation === 'in'
          ? q?.kind === 'in' && !c.knownAfter.has(q.id)
          : q?.kind === 'on' && [...q.ids].some((x) => x !== 'floor' && x !== ROBOT && !c.knownAfter.has(x));
      ok = r?.kind === 'unsure' ? (r.plausible?.length ? r.plausible.some(unknownSupport) : undefined) : unknownSupport(r);
    } else ok = agrees(r, p.kind, 'id' in p ? p.id : 'person' in p ? p.person : undefined);
    if (ok === undefined) skip('lies', `a belief record where the reading is unsure (${unsureWhy(r)})`);
    if (ok === false) {
      out.push({
        class: 'lies',
        detail: `perception recorded ${e.id} as ${JSON.stringify(p)}, but it is ${JSON.stringify(readable(c.after.places.get(e.id)))}`,
      });
    }
  }
  return out;
}

/**
 * Object location facts in a snapshot say what the robot believes: each must be
 * the belief's own record (on(x, robot_hand) for what rests on the hand,
 * on(x, unperceived) for a support it has not perceived).
 */
function checkBeliefFacts(c: CallUnderCheck, text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(/^(on|in)\(([a-z0-9_]+), ([a-z0-9_]+)\)$/gm)) {
    const [f, rel, id, support] = m as unknown as [string, string, string, string];
    const b = c.world.belief.get(id);
    const p = b?.place;
    const robotPart = /^robot_(hand|arm|base)$/.exec(support)?.[1];
    const same =
      p &&
      (robotPart
        ? rel === 'on' && p.kind === 'robot' && p.part === robotPart
        : support === 'unperceived'
          ? p.kind === 'unperceived' && p.relation === rel
          : support === 'floor'
            ? rel === 'on' && p.kind === 'floor'
            : p.kind === rel && 'id' in p && p.id === support);
    if (!same && !c.world.entities.get(id)?.fixed) {
      out.push({ class: 'lies', detail: `reported ${f} but the robot believes ${p ? JSON.stringify(p) : 'nothing of it'}` });
    }
  }
  return out;
}

/** A world-model node must be true: its position (base frame) where the object is, its parent what it rests on or in. */
function checkWorldModel(c: CallUnderCheck): Finding[] {
  if (!WORLD_MODEL_SETS.has(c.set) || !c.result?.ok) return [];
  const d = c.result.data as { id?: unknown; position?: unknown; parent?: unknown; relation?: unknown; frame?: unknown } | undefined;
  if (!d || typeof d.id !== 'string' || d.frame !== 'base') return [];
  const out: Finding[] = [];
  const lie = (detail: string): void => void out.push({ class: 'lies', detail: `${c.tool} said ${d.id as string} ${detail}` });
  const body = c.after.bodies.get(d.id);
  if (!body) return [];
  const pos = d.position as { x: number; y: number; z: number } | null;
  if (!pos) lie('has no position');
  else {
    // Independent of the frames code: the floor-plane distance from the base is frame-free.
    const said = Math.hypot(pos.x, pos.y);
    const real = Math.hypot(body.pos.x - c.after.base.pos.x, body.pos.z - c.after.base.pos.z);
    if (Math.abs(said - real) > 0.02) lie(`is ${said.toFixed(2)} m from the base, but it is ${real.toFixed(2)} m`);
  }
  if (!body.fixed && (d.relation === 'on' || d.relation === 'in') && typeof d.parent === 'string' && d.parent !== 'robot') {
    if (agrees(c.after.places.get(d.id), d.relation, d.parent) === false)
      lie(`is ${d.relation} ${d.parent}, but it is ${JSON.stringify(readable(c.after.places.get(d.id)))}`);
  }
  return out;
}

export function checkCall(c: CallUnderCheck, believedAfter: ReadonlyMap<string, V>, unjudged: Unjudged[] = []): Finding[] {
  const skip: Skip = (cls, reason) => void unjudged.push({ class: cls, reason });
  // A call that threw or failed inside said nothing to judge but its crash; the world is still checked.
  if (c.thrown) return [{ class: 'crashes', detail: `${c.tool} threw: ${c.thrown.split('\n')[0]}` }, ...checkInvariants(c)];
  const text = c.result?.content ?? '';
  if (/internal error/i.test(text)) return [{ class: 'crashes', detail: `${c.tool}: ${text.slice(0, 200)}` }, ...checkInvariants(c)];
  const out: Finding[] = [
    ...checkInvariants(c),
    ...checkClaims(c, skip),
    ...checkAccounted(c, text, skip),
    ...checkMessage(text, Boolean(c.result?.ok)),
  ];
  if (/^(robot_at|battery|hand_empty|holding|robot_has_arm_posture)\(/m.test(text)) {
    out.push(...checkRobotFacts(c, text), ...checkOneLocation(text), ...checkBeliefFacts(c, text));
  }
  out.push(...checkLeaks(c, text), ...checkDistance(c, believedAfter), ...checkFreshBelief(c, skip), ...checkWorldModel(c));
  return out;
}
