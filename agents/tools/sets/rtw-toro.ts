// TORO's tools (paper 000 §II.C.1): static information about the robot and
// parameterised motions whose ranges are validated at run time.
import { z } from 'zod';
import type { Robot } from '../../../robot/robot';
import { ok, outcomeResult } from '../common';
import { outcomeInBaseFrame } from '../frames';
import { type Tool, defineTool } from '../tool';

// ---------------------------------------------------------------- TORO (basic)

/** TakeAStep's ranges (paper 000 §II.C.1): x ±0.15 m, y ±0.1 m, yaw ±45°. */
export const STEP_LIMITS = { forward: 0.15, left: 0.1, turnDeg: 45 } as const;
export const NUDGE_LIMIT = 0.1;

function describeRobot(robot: Robot): string {
  const i = robot.info;
  const lines = [`I am ${i.name} (${i.kind.replace('_', ' ')}). ${i.description}`];
  if (i.arm)
    lines.push(
      `Arm: reaches ${i.arm.reachM.toFixed(2)} m, lifts up to ${i.arm.payloadKg} kg, gripper opens ${Math.round(i.arm.gripperOpeningM * 100)} cm; postures: ${i.arm.postures.join(', ')}.`,
    );
  if (i.base) lines.push(`Base: ${i.base.footprintM[0]} × ${i.base.footprintM[1]} m footprint, up to ${i.base.maxSpeedMps} m/s.`);
  if (i.places.length) lines.push(`Places I know: ${i.places.map((p) => p.id).join(', ')}.`);
  lines.push(`Capabilities: ${i.capabilities.join(', ')}.`);
  return lines.join('\n');
}

export const describeYourself = defineTool({
  name: 'describe_yourself',
  description: 'Static information about this robot: what it is, its arm, base, sensors and the places it knows.',
  category: 'information',
  params: z.strictObject({}),
  card: {
    outputs: 'a short description of the robot',
    whenToUse: 'who are you? what are you? what can your arm lift?',
    dimension: 'cognition',
    tags: ['static', 'self'],
  },
  execute: async (_a, { robot }) => ok(describeRobot(robot), robot.info),
});

const takeAStep = defineTool({
  name: 'take_a_step',
  description: `Moves the base by a small step in its own frame. forward in [-${STEP_LIMITS.forward}, ${STEP_LIMITS.forward}] m, left in [-${STEP_LIMITS.left}, ${STEP_LIMITS.left}] m, turn in [-${STEP_LIMITS.turnDeg}, ${STEP_LIMITS.turnDeg}] degrees (positive turns left).`,
  category: 'action',
  params: z.strictObject({
    forward: z.number().min(-STEP_LIMITS.forward).max(STEP_LIMITS.forward).default(0).describe('metres, negative steps back'),
    left: z.number().min(-STEP_LIMITS.left).max(STEP_LIMITS.left).default(0).describe('metres, negative steps right'),
    turn: z.number().min(-STEP_LIMITS.turnDeg).max(STEP_LIMITS.turnDeg).default(0).describe('degrees, positive turns left'),
  }),
  card: {
    outputs: 'success, or why the step was refused',
    whenToUse: 'a small adjustment of where the robot stands',
    constraints: 'bounded step; larger moves need several steps',
    dimension: 'execution',
    requires: ['base'],
    tags: ['step', 'move', 'base'],
  },
  execute: async ({ forward, left, turn }, { robot, signal }) => outcomeResult(await robot.base!.step(forward, left, turn, signal)),
});

const nudgeArm = defineTool({
  name: 'nudge_arm',
  description: `Moves the gripper a little in the robot's frame: forward, left and up, each in [-${NUDGE_LIMIT}, ${NUDGE_LIMIT}] m.`,
  category: 'action',
  params: z.strictObject({
    forward: z.number().min(-NUDGE_LIMIT).max(NUDGE_LIMIT).default(0).describe('metres'),
    left: z.number().min(-NUDGE_LIMIT).max(NUDGE_LIMIT).default(0).describe('metres'),
    up: z.number().min(-NUDGE_LIMIT).max(NUDGE_LIMIT).default(0).describe('metres'),
  }),
  card: {
    outputs: 'success, or why the arm could not move there',
    whenToUse: 'small corrections of the gripper position',
    constraints: 'bounded move',
    dimension: 'execution',
    requires: ['arm'],
    tags: ['arm', 'nudge', 'move'],
  },
  execute: async ({ forward, left, up }, { robot, signal }) =>
    outcomeResult(outcomeInBaseFrame(await robot.arm!.nudge(forward, left, up, signal), await robot.perception.basePose())),
});

function movePosture(postures: readonly string[]): Tool {
  const names = postures.length ? (postures as [string, ...string[]]) : (['home'] as [string]);
  return defineTool({
    name: 'move_arm_to_posture',
    description: `Moves the arm to a named posture: ${names.join(', ')}.`,
    category: 'action',
    params: z.strictObject({ posture: z.enum(names) }),
    card: {
      outputs: 'success or failure',
      whenToUse: 'tuck the arm, or take a pre-planned pose',
      dimension: 'execution',
      requires: ['arm'],
      tags: ['posture', 'arm'],
    },
    execute: async ({ posture }, { robot, signal }) => outcomeResult(await robot.arm!.moveToPosture(posture, signal)),
  });
}

const wave = defineTool({
  name: 'wave',
  description: 'Waves the gripper side to side: a pre-planned greeting gesture, the same every time.',
  category: 'action',
  params: z.strictObject({ times: z.int().min(1).max(3).default(2).describe('how many waves') }),
  card: {
    outputs: 'success, or where the motion stopped',
    whenToUse: 'greeting someone, or saying goodbye',
    dimension: 'execution',
    requires: ['arm'],
    tags: ['gesture', 'greet', 'demo'],
  },
  execute: async ({ times }, { robot, signal }) => {
    const arm = robot.arm!;
    const moves: Array<[number, number, number]> = [[0, 0, 0.08]];
    for (let i = 0; i < times; i++) for (const left of [0.06, -0.12, 0.06]) moves.push([0, left, 0]);
    moves.push([0, 0, -0.08]);
    // Where the arm does a gesture as one motion, what happened is told once, as the gesture left things.
    if (arm.gesture) {
      const r = await arm.gesture(moves, signal);
      const said = r.incidents?.length ? { incidents: r.incidents } : {};
      return outcomeResult(r.ok ? { ok: true, summary: `waved ${times} time${times > 1 ? 's' : ''}`, ...said } : r);
    }
    // Otherwise move by move: whatever any of them knocked over is reported at the end.
    const incidents: string[] = [];
    for (const [forward, left, up] of moves) {
      const r = await arm.nudge(forward, left, up, signal);
      incidents.push(...(r.incidents ?? []));
      if (!r.ok) return outcomeResult({ ...r, ...(incidents.length ? { incidents } : {}) });
    }
    return outcomeResult({ ok: true, summary: `waved ${times} time${times > 1 ? 's' : ''}`, ...(incidents.length ? { incidents } : {}) });
  },
});

/** TORO's flat list for any robot: what applies to its capabilities. */
export function rtwBasicTools(robot: Robot): Tool[] {
  const tools: Tool[] = [describeYourself];
  if (robot.has('base')) tools.push(takeAStep);
  if (robot.has('arm')) tools.push(nudgeArm, movePosture(robot.info.arm?.postures ?? []), wave);
  return tools;
}
