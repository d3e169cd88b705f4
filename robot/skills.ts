// Every skill of the Robot seam as data: a name ("arm.pick") and its arguments,
// with a zod schema each. One vocabulary for everything that carries an action
// to a robot: the safety chain checks a SkillCall, the shadow simulator replays
// it, the HTTP robot API names its endpoints by it. `callSkill` runs one on a
// robot; `interceptSkills` gives a robot whose every skill passes through a
// function first (the safety chain's guard), queries untouched.
import { z } from 'zod';
import type { Arm, Base, Outcome, Perception, PlaceSpec, Robot, RobotInfo, Rover, Speech } from './robot';

/** A schema built when first used: a one-shot call reads none of these (the robot API and the shadow simulator do). */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const Vec3 = once(() => z.tuple([z.number(), z.number(), z.number()]));
const Name = once(() => z.string().min(1).max(200));

const PlaceSpecSchema = once(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('object'), id: Name(), relation: z.enum(['on', 'in']).optional() }),
    z.strictObject({
      kind: z.literal('point'),
      position: Vec3().describe('metres, world frame (y up)'),
      label: z.string().max(200).optional(),
    }),
  ]),
);
const Pose6Schema = once(() =>
  z.strictObject({
    position: Vec3().describe('metres, world frame (y up)'),
    tiltDeg: z.number().describe('hand pitch from straight down, degrees'),
  }),
);

const SKILL_SCHEMAS = {
  'arm.pick': () => z.strictObject({ object: Name() }),
  'arm.place': () => z.strictObject({ target: PlaceSpecSchema() }),
  'arm.moveToPosture': () => z.strictObject({ posture: Name() }),
  'arm.moveTool': () => z.strictObject({ pose: Pose6Schema() }),
  'arm.nudge': () => z.strictObject({ forward: z.number(), left: z.number(), up: z.number() }),
  'arm.setOpen': () => z.strictObject({ object: Name(), open: z.boolean() }),
  'arm.setSwitch': () => z.strictObject({ object: Name(), on: z.boolean() }),
  'arm.slice': () => z.strictObject({ object: Name() }),
  'arm.handover': () => z.strictObject({ person: Name() }),
  'arm.perceive': () => z.strictObject({}),
  'base.navigate': () => z.strictObject({ place: Name() }),
  'base.step': () => z.strictObject({ forward: z.number(), left: z.number(), turnDeg: z.number() }),
  'base.approach': () => z.strictObject({ target: Name() }),
  'rover.dock': () => z.strictObject({}),
  'rover.undock': () => z.strictObject({}),
  'rover.charge': () => z.strictObject({ targetPercent: z.number() }),
  'rover.scan': () => z.strictObject({ poi: Name().optional() }),
  'speech.say': () => z.strictObject({ text: z.string().max(10_000) }),
  'speech.ask': () => z.strictObject({ question: z.string().max(10_000), timeoutSeconds: z.number().optional() }),
  'speech.listen': () => z.strictObject({ timeoutSeconds: z.number().optional() }),
  'robot.wait': () => z.strictObject({ seconds: z.number() }),
};

/** The arguments of each skill, by name. Names are `group.method` of the Robot seam; each schema is built when first read. */
export const SKILL_ARGS = lazily(SKILL_SCHEMAS);

function lazily<T extends Record<string, () => z.ZodType>>(makers: T): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const out = {} as { [K in keyof T]: ReturnType<T[K]> };
  for (const key of Object.keys(makers) as Array<keyof T>) {
    const make = once(makers[key]!);
    Object.defineProperty(out, key, { enumerable: true, get: make });
  }
  return out;
}

export type SkillName = keyof typeof SKILL_ARGS;
export const SKILL_NAMES = Object.keys(SKILL_ARGS) as SkillName[];
export type SkillArgs<N extends SkillName> = z.infer<(typeof SKILL_ARGS)[N]>;
export type SkillCall = { [N in SkillName]: { skill: N; args: SkillArgs<N> } }[SkillName];

/** Skills that move the robot (refused under an e-stop, counted by the rate limit). */
export function isMotion(skill: SkillName): boolean {
  return skill.startsWith('arm.') || skill.startsWith('base.') || skill.startsWith('rover.');
}

/** The capability group a skill needs, or undefined for the robot itself (wait). */
export function groupOf(skill: SkillName): 'arm' | 'base' | 'rover' | 'speech' | undefined {
  const g = skill.split('.')[0];
  return g === 'robot' ? undefined : (g as 'arm' | 'base' | 'rover' | 'speech');
}

/** One line naming the call, for traces and prompts: arm.pick(lemon_1). */
export function describeCall(call: SkillCall): string {
  const a = call.args as Record<string, unknown>;
  const parts = Object.entries(a).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${call.skill}(${parts.join(', ')})`;
}

function unsupported(call: SkillCall, robot: Robot): Outcome {
  return {
    ok: false,
    code: 'unsupported',
    summary: `${robot.info.name} has no ${groupOf(call.skill) ?? 'such'} capability for ${call.skill}`,
  };
}

/** Runs one skill on a robot; a group the robot lacks is an 'unsupported' outcome, not a throw. */
export function callSkill(robot: Robot, call: SkillCall, signal?: AbortSignal): Promise<Outcome> {
  const { arm, base, rover, speech } = robot;
  switch (call.skill) {
    case 'arm.pick':
      return arm ? arm.pick(call.args.object, signal) : Promise.resolve(unsupported(call, robot));
    case 'arm.place':
      return arm ? arm.place(call.args.target as PlaceSpec, signal) : Promise.resolve(unsupported(call, robot));
    case 'arm.moveToPosture':
      return arm ? arm.moveToPosture(call.args.posture, signal) : Promise.resolve(unsupported(call, robot));
    case 'arm.moveTool':
      return arm ? arm.moveTool(call.args.pose, signal) : Promise.resolve(unsupported(call, robot));
    case 'arm.nudge':
      return arm ? arm.nudge(call.args.forward, call.args.left, call.args.up, signal) : Promise.resolve(unsupported(call, robot));
    case 'arm.setOpen':
      return arm ? arm.setOpen(call.args.object, call.args.open, signal) : Promise.resolve(unsupported(call, robot));
    case 'arm.setSwitch':
      return arm ? arm.setSwitch(call.args.object, call.args.on, signal) : Promise.resolve(unsupported(call, robot));
    case 'arm.slice':
      return arm ? arm.slice(call.args.object, signal) : Promise.resolve(unsupported(call, robot));
    case 'arm.handover':
      return arm ? arm.handover(call.args.person, signal) : Promise.resolve(unsupported(call, robot));
    case 'arm.perceive':
      return arm ? arm.perceive(signal) : Promise.resolve(unsupported(call, robot));
    case 'base.navigate':
      return base ? base.navigate(call.args.place, signal) : Promise.resolve(unsupported(call, robot));
    case 'base.step':
      return base ? base.step(call.args.forward, call.args.left, call.args.turnDeg, signal) : Promise.resolve(unsupported(call, robot));
    case 'base.approach':
      return base ? base.approach(call.args.target, signal) : Promise.resolve(unsupported(call, robot));
    case 'rover.dock':
      return rover ? rover.dock(signal) : Promise.resolve(unsupported(call, robot));
    case 'rover.undock':
      return rover ? rover.undock(signal) : Promise.resolve(unsupported(call, robot));
    case 'rover.charge':
      return rover ? rover.charge(call.args.targetPercent, signal) : Promise.resolve(unsupported(call, robot));
    case 'rover.scan':
      return rover ? rover.scan(call.args.poi, signal) : Promise.resolve(unsupported(call, robot));
    case 'speech.say':
      return speech ? speech.say(call.args.text) : Promise.resolve(unsupported(call, robot));
    case 'speech.ask':
      return speech ? speech.ask(call.args.question, call.args.timeoutSeconds, signal) : Promise.resolve(unsupported(call, robot));
    case 'speech.listen':
      return speech ? speech.listen(call.args.timeoutSeconds, signal) : Promise.resolve(unsupported(call, robot));
    case 'robot.wait':
      return robot.wait(call.args.seconds, signal);
  }
}

/** What runs instead of a skill: it may change the call, refuse it, or run it with `next`. */
export type SkillInterceptor = (
  call: SkillCall,
  signal: AbortSignal | undefined,
  next: (call: SkillCall) => Promise<Outcome>,
) => Promise<Outcome>;

/**
 * A robot whose skills all pass through `around` before reaching `inner`;
 * queries, info, events and capabilities are the inner robot's own.
 */
export function interceptSkills(inner: Robot, around: SkillInterceptor): Robot {
  const run = (call: SkillCall, signal?: AbortSignal): Promise<Outcome> => around(call, signal, (c) => callSkill(inner, c, signal));
  const arm: Arm | undefined = inner.arm && {
    pick: (object, s) => run({ skill: 'arm.pick', args: { object } }, s),
    place: (target, s) => run({ skill: 'arm.place', args: { target } }, s),
    moveToPosture: (posture, s) => run({ skill: 'arm.moveToPosture', args: { posture } }, s),
    moveTool: (pose, s) => run({ skill: 'arm.moveTool', args: { pose } }, s),
    nudge: (forward, left, up, s) => run({ skill: 'arm.nudge', args: { forward, left, up } }, s),
    graspPose: (object) => inner.arm!.graspPose(object),
    setOpen: (object, open, s) => run({ skill: 'arm.setOpen', args: { object, open } }, s),
    setSwitch: (object, on, s) => run({ skill: 'arm.setSwitch', args: { object, on } }, s),
    slice: (object, s) => run({ skill: 'arm.slice', args: { object } }, s),
    handover: (person, s) => run({ skill: 'arm.handover', args: { person } }, s),
    perceive: (s) => run({ skill: 'arm.perceive', args: {} }, s),
  };
  const base: Base | undefined = inner.base && {
    navigate: (place, s) => run({ skill: 'base.navigate', args: { place } }, s),
    step: (forward, left, turnDeg, s) => run({ skill: 'base.step', args: { forward, left, turnDeg } }, s),
    approach: (target, s) => run({ skill: 'base.approach', args: { target } }, s),
  };
  const rover: Rover | undefined = inner.rover && {
    dock: (s) => run({ skill: 'rover.dock', args: {} }, s),
    undock: (s) => run({ skill: 'rover.undock', args: {} }, s),
    charge: (targetPercent, s) => run({ skill: 'rover.charge', args: { targetPercent } }, s),
    scan: (poi, s) => run({ skill: 'rover.scan', args: poi === undefined ? {} : { poi } }, s),
  };
  const speech: Speech | undefined = inner.speech && {
    say: (text) => run({ skill: 'speech.say', args: { text } }),
    ask: (question, timeoutSeconds, s) =>
      run({ skill: 'speech.ask', args: { question, ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}) } }, s),
    listen: (timeoutSeconds, s) => run({ skill: 'speech.listen', args: timeoutSeconds !== undefined ? { timeoutSeconds } : {} }, s),
  };
  return {
    info: inner.info,
    perception: inner.perception,
    ...(arm ? { arm } : {}),
    ...(base ? { base } : {}),
    ...(rover ? { rover } : {}),
    ...(speech ? { speech } : {}),
    ...(inner.people ? { people: inner.people } : {}),
    events: inner.events,
    ...(inner.worldModel ? { worldModel: inner.worldModel } : {}),
    ...(inner.camera ? { camera: inner.camera } : {}),
    battery: () => inner.battery(),
    safety: () => inner.safety(),
    wait: (seconds, s) => run({ skill: 'robot.wait', args: { seconds } }, s),
    time: () => inner.time(),
    has: (c) => inner.has(c),
  };
}

/** What a shadow simulator predicts a skill will do (shadow mode). */
export interface SkillPrediction {
  outcome: Outcome;
  /** Why the prediction would hold the action for a person: a predicted failure or collision; empty when it looks safe. */
  concerns: string[];
  /** Differences found while synchronising the simulator from the robot before predicting. */
  drift?: Divergence[];
}

/** A difference between what the shadow predicted and what the robot reported. */
export interface Divergence {
  /** outcome: success or failure code differ; object: an object is elsewhere; holding: the gripper holds something else; joint: an arm joint is elsewhere, or its reading unknown. */
  kind: 'outcome' | 'object' | 'holding' | 'joint';
  subject: string;
  predicted: string;
  actual: string;
}

/**
 * Plays a skill in a simulator before the robot runs it, then compares. The
 * shadow (robot/shadow) implements it; the safety chain calls it for each action.
 */
export interface SkillPredictor {
  predict(call: SkillCall, signal?: AbortSignal): Promise<SkillPrediction>;
  /** After the robot ran `call`: the divergences between prediction and report; resynchronises the simulator. */
  observe(call: SkillCall, prediction: SkillPrediction, actual: Outcome): Promise<Divergence[]>;
  /** The predicted call did not run: put the simulator back. */
  discard(): Promise<void>;
}

/**
 * A stand-in robot with every group present, so `interceptSkills` makes every
 * skill method; a remote robot (http, rosbridge) routes them all to one handler.
 */
export function skillSkeleton(info: RobotInfo): Robot {
  const none = () => Promise.reject(new Error('not used'));
  const group = new Proxy({}, { get: () => none });
  return {
    info,
    perception: group as Perception,
    arm: group as Arm,
    base: group as Base,
    rover: group as Rover,
    speech: group as Speech,
    events: { since: none, lastId: none, subscribe: () => () => undefined },
    battery: none,
    safety: none,
    wait: none,
    time: none,
    has: () => true,
  };
}
