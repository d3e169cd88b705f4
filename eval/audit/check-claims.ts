// Lies about where things are and what the robot did: a claim in a tool's
// structured result that does not hold, a change of place the result does not
// name, a belief record untrue when written, a world-model node that is wrong.
import { type CallUnderCheck, type Finding, type Skip, claimsOf, mentions, near, readable, unsureWhy } from './check-core';
import { type Reading, ROBOT, agrees, certainlyMoved } from './truth';
import { postureOffset } from '../../sim/world/robot-body';

export function checkClaims(c: CallUnderCheck, skip: Skip): Finding[] {
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
        const off = w.kinematics && a.joints ? postureOffset(w.kinematics, String(claim['posture']), a.joints) : undefined;
        if (off === undefined || !a.joints) {
          lie(a.joints ? 'the arm has no such posture' : 'the robot has no arm');
          break;
        }
        if (off > 0.01 + 1e-9) lie(`a joint is ${off.toFixed(3)} rad from it`);
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

/** Every certain change of where an object is must be named by the call (or anonymised if never perceived). */
export function checkAccounted(c: CallUnderCheck, text: string, skip: Skip): Finding[] {
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
    // Known before or after: named. Never perceived: anonymised. Seen only in between (or
    // long ago) and forgotten: either, as the robot may or may not still hold its name.
    const known = c.knownBefore.has(id) || c.knownAfter.has(id);
    const byName = mentions(text, [id]).length > 0;
    const anonymised = /not perceived|had not perceived|an object the robot/.test(text);
    const named = known ? byName : c.learnt.has(id) ? byName || anonymised : anonymised;
    if (!named) {
      out.push({
        class: 'lies',
        detail: `${id} went from ${JSON.stringify(readable(was))} to ${JSON.stringify(readable(now))} during ${c.tool}, and the result does not say so`,
      });
    }
  }
  return out;
}

/** What perception recorded during the call must have been true when it was recorded (at the call's end). */
export function checkFreshBelief(c: CallUnderCheck, skip: Skip = () => {}): Finding[] {
  // Only records written by this call, and only when the object has not moved since it was
  // recorded (recorded at the end, or still at the recorded pose and at rest): a record made
  // mid-call of something that then rolled away was true when made. One made as the call
  // ended names where the object is, also if it was still in flight: judged where it came to rest.
  const out: Finding[] = [];
  for (const e of c.world.belief.objects.values()) {
    if (e.how !== 'seen' || c.beliefBefore.get(e.id) === e) continue;
    const body = c.after.bodies.get(e.id);
    const still = body && near(body.pos, e.pose.p) < 0.002 && body.speed < 0.01;
    if (e.time !== c.after.time && e.time !== c.ended && !still) continue;
    const p = e.place;
    const r = c.after.places.get(e.id);
    let ok: boolean | undefined;
    if (p.kind === 'moving') {
      // Still moving, no support named: true of what moved as the call returned. One recorded
      // earlier in the call may have been moving then; that cannot be told now.
      if (e.time === c.ended || e.time === c.after.time) ok = c.after.moving.has(e.id);
      else skip('lies', 'a still-moving record made before the call ended');
    } else if (p.kind === 'unperceived') {
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
