// What no call may do to the world (bodies below the floor, thrown, outside it,
// a held object away from the fingers), what no tool may say (names the robot
// has not perceived, distances to where a thing is rather than where it was
// seen), and numbers in a message that contradict it.
import { BELOW_FLOOR, type CallUnderCheck, type Finding, THROWN_SPEED, boxGap, mentions, near } from './check-core';
import type { Box, V } from './truth';

export function checkInvariants(c: CallUnderCheck): Finding[] {
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

/**
 * Names in the output the robot could not know. The world-model tools are held
 * to the same bound (their tree holds what perception and operators put in it);
 * exogenous events are what people tell the robot (paper 003 §5).
 */
export function checkLeaks(c: CallUnderCheck, text: string): Finding[] {
  if (c.tool === 'check_events') return [];
  const out: Finding[] = [];
  const argText = JSON.stringify(c.args);
  // People are judged by name (check-said-people.ts): only one the robot recognises may be named.
  const ids = [...c.world.entities.keys()];
  for (const id of mentions(text, ids)) {
    const allowed = c.knownBefore.has(id) || c.knownAfter.has(id) || c.learnt.has(id) || c.mentioned.has(id) || argText.includes(id);
    if (!allowed) out.push({ class: 'leaks', detail: `${c.tool} named ${id}, which the robot has not perceived` });
  }
  return out;
}

/** A distance to an object the robot saw elsewhere must be measured to where it saw it. */
export function checkDistance(c: CallUnderCheck, believed: ReadonlyMap<string, V>): Finding[] {
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
