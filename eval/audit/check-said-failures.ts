// What a skill's failure says about the hand, the object and the way: the
// reasons of the hand, reach, weight, slips and blocked paths, each judged
// against the physics, the catalogue and the robot's belief.
import { type Rule } from './check-read';
import { ID, NUM, THING, believedPosition, exists, gapTo, holds, recordOf, stateIs, tiltOf } from './check-judge';
import { WHO, reachReason, slipReason, whereItIs } from './check-said-parts';
import { readWho } from './check-said-incidents';
import { agrees } from './truth';
import { fitsHand, movePoint, notThere, tooBig, within } from './check-said-skill-parts';

export const HAND_AND_WAY: Record<string, readonly Rule[]> = {
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
      // Lifted, then lost while the world settled: the hand no longer holds it.
      new RegExp(`lifted ${THING}, but then (.+); it is (.+)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        if (j.c.after.held === m[1]) j.lie(`said ${m[1]} left the fingers after the lift, but the hand holds it`);
        slipReason(j, m[1], m[3]!);
        whereItIs(j, m[1], `it is ${m[4]}`);
      },
    ],
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
};
