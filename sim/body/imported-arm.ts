// A robot from a robot description, made ready for the simulated world: the
// serial chain from its mount to the end effector behind the kinematics seam,
// each link's collision shapes in the sim frame (Y up), and the two fingers the
// gripper declaration names. Everything is read from the description and its
// sidecar; what cannot be simulated is a problem on its element, never replaced.
import type { RobotExtras } from '../../scenes/urdf/sidecar';
import type { Geometry, Joint, Origin, Problem, RobotDescription } from '../../scenes/urdf/model';
import type { MeshData } from '../../scenes/urdf/mesh';
import { type Pose, type Vec3, v3 } from '../math';
import { buildChain, describeChainProblem } from './chain';
import { fromOrigin, quatOf } from './chain-math';
import { type Kinematics, chainKinematics, urdfQuatToSim, urdfToSim } from './kinematics';

/** One collision shape of a link, in the link's sim frame; Rapier's axes (a cylinder along Y). */
export type LinkShape =
  | { kind: 'box'; pose: Pose; half: Vec3 }
  | { kind: 'cylinder'; pose: Pose; halfHeight: number; radius: number }
  | { kind: 'ball'; pose: Pose; radius: number }
  | { kind: 'hull'; pose: Pose; points: Float32Array };

/** A finger: the prismatic joint that moves it (from the gripper link) and its shapes. */
export interface Finger {
  joint: string;
  /** The finger's link (the joint's child). */
  link: string;
  /** The joint's origin in the gripper link's frame (sim axes), and its unit axis there. */
  origin: Pose;
  axis: Vec3;
  lower: number;
  upper: number;
  shapes: LinkShape[];
}

export interface ImportedArm {
  name: string;
  kinematics: Kinematics;
  /** Shapes of each link of the chain, by link name (links without shapes are left out). */
  shapes: Map<string, LinkShape[]>;
  /** Links of the chain the app draws (they have a <visual>), whether or not they collide. */
  drawn: Set<string>;
  /** The link the fingers move on (on the chain), and the two fingers. */
  gripperLink: string;
  fingers: [Finger, Finger];
  /** Links of the chain standing for the built-in arm's parts (what reports and contacts call turret, upper arm, forearm). */
  parts: { turret: string; upper: string; fore: string };
  /** Metres between the fingers, fully open: the two joints' travel. */
  maxOpening: number;
  /** Finger length along the approach (metres), from the finger's shapes. */
  fingerLength: number;
  /** The chain's base: a mobile base's arm is mounted on the planar joint's child. */
  base: string;
}

export type ImportResult = { ok: true; arm: ImportedArm } | { ok: false; problems: Problem[] };

const err = (element: string, problem: string, fix: string): Problem => ({ element, problem, fix, severity: 'error' });

/** URDF origin to a sim-frame pose (the frame change conjugates the rotation). */
export function simPose(o: Origin): Pose {
  const t = fromOrigin(o);
  return { p: urdfToSim([t[3]!, t[7]!, t[11]!]), q: urdfQuatToSim(quatOf(t)) };
}

/** A link's collision geometry as sim shapes; meshes by their loaded vertices (scaled, then into sim axes). */
export function shapesOf(
  collisions: ReadonlyArray<{ origin: Origin; geometry: Geometry }>,
  meshes: ReadonlyMap<string, { mesh: MeshData }>,
): LinkShape[] {
  const out: LinkShape[] = [];
  for (const c of collisions) {
    const pose = simPose(c.origin);
    const g = c.geometry;
    if (g.kind === 'box') out.push({ kind: 'box', pose, half: v3(g.size[0] / 2, g.size[2] / 2, g.size[1] / 2) });
    else if (g.kind === 'cylinder') out.push({ kind: 'cylinder', pose, halfHeight: g.length / 2, radius: g.radius });
    else if (g.kind === 'sphere') out.push({ kind: 'ball', pose, radius: g.radius });
    else {
      const m = meshes.get(g.file);
      // A mesh that was not read is already a warning of the loader (the shape is left out).
      if (!m) continue;
      const src = m.mesh.positions;
      const points = new Float32Array(src.length);
      for (let i = 0; i < src.length; i += 3) {
        const s = urdfToSim([src[i]! * g.scale[0], src[i + 1]! * g.scale[1], src[i + 2]! * g.scale[2]]);
        points[i] = s.x;
        points[i + 1] = s.y;
        points[i + 2] = s.z;
      }
      out.push({ kind: 'hull', pose, points });
    }
  }
  return out;
}

/** Extent of shapes along a sim-frame unit direction (0 without shapes). */
function extentAlong(shapes: readonly LinkShape[], d: Vec3): number {
  let lo = Infinity;
  let hi = -Infinity;
  const at = (p: Vec3, r: number) => {
    const s = p.x * d.x + p.y * d.y + p.z * d.z;
    lo = Math.min(lo, s - r);
    hi = Math.max(hi, s + r);
  };
  for (const s of shapes) {
    if (s.kind === 'box') at(s.pose.p, Math.abs(s.half.x * d.x) + Math.abs(s.half.y * d.y) + Math.abs(s.half.z * d.z));
    else if (s.kind === 'ball') at(s.pose.p, s.radius);
    else if (s.kind === 'cylinder') at(s.pose.p, Math.max(s.halfHeight, s.radius));
    else
      for (let i = 0; i < s.points.length; i += 3)
        at(v3(s.points[i]! + s.pose.p.x, s.points[i + 1]! + s.pose.p.y, s.points[i + 2]! + s.pose.p.z), 0);
  }
  return hi > lo ? hi - lo : 0;
}

/** The arm's chain base: the child of a planar or floating joint at the root, else the root. */
function chainBase(d: RobotDescription): string {
  const j = d.joints.find((k) => k.parent === d.root && (k.kind === 'planar' || k.kind === 'floating'));
  return j ? j.child : d.root;
}

/** The imported arm, or every reason it cannot be simulated (each on its element). */
export function importArm(d: RobotDescription, extras: RobotExtras, meshes: ReadonlyMap<string, { mesh: MeshData }>): ImportResult {
  const problems: Problem[] = [];
  const g = extras.gripper;
  const joints = new Map(d.joints.map((j) => [j.name, j]));
  let pair: [Joint, Joint] | undefined;
  if (g.kind === 'fingers') {
    const [ja, jb] = g.joints.map((n) => joints.get(n));
    if (!ja || !jb)
      return { ok: false, problems: [err('sidecar gripper', 'a finger joint is not in the description', 'name two joints of the URDF')] };
    pair = [ja, jb];
  } else if (g.kind === 'mimic') {
    const driver = joints.get(g.joint);
    const follower = d.joints.find((j) => j.mimic?.joint === g.joint && j.parent === driver?.parent);
    if (!driver || !follower)
      return {
        ok: false,
        problems: [
          err(
            'sidecar gripper',
            `no finger joint on the link of "${g.joint}" mimics it`,
            'give the second finger a <mimic joint="..."/> of the first',
          ),
        ],
      };
    pair = [driver, follower];
  } else {
    problems.push(
      err(
        'sidecar gripper',
        `a ${g.kind} gripper is not simulated yet: the simulated hand has two prismatic fingers`,
        'declare "gripper": {"kind": "fingers", "joints": [A, B]} with two prismatic finger joints',
      ),
    );
    return { ok: false, problems };
  }
  const [ja, jb] = pair;
  for (const j of pair) {
    const limited = j.mimic ? joints.get(j.mimic.joint)?.limit : j.limit;
    if (j.kind !== 'prismatic' || !limited)
      problems.push(err(`joint "${j.name}"`, 'a finger joint must be prismatic with limits', 'give it type="prismatic" and a <limit>'));
  }
  if (ja.parent !== jb.parent)
    problems.push(
      err(`joint "${jb.name}"`, `the fingers move on different links ("${ja.parent}", "${jb.parent}")`, 'mount both fingers on one link'),
    );
  const base = chainBase(d);
  const built = buildChain(d, base, extras.endEffector);
  if (!built.ok) {
    problems.push(
      err(`chain ${base} → ${extras.endEffector}`, describeChainProblem(built.problem), 'give an end effector below the arm base'),
    );
    return { ok: false, problems };
  }
  const chain = built.chain;
  const onChain = new Set(chain.links.map((l) => l.link));
  if (!onChain.has(ja.parent))
    problems.push(
      err(
        `joint "${ja.name}"`,
        `the fingers move on "${ja.parent}", which is not on the arm's chain to "${extras.endEffector}"`,
        'name an end effector below the gripper link, or at it',
      ),
    );
  const movingLinks = chain.links.filter((l) => l.after >= 0);
  if (chain.variables.length < 3)
    problems.push(
      err(
        `chain ${base} → ${extras.endEffector}`,
        `${chain.variables.length} moving joints: an arm needs at least 3`,
        "name the arm's end effector",
      ),
    );
  if (problems.length) return { ok: false, problems };

  const linkByName = new Map(d.links.map((l) => [l.name, l]));
  const shapes = new Map<string, LinkShape[]>();
  const drawn = new Set<string>();
  for (const l of chain.links) {
    // On a mobile base the base link is the robot's base body (its footprint), not a link of the arm.
    if (l.link === base && base !== d.root) continue;
    const s = shapesOf(linkByName.get(l.link)?.collisions ?? [], meshes);
    if (s.length) shapes.set(l.link, s);
    if (linkByName.get(l.link)?.visuals.length) drawn.add(l.link);
  }
  const finger = (j: Joint): Finger => {
    const o = simPose(j.origin);
    const n = Math.hypot(...j.axis);
    // A mimic finger travels as its driver's limits, through the multiplier and offset.
    const m = j.mimic ?? { multiplier: 1, offset: 0 };
    const lim = (j.mimic ? joints.get(j.mimic.joint)! : j).limit!;
    const ends = [m.multiplier * lim.lower + m.offset, m.multiplier * lim.upper + m.offset];
    return {
      joint: j.name,
      link: j.child,
      origin: o,
      axis: urdfToSim([j.axis[0] / n, j.axis[1] / n, j.axis[2] / n]),
      lower: Math.min(...ends),
      upper: Math.max(...ends),
      shapes: shapesOf(linkByName.get(j.child)?.collisions ?? [], meshes),
    };
  };
  const fingers: [Finger, Finger] = [finger(ja), finger(jb)];
  // The tool's approach is its +Z (the ROS tool frame's convention); the fingers close along their joint's axis.
  const closing = ja.axis;
  const postures: Record<string, number[]> = {};
  for (const [name, values] of Object.entries(extras.postures))
    postures[name] = chain.variables.map((v) => values[v.name] ?? Math.min(Math.max(0, v.lower), v.upper));
  const kinematics = chainKinematics(chain, { approach: [0, 0, 1], closing: closingInTip(d, ja.parent, chain.tip, closing) }, postures);
  const part = (k: number) => (movingLinks[Math.min(k, movingLinks.length - 1)] ?? chain.links[0]!).link;
  return {
    ok: true,
    arm: {
      name: d.name,
      kinematics,
      shapes,
      drawn,
      gripperLink: ja.parent,
      fingers,
      parts: { turret: part(0), upper: part(1), fore: part(2) },
      maxOpening: fingers[0].upper - fingers[0].lower + (fingers[1].upper - fingers[1].lower),
      fingerLength: extentAlong(fingers[0].shapes, urdfToSim(approachInGripper(d, ja.parent, chain.tip))) || 0.05,
      base,
    },
  };
}

/** Rotation part of the fixed joints from link `from` down to `to` (URDF frame), or identity when `to` is not below. */
function fixedRotation(d: RobotDescription, from: string, to: string): Float64Array {
  const byChild = new Map(d.joints.map((j) => [j.child, j]));
  const path: Joint[] = [];
  for (let at = to; at !== from;) {
    const j = byChild.get(at);
    if (!j) return fromOrigin({ xyz: [0, 0, 0], rpy: [0, 0, 0] });
    path.unshift(j);
    at = j.parent;
  }
  let r = fromOrigin({ xyz: [0, 0, 0], rpy: [0, 0, 0] });
  for (const j of path) {
    const o = fromOrigin(j.origin);
    const m = new Float64Array(12);
    for (let i = 0; i < 3; i++)
      for (let k = 0; k < 3; k++) m[i * 4 + k] = r[i * 4]! * o[k]! + r[i * 4 + 1]! * o[4 + k]! + r[i * 4 + 2]! * o[8 + k]!;
    r = m;
  }
  return r;
}

/** A direction given in the gripper link's frame, in the tip's frame (the tip is the gripper link or below it by fixed joints). */
function closingInTip(d: RobotDescription, gripper: string, tip: string, v: readonly [number, number, number]): [number, number, number] {
  const r = fixedRotation(d, gripper, tip);
  // v_tip = Rᵀ v_gripper
  return [0, 1, 2].map((c) => r[c]! * v[0] + r[4 + c]! * v[1] + r[8 + c]! * v[2]) as [number, number, number];
}

/** The tool's approach (tip +Z) in the gripper link's frame. */
function approachInGripper(d: RobotDescription, gripper: string, tip: string): [number, number, number] {
  const r = fixedRotation(d, gripper, tip);
  return [r[2]!, r[6]!, r[10]!];
}
