// Talking, waiting and handing things to people. `ask` waits for an answer: a
// person_said event (from the operator, the UI, a scene script or a test).
// Handovers follow RAIDER's assistive constraints (paper 001 §5.2): the person
// close (within 0.5 m), looking at the robot, with a free hand. Speaking to a
// person by name draws their attention: they turn to look at the robot, which is
// how §5.2's "ask for their attention" recovery resolves a handover.
import { type Vec3, add, normalize, round, scale, sub, v3 } from '../math';
import { robotHumanDistance } from '../perception/distance';
import { approachPoint, gazeAtRobot } from '../perception/people';
import { personLabel, seePerson } from '../perception/person-names';
import { SkillInterrupt, type SimWorld } from '../world/sim-world';
import { MotionFailure, describeIk, handTurn, moveJoints, moveLine, movePosture, solve } from './arm';
import { armPreconditions, displayName, interruptOutcome } from './common';
import { navigate } from './navigation';
import { type SkillOptions, type SkillOutcome, claims, failure, success } from './outcome';
import { tracked } from './incidents';

export const HANDOVER_DISTANCE = 0.5;

/** People whose name or id the robot speaks turn to look at it; returns their ids. */
export function drawAttention(sim: SimWorld, text: string): string[] {
  const spoken = new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}_]+/u)
      .filter(Boolean),
  );
  const turned: string[] = [];
  for (const [id, p] of sim.people) {
    const names = [id, ...p.spec.name.toLowerCase().split(/\s+/)];
    if (names.some((n) => spoken.has(n))) {
      p.gaze = 'robot';
      turned.push(id);
    }
  }
  return turned;
}

export function say(sim: SimWorld, text: string): SkillOutcome {
  if (!text.trim()) return failure('invalid_argument', 'there is nothing to say');
  drawAttention(sim, text);
  return success(`said: "${text.trim()}"`, { text: text.trim(), time: round(sim.time, 2) });
}

async function runWait(sim: SimWorld, seconds: number, opts: SkillOptions = {}): Promise<SkillOutcome> {
  if (!(seconds > 0) || seconds > 3600)
    return failure('invalid_argument', `a wait of ${seconds} s cannot run: a wait lasts more than 0 and at most 3600 seconds`);
  try {
    await sim.idle(seconds, { ...opts, ignoreEstop: true });
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'waiting');
    throw e;
  }
  // Said as asked: a short wait is not rounded to "0 s".
  return success(`waited ${seconds < 1 ? round(seconds, 3) : round(seconds, 1)} s`);
}

/** Asks a question aloud and waits for someone to answer. */
async function runAsk(sim: SimWorld, question: string, timeoutSeconds = 30, opts: SkillOptions = {}): Promise<SkillOutcome> {
  if (!question.trim()) return failure('invalid_argument', 'there is no question to ask');
  drawAttention(sim, question);
  const since = sim.events.lastId;
  const answer = () => sim.events.since(since).find((e) => e.type === 'person_said');
  try {
    await sim.idle(timeoutSeconds, { ...opts, until: () => Boolean(answer()), ignoreEstop: true });
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'waiting for an answer');
    throw e;
  }
  const a = answer();
  if (!a || a.type !== 'person_said')
    return failure('timeout', `asked "${question.trim()}" but nobody answered within ${timeoutSeconds} s`);
  return success(`${a.person ?? 'someone'} answered: "${a.text}"`, { question: question.trim(), answer: a.text, person: a.person ?? null });
}

/** Where a person holds out a hand: in front of the chest, at sitting or standing height. */
export function handPoint(sim: SimWorld, personId: string): Vec3 {
  const p = sim.people.get(personId)!;
  const h = p.spec.seated ? 0.75 : 1.05;
  const facing = v3(Math.cos(p.yaw), 0, -Math.sin(p.yaw));
  return add(add(p.position, v3(0, h, 0)), scale(facing, 0.3));
}

async function runApproachPerson(sim: SimWorld, personId: string, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const p = sim.people.get(personId);
  const stand = p ? approachPoint(sim, personId) : undefined;
  if (!p || !stand) return failure('invalid_argument', `no person "${personId}"`);
  const yaw = Math.atan2(-(p.position.z - stand.z), p.position.x - stand.x);
  // Said as the robot knows them: by name once recognised, else by handle and where it saw them.
  seePerson(sim, personId);
  return navigate(sim, { kind: 'pose', position: stand, yaw, label: personLabel(sim, personId) }, { ...opts, ignore: [personId] });
}

async function runHandover(sim: SimWorld, personId: string, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  const p = sim.people.get(personId);
  if (!p) return failure('invalid_argument', `no person "${personId}"`);
  if (!sim.grasp) return failure('hand_empty', 'the hand is empty: there is nothing to hand over');
  const held = sim.grasp.objectId;
  seePerson(sim, personId);
  const who = personLabel(sim, personId);
  const gap = robotHumanDistance(sim, personId, { noise: false });
  if (gap > HANDOVER_DISTANCE)
    return failure('out_of_reach', `${who} is ${round(gap, 2)} m away; handovers happen within ${HANDOVER_DISTANCE} m`);
  if (!p.handsFree) return failure('blocked', `${who} has no free hand to take ${displayName(sim, held)}`);
  if (!gazeAtRobot(sim, personId)) return failure('blocked', `${who} is not looking at the robot; ask for their attention first`);
  const hand = handPoint(sim, personId);
  const r = solve(sim, { position: hand, pitch: Math.PI / 2, ...handTurn(sim) });
  if (!r.ok) return failure('out_of_reach', describeIk(r.failure, `${who}'s hand`));
  try {
    await moveJoints(sim, r.joints, opts);
    // The person takes it: it leaves the robot's hand and stays with them.
    sim.releaseGrasp();
    const body = sim.world.getRigidBody(sim.entity(held).body);
    body.setBodyType(sim.R.RigidBodyType.KinematicPositionBased, true);
    sim.handedOver.set(held, personId);
    p.handsFree = false;
    await moveLine(
      sim,
      { position: add(hand, scale(normalize(sub(sim.body.basePose.p, hand)), 0.1)), pitch: Math.PI / 2, ...handTurn(sim) },
      'the retreat',
      opts,
    ).catch((e) => {
      if (!(e instanceof MotionFailure)) throw e;
    });
    await movePosture(sim, sim.scene.robot.arm!.postures['transport'] ? 'transport' : 'home', opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, `handing ${held} to ${who}`);
    throw e;
  }
  return success(`handed ${displayName(sim, held)} to ${who}`, {
    object: held,
    person: sim.belief.people.get(personId)?.handle ?? 'a person',
    ...claims({ kind: 'handed', object: held, person: personId }),
  });
}

/** wait, answering for everything that happened while it ran (see incidents.ts). */
export const wait = tracked(runWait, () => []);

/** ask, answering for everything that happened while it ran (see incidents.ts). */
export const ask = tracked(runAsk, () => []);

/** approachPerson, answering for everything that happened while it ran (see incidents.ts). */
export const approachPerson = tracked(runApproachPerson, () => []);

/** handover, answering for everything that happened while it ran (see incidents.ts). */
export const handover = tracked(runHandover, (sim) => [sim.heldId()]);
