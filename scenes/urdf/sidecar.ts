// What a URDF does not say about a robot, from the JSON beside it
// (`NAME.skillbridge.json`): the end-effector link, the gripper, payload, grip
// force, camera link, battery, postures by joint values, speed limits and the
// kind of base. Every field is optional; each one left out takes the default
// stated here, and that is reported as a note. A value naming a link or joint
// the description lacks is a problem of the sidecar, never replaced.
import { z } from 'zod';
import { fieldPath } from '../validation';
import type { Joint, Problem, RobotDescription } from './model';
import { chains } from './structure';

const positive = z.number().positive();

export const SidecarSchema = z
  .object({
    $schema: z.string().optional(),
    endEffector: z.string().min(1).optional().describe('the link whose pose "move to a pose" sets (the tool centre point)'),
    gripper: z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('fingers'), joints: z.tuple([z.string().min(1), z.string().min(1)]) }).strict(),
        z.object({ kind: z.literal('mimic'), joint: z.string().min(1) }).strict(),
        z.object({ kind: z.literal('suction') }).strict(),
        z.object({ kind: z.literal('none') }).strict(),
      ])
      .optional(),
    payloadKg: positive.optional(),
    gripForceN: positive.optional().describe('force the closed gripper holds, newtons'),
    cameraLink: z.string().min(1).nullable().optional(),
    battery: z
      .object({
        capacityWh: positive,
        idleW: z.number().min(0),
        driveWhPerM: z.number().min(0),
        armW: z.number().min(0),
        chargeW: positive,
      })
      .strict()
      .nullable()
      .optional(),
    postures: z
      .record(z.string().min(1), z.record(z.string().min(1), z.number()))
      .optional()
      .describe('joint values, radians or metres'),
    speed: z
      .object({ jointRadPerS: positive.optional(), toolMPerS: positive.optional(), baseMPerS: positive.optional() })
      .strict()
      .optional(),
    base: z.enum(['fixed', 'planar', 'from-config']).optional(),
  })
  .strict();
export type Sidecar = z.infer<typeof SidecarSchema>;

export type Gripper =
  { kind: 'fingers'; joints: [string, string] } | { kind: 'mimic'; joint: string } | { kind: 'suction' } | { kind: 'none' };
export interface RobotExtras {
  endEffector: string;
  gripper: Gripper;
  payloadKg: number;
  gripForceN: number;
  cameraLink: string | null;
  battery: { capacityWh: number; idleW: number; driveWhPerM: number; armW: number; chargeW: number } | null;
  postures: Record<string, Record<string, number>>;
  speed: { jointRadPerS: number; toolMPerS: number; baseMPerS: number };
  base: 'fixed' | 'planar' | 'from-config';
}
/** A field that took its default, and what the default is. */
export interface Note {
  field: string;
  note: string;
}

export const DEFAULTS = { payloadKg: 1, gripForceN: 20, jointRadPerS: 1, toolMPerS: 0.25, baseMPerS: 0.5 } as const;

/** The sidecar's fields as problems of element `sidecar` (zod's issues, each with its field). */
export function parseSidecar(data: unknown, at: string): { sidecar: Sidecar | null; problems: Problem[] } {
  const r = SidecarSchema.safeParse(data);
  if (r.success) return { sidecar: r.data, problems: [] };
  const problems = r.error.issues.map((i): Problem => ({
    element: at,
    problem: `${fieldPath(i.path)}: ${i.code === 'unrecognized_keys' ? `unknown field(s) ${i.keys.join(', ')}` : i.message}`,
    fix: 'correct the field (the docs list the sidecar fields and their defaults)',
    severity: 'error',
  }));
  return { sidecar: null, problems };
}

const moving = (j: Joint): boolean => j.kind !== 'fixed';

/** A gripper the joints show: two prismatic joints on one link, or a joint other joints mimic. */
function detectGripper(d: RobotDescription): Gripper {
  const prismatic = d.joints.filter((j) => j.kind === 'prismatic' && !j.mimic);
  for (const a of prismatic) {
    const b = prismatic.find((j) => j !== a && j.parent === a.parent);
    if (b) return { kind: 'fingers', joints: [a.name, b.name] };
  }
  const driver = d.joints.find((j) => d.joints.some((k) => k.mimic?.joint === j.name));
  return driver ? { kind: 'mimic', joint: driver.name } : { kind: 'none' };
}

function gripperJoints(d: RobotDescription, g: Gripper): Set<string> {
  const names = g.kind === 'fingers' ? [...g.joints] : g.kind === 'mimic' ? [g.joint] : [];
  for (const j of d.joints) if (j.mimic && names.includes(j.mimic.joint)) names.push(j.name);
  return new Set(names);
}

/** The sidecar's values with the description's defaults; each default a note, each wrong name a problem. */
export function resolveExtras(d: RobotDescription, s: Sidecar, at: string): { extras: RobotExtras; notes: Note[]; problems: Problem[] } {
  const notes: Note[] = [];
  const problems: Problem[] = [];
  const bad = (field: string, problem: string, fix: string) =>
    problems.push({ element: at, problem: `${field}: ${problem}`, fix, severity: 'error' });
  const links = new Set(d.links.map((l) => l.name));
  const joints = new Map(d.joints.map((j) => [j.name, j]));

  let gripper: Gripper;
  if (s.gripper) {
    gripper = s.gripper;
    const named = gripper.kind === 'fingers' ? gripper.joints : gripper.kind === 'mimic' ? [gripper.joint] : [];
    for (const n of named) {
      const j = joints.get(n);
      if (!j) bad('gripper', `joint "${n}" does not exist`, 'name a joint of the URDF');
      else if (gripper.kind === 'fingers' && j.kind !== 'prismatic')
        bad('gripper', `finger joint "${n}" is ${j.kind}, not prismatic`, 'use kind "mimic" for a revolute gripper');
    }
  } else {
    gripper = detectGripper(d);
    notes.push({
      field: 'gripper',
      note: `not given: ${gripper.kind === 'none' ? 'no gripper found in the joints' : `${gripper.kind} ${JSON.stringify(gripper.kind === 'fingers' ? gripper.joints : gripper.kind === 'mimic' ? gripper.joint : '')} found in the joints`}`,
    });
  }
  const grip = gripperJoints(d, gripper);

  let endEffector: string;
  if (s.endEffector !== undefined) {
    endEffector = s.endEffector;
    if (!links.has(endEffector)) bad('endEffector', `link "${endEffector}" does not exist`, 'name a link of the URDF');
  } else {
    const first = [...grip].map((n) => joints.get(n)).find((j) => j !== undefined);
    const arm = chains(d)
      .map((c) => ({ c, n: c.joints.filter((n) => moving(joints.get(n)!) && !grip.has(n)).length }))
      .sort((a, b) => b.n - a.n)[0];
    endEffector = first?.parent ?? arm?.c.links.at(-1) ?? d.root;
    notes.push({
      field: 'endEffector',
      note: `not given: "${endEffector}" (${first ? 'the link the gripper is on' : 'the end of the longest moving chain'})`,
    });
  }

  const cameraLink = s.cameraLink === undefined ? null : s.cameraLink;
  if (s.cameraLink === undefined) notes.push({ field: 'cameraLink', note: 'not given: the robot has no camera of its own' });
  else if (cameraLink !== null && !links.has(cameraLink))
    bad('cameraLink', `link "${cameraLink}" does not exist`, 'name a link of the URDF, or null');

  const postures: Record<string, Record<string, number>> = s.postures ?? {};
  for (const [name, values] of Object.entries(postures))
    for (const [jn, v] of Object.entries(values)) {
      const j = joints.get(jn);
      if (!j) bad(`postures.${name}`, `joint "${jn}" does not exist`, 'name a joint of the URDF');
      else if (!moving(j) || j.mimic)
        bad(`postures.${name}`, `joint "${jn}" is ${j.mimic ? 'a mimic' : 'fixed'}: it takes no value`, 'leave it out');
      else if (j.limit && (v < j.limit.lower || v > j.limit.upper))
        bad(
          `postures.${name}`,
          `${jn} = ${v} is outside its limits [${j.limit.lower}, ${j.limit.upper}]`,
          'give a value within the joint limits',
        );
    }
  if (!s.postures || !('home' in postures)) {
    const home: Record<string, number> = {};
    for (const j of d.joints)
      if (moving(j) && !j.mimic && j.kind !== 'planar' && j.kind !== 'floating')
        home[j.name] = j.limit ? Math.min(Math.max(0, j.limit.lower), j.limit.upper) : 0;
    postures['home'] = home;
    notes.push({ field: 'postures.home', note: 'not given: every joint at 0 (or the limit nearest 0)' });
  }

  const velocities = d.joints.filter((j) => moving(j) && !grip.has(j.name) && j.kind === 'revolute').map((j) => j.limit?.velocity ?? null);
  const urdfSpeed = velocities.length && velocities.every((v) => v !== null) ? Math.min(...(velocities as number[])) : null;
  const speed = {
    jointRadPerS: s.speed?.jointRadPerS ?? urdfSpeed ?? DEFAULTS.jointRadPerS,
    toolMPerS: s.speed?.toolMPerS ?? DEFAULTS.toolMPerS,
    baseMPerS: s.speed?.baseMPerS ?? DEFAULTS.baseMPerS,
  };
  if (s.speed?.jointRadPerS === undefined)
    notes.push({
      field: 'speed.jointRadPerS',
      note: `not given: ${speed.jointRadPerS} rad/s (${urdfSpeed !== null ? 'the slowest arm joint velocity limit of the URDF' : 'the default'})`,
    });
  if (s.speed?.toolMPerS === undefined) notes.push({ field: 'speed.toolMPerS', note: `not given: ${DEFAULTS.toolMPerS} m/s` });
  if (s.speed?.baseMPerS === undefined) notes.push({ field: 'speed.baseMPerS', note: `not given: ${DEFAULTS.baseMPerS} m/s` });

  const rootJoint = d.joints.find((j) => j.parent === d.root && (j.kind === 'planar' || j.kind === 'floating'));
  const base = s.base ?? (rootJoint ? 'planar' : 'fixed');
  if (s.base === undefined)
    notes.push({
      field: 'base',
      note: `not given: ${base}${rootJoint ? ` (from ${rootJoint.kind} joint "${rootJoint.name}")` : ' (no planar or floating joint at the root)'}`,
    });
  if (s.payloadKg === undefined) notes.push({ field: 'payloadKg', note: `not given: ${DEFAULTS.payloadKg} kg` });
  if (s.gripForceN === undefined) notes.push({ field: 'gripForceN', note: `not given: ${DEFAULTS.gripForceN} N` });
  if (s.battery === undefined) notes.push({ field: 'battery', note: 'not given: no battery (it never runs down)' });
  return {
    extras: {
      endEffector,
      gripper,
      payloadKg: s.payloadKg ?? DEFAULTS.payloadKg,
      gripForceN: s.gripForceN ?? DEFAULTS.gripForceN,
      cameraLink,
      battery: s.battery ?? null,
      postures,
      speed,
      base,
    },
    notes,
    problems,
  };
}
