// Pieces that skills' sentences share: where an object is now ("it is now on
// table_1", "out of sight now"), why it left the fingers, why the arm cannot
// reach, and what the robot was doing when it stopped. Each is judged where it
// is read: places against the physics (the robot looked, or felt it on its
// body) and its belief (what it recorded), reach against the arm's geometry.
import type { Judge } from './check-read';
import { ID, NUM, THING, believedThere, exists, placeWords, recordOf, restsNow, shoulder } from './check-judge';
import { vec } from './truth';
import { chainReach } from './check-said-chain';

/** A person as skills name them: "Adriana (adriana)". */
export const WHO = `([^()]+) \\((${ID})\\)`;

/** "it is in the hand", "it is with P", "it is now <place>", "it is out of sight now", "where it is now is not known". */
export function whereItIs(j: Judge, id: string | undefined, s: string): void {
  if (s === 'where it is now is not known') return;
  const m = /^(?:it is )?(in the hand|with (\S+)|now (.+)|out of sight now)$/.exec(s);
  if (!m || !id) return void j.unread(s);
  if (m[1] === 'out of sight now') {
    // The robot forgot where it was: it keeps no record of it.
    if (recordOf(j, id) && j.c.after.held !== id)
      j.lie(`said ${id} is out of sight now, but the robot still records it ${JSON.stringify(recordOf(j, id)!.place)}`);
    return;
  }
  const words = m[3] ?? m[1]!;
  const p = placeWords(words);
  if (!p) return void j.unread(s);
  restsNow(j, id, p, `${id} is ${words}`);
  // What it says it sees (or feels) now, it records.
  if (m[3]) believedThere(j, id, p, `${id} is ${words}`);
}

/** Why an object left the fingers (the grip's own report). */
export function slipReason(j: Judge, id: string | undefined, s: string): void {
  let m = new RegExp(
    `^it slipped from the fingers: holding it took about (${NUM}) N \\(it weighs (${NUM}) N\\) but the fingers hold (${NUM}) N$`,
  ).exec(s);
  if (m) {
    const mass = id ? j.c.world.entities.get(id)?.spec.mass : undefined;
    if (!(Number(m[1]) > Number(m[3]))) j.message(`slipped, yet needed less than the grip: "${s}"`);
    if (mass !== undefined && Math.abs(Number(m[2]) - mass * 9.81) > 0.06)
      j.lie(`said ${id} weighs ${m[2]} N, but it weighs ${(mass * 9.81).toFixed(1)} N`);
    return;
  }
  m = new RegExp(`^it twisted out of the fingers: holding it needed about (${NUM}) Nm but the grip holds (${NUM}) Nm$`).exec(s);
  if (m) {
    if (!(Number(m[1]) > Number(m[2]))) j.message(`twisted out, yet needed less than the grip: "${s}"`);
    return;
  }
  if (s === 'it twisted out of the fingers: something turned it against the grip') return;
  // No grip reading to give: the bare fact, that the fingers no longer hold it.
  if (s === 'it slipped from the fingers') {
    if (id && j.c.after.held === id) j.lie(`said ${id} slipped from the fingers, but the hand holds it`);
    return;
  }
  if (s === 'it was pulled out of the fingers: something held it back as the arm moved') return;
  j.unread(s);
}

/** A fault the world guard repaired (a body the physics mishandled). */
export function faultReason(j: Judge, id: string | undefined, s: string): void {
  const fix = `; a simulator fault: it was put back on the floor at \\((${NUM}), (${NUM})\\)`;
  const m =
    new RegExp(`^it was pushed through the floor \\(to y = (${NUM}) m\\)${fix}$`).exec(s) ??
    new RegExp(`^it left the room \\(at x = (${NUM}), z = (${NUM}) m\\)${fix}$`).exec(s) ??
    new RegExp(`^its pose became undefined in the physics${fix}$`).exec(s);
  if (m) {
    // Put back on the floor there: it lies on the floor now, near that spot (unless something moved it since).
    const b = id ? j.c.after.bodies.get(id) : undefined;
    const x = Number(m[m.length - 2]);
    const z = Number(m[m.length - 1]);
    if (b && Math.hypot(b.pos.x - x, b.pos.z - z) > 1.5 && !j.c.movedByEvent.has(id!))
      j.lie(`said ${id} was put back at (${x}, ${z}), but it is at (${b.pos.x.toFixed(2)}, ${b.pos.z.toFixed(2)})`);
    return;
  }
  if (new RegExp(`^the physics flung it \\((${NUM}) m/s, (${NUM}) rad/s\\); a simulator fault: it was slowed to (${NUM}) m/s$`).test(s))
    return;
  j.unread(s);
}

/** The arm's reach as the scene builds it: upper arm, forearm and hand. */
function reachOf(j: Judge): { reach: number; arm: number } | undefined {
  const a = j.c.world.scene.robot.arm;
  return a ? { reach: a.upperArm + a.forearm + a.hand, arm: a.upperArm + a.forearm } : undefined;
}

/** What a reach sentence is about: "the pose (x 0.3, y 0, z 0.1)", "the approach above X", "the handle of X", "X". */
function what(j: Judge, s: string): void {
  if (s === 'that position') return;
  const m =
    new RegExp(`^the pose \\((?:x )?(${NUM}), (?:y )?(${NUM}), (?:z )?(${NUM})\\)$`).exec(s) ??
    new RegExp(`^(?:the approach above|the handle of|the switch of|the nearest free spot (?:in|on)) ${THING}$`).exec(s) ??
    // A point the caller gave (place at a position): named as given, its spot as near it as the surface allows.
    new RegExp(`^(?:the nearest free spot (?:in|on) )?\\{"x":${NUM},"y":${NUM},"z":${NUM}\\}$`).exec(s) ??
    new RegExp(`^${WHO}'s hand$`).exec(s) ??
    new RegExp(`^${THING}$`).exec(s);
  if (!m) return void j.unread(s);
  if (m.length === 3 && /^[a-z]/.test(m[1]!)) exists(j, m[1]!, m[2]);
}

/** Why the arm cannot reach: the geometry it gives must be the arm's, and its numbers must agree. */
export function reachReason(j: Judge, s: string, point?: { x: number; y: number; z: number }): void {
  const thing = s.startsWith('reaching ') ? chainReach(j, s) : undefined;
  if (thing !== undefined) return void what(j, thing);
  const g = reachOf(j);
  let m = new RegExp(`^(.+) is (${NUM}) m from the arm's shoulder; the arm reaches (${NUM}) m$`).exec(s);
  if (m) {
    what(j, m[1]!);
    const d = Number(m[2]);
    if (!(d > Number(m[3]))) j.message(`beyond reach, yet nearer than the reach: "${s}"`);
    if (g && Math.abs(Number(m[3]) - g.reach) > 0.006) j.lie(`said the arm reaches ${m[3]} m, but it reaches ${g.reach.toFixed(3)} m`);
    const sh = shoulder(j);
    if (point && sh) {
      const real = Math.hypot(point.x - sh.x, point.y - sh.y, point.z - sh.z);
      if (Math.abs(real - d) > 0.03) j.lie(`said the point is ${d} m from the shoulder, but it is ${real.toFixed(3)} m`);
    }
    return;
  }
  const hand = '(with the hand pointing down|with the hand level|with the hand tilted \\d+° from straight down)';
  m = new RegExp(
    `^(.+) is (${NUM}) m from the arm's shoulder, but ${hand} the wrist would have to be (${NUM}) m from the shoulder, and the upper arm and forearm reach (${NUM}) m$`,
  ).exec(s);
  if (m) {
    what(j, m[1]!);
    if (!(Number(m[4]) > Number(m[5]))) j.message(`wrist beyond reach, yet nearer: "${s}"`);
    if (g && Math.abs(Number(m[5]) - g.arm) > 0.006)
      j.lie(`said the upper arm and forearm reach ${m[5]} m, but they reach ${g.arm.toFixed(3)} m`);
    return;
  }
  m = new RegExp(
    `^(.+) is too close to the arm's shoulder \\((${NUM}) m\\): ${hand} the wrist would have to be (${NUM}) m from it, nearer than the arm folds \\((${NUM}) m\\)$`,
  ).exec(s);
  if (m) {
    what(j, m[1]!);
    if (!(Number(m[4]) < Number(m[5]))) j.message(`too close, yet farther than the fold: "${s}"`);
    return;
  }
  m = /^reaching (.+) would need the (\w+(?: \w+)?) joint at (-?\d+)°, past its limit$/.exec(s);
  if (m) return void what(j, m[1]!);
  m = /^reaching (.+) in a straight line would need the (\w+(?: \w+)?) joint to swing (\d+)° at once$/.exec(s);
  if (m) return void what(j, m[1]!);
  j.unread(s);
}

/** What a skill was doing when it was stopped: "picking lemon_1 (lemon)", "driving to table_1". */
export function doing(j: Judge, s: string): void {
  const simple = [
    'waiting',
    'waiting for an answer',
    'tucking the arm',
    'looking',
    'moving the arm',
    'nudging the arm',
    'docking',
    'undocking',
    'charging',
  ];
  if (simple.includes(s)) return;
  let m = new RegExp(`^(?:picking|slicing|placing) ${THING}$`).exec(s);
  if (m) return void exists(j, m[1]!, m[2]);
  m = new RegExp(`^(?:opening|closing) ${THING} \\(now (\\d+)% open\\)$`).exec(s);
  if (m) return void exists(j, m[1]!, m[2]);
  m = new RegExp(`^switching ${THING} (?:on|off)$`).exec(s);
  if (m) return void exists(j, m[1]!, m[2]);
  m = new RegExp(`^(?:moving the arm to|scanning|driving to) (${ID}|the new pose|${WHO})$`).exec(s);
  if (m) return;
  m = new RegExp(`^handing ${THING} to ${WHO}$`).exec(s);
  if (m) return void exists(j, m[1]!, m[2]);
  j.unread(s);
}

/** The estop was pressed for (some of) the call: before it, or an event during it. */
export function estopDuring(j: Judge): boolean {
  const c = j.c;
  return c.before.estop || c.after.estop || c.world.events.since(c.eventsBefore).some((e) => e.type === 'estop_pressed');
}

export { vec };
