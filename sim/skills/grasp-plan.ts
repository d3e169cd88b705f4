// Planning a grasp: where the fingers close on an object, from which pitch the
// arm reaches it, and what the fingers would hit on the way down. Geometry only;
// the pick skill moves the arm.
import type { RAPIER } from '../rapier';
import { type Aabb, type Pose, type Vec3, aabbCenter, add, cross, dot, normalize, round, rotate, scale, sub, v3 } from '../math';
import type { JointValues } from '../body/kinematics';
import { FINGER_THICKNESS } from '../body/links';
import { QUERY } from '../groups';
import { believedGeos, isKnown } from '../perception/believed';
import { supportOf } from '../perception/relations';
import { aabbToWorld, primitiveAabb, unionAll } from '../world/entity';
import type { SimWorld } from '../world/sim-world';
import { TOP_PITCHES, armConfig, describeIk, planApproach, shoulderWorld, solve } from './arm';
import { displayName } from './common';
import { type SkillOutcome, failure } from './outcome';

export const APPROACH = 0.1;

export interface GraspPlan {
  tcp: Vec3;
  pre: Vec3;
  /** Where the object is lifted to: above the approach point when the arm reaches that high. */
  lift: Vec3;
  pitch: number;
  closing: Vec3;
  width: number;
  open: number;
  joints: JointValues;
  preJoints: JointValues;
  /** The straight path from the approach point down to the grasp, starting at preJoints. */
  down: JointValues[];
}

/** Horizontal extent of a box along a horizontal unit direction. */
function extentAlong(size: Vec3, q: RAPIER.Rotation, d: Vec3): number {
  const ax = rotate(q, v3(1, 0, 0));
  const az = rotate(q, v3(0, 0, 1));
  const ay = rotate(q, v3(0, 1, 0));
  return Math.abs(dot(d, ax)) * size.x + Math.abs(dot(d, ay)) * size.y + Math.abs(dot(d, az)) * size.z;
}

function horizontal(v: Vec3): Vec3 {
  return normalize(v3(v.x, 0, v.z));
}

/** Where the believed support under an object tops out (table top, or a container's floor). */
function supportTopUnder(sim: SimWorld, id: string): number {
  const all = believedGeos(sim);
  const me = all.find((g) => g.id === id);
  const s = me && supportOf(me, all);
  const under = s && all.find((g) => g.id === s.id);
  if (!s || !under) return 0;
  if (s.relation === 'in') return under.interior?.min.y ?? under.box.min.y;
  return under.surfaces?.length ? Math.max(...under.surfaces.map((b) => b.max.y)) : under.box.max.y;
}

/** The pose the robot plans with: where it last perceived the object (the world's pose for what it holds). */
export function plannedPose(sim: SimWorld, id: string): Pose {
  const o = sim.belief.get(id);
  return o && !sim.isHeld(id) ? o.pose : sim.pose(id);
}

interface GraspTarget {
  /** Where the tool centre point goes to close the fingers (world). */
  tcp: Vec3;
  size: Vec3;
  pose: Pose;
  closingTop: Vec3;
  width: number;
}

/**
 * The point the fingers close on, at the pose the robot last perceived the
 * object: the one point pick reaches for, and dist_to_target measures to.
 */
export function graspTarget(sim: SimWorld, id: string): GraspTarget {
  const arm = armConfig(sim);
  const e = sim.entity(id);
  // The robot plans on the object's pose as it last perceived it, not the world's.
  const pose = plannedPose(sim, id);
  const fl = arm.fingerLength;
  const shoulder = shoulderWorld(sim);
  let region: Aabb = e.localAabb;
  const mode = e.spec.grasp?.mode ?? 'center';
  if (e.spec.grasp?.part) {
    const prims = e.prims.filter((p) => p.name === e.spec.grasp!.part);
    if (prims.length) region = unionAll(prims.map(primitiveAabb));
  }
  const size = sub(region.max, region.min);
  const centreLocal = aabbCenter(region);
  let point = add(pose.p, rotate(pose.q, centreLocal));
  const worldTop = aabbToWorld(e.localAabb, pose).max.y;
  const regionTop = add(pose.p, rotate(pose.q, v3(centreLocal.x, region.max.y, centreLocal.z))).y;
  let top = e.spec.grasp?.part ? regionTop : worldTop;
  let closingTop: Vec3;
  let width: number;
  if (mode === 'rim' && e.spec.receptacle) {
    const toRobot = horizontal(sub(shoulder, point));
    const half = Math.max(size.x, size.z) / 2;
    const wall = Math.max(0.006, half - Math.max(...[e.spec.receptacle.interior.size[0], e.spec.receptacle.interior.size[2]]) / 2);
    point = add(point, scale(toRobot, half - wall / 2));
    closingTop = toRobot;
    width = wall;
    top = worldTop;
  } else {
    const ax = horizontal(rotate(pose.q, v3(1, 0, 0)));
    const az = horizontal(rotate(pose.q, v3(0, 0, 1)));
    const wx = extentAlong(size, pose.q, ax);
    const wz = extentAlong(size, pose.q, az);
    closingTop = wz <= wx ? az : ax;
    width = Math.min(wx, wz);
  }
  const height = top - (point.y - size.y / 2);
  const floor = supportTopUnder(sim, id) + 0.25 * fl + 0.004;
  const graspY = Math.max(floor, top - Math.min(0.6 * fl, Math.max(height * 0.5, 0.005)));
  return { tcp: v3(point.x, graspY, point.z), size, pose, closingTop, width };
}

export function planGrasp(sim: SimWorld, id: string): { ok: true; plan: GraspPlan } | { ok: false; outcome: SkillOutcome } {
  const arm = armConfig(sim);
  const name = displayName(sim, id);
  const shoulder = shoulderWorld(sim);
  const { tcp, size, pose, closingTop, width } = graspTarget(sim, id);
  let firstFailure: string | undefined;
  for (const pitch of TOP_PITCHES) {
    const fwd = horizontal(sub(tcp, shoulder));
    // The hand points along its pitch in the vertical plane through the shoulder.
    const handDir = v3(Math.sin(pitch) * fwd.x, Math.cos(pitch), Math.sin(pitch) * fwd.z);
    const closing = pitch === Math.PI ? closingTop : normalize(cross(fwd, v3(0, 1, 0)));
    const w = pitch === Math.PI ? width : extentAlong(size, pose.q, closing);
    if (w > arm.gripperMaxOpening - 0.004) {
      firstFailure ??= `too_big:${name} is ${round(w * 100, 1)} cm across where the fingers would close; the gripper opens ${round(arm.gripperMaxOpening * 100, 1)} cm`;
      continue;
    }
    const pre = sub(tcp, scale(handDir, APPROACH));
    const g = solve(sim, { position: tcp, pitch, closing });
    if (!g.ok) {
      firstFailure ??= `out_of_reach:${describeIk(g.failure, name)}`;
      continue;
    }
    const p = planApproach(sim, { position: pre, pitch, closing }, { position: tcp, pitch, closing }, `the approach above ${name}`);
    if (!p.ok) {
      firstFailure ??= `out_of_reach:${p.message}`;
      continue;
    }
    const open = Math.min(arm.gripperMaxOpening, w + 0.03);
    const higher = add(pre, v3(0, 0.05, 0));
    const lift = solve(sim, { position: higher, pitch, closing }).ok ? higher : pre;
    return { ok: true, plan: { tcp, pre, lift, pitch, closing, width: w, open, joints: g.joints, preJoints: p.startJoints, down: p.line } };
  }
  const [code, text] = (firstFailure ?? 'out_of_reach:no grasp found').split(/:(.*)/s) as [string, string];
  return { ok: false, outcome: failure(code as 'out_of_reach', `cannot grasp ${name}: ${text}`) };
}

/** Objects the fingers would hit on the way down to a grasp. */
export function approachBlocker(sim: SimWorld, plan: GraspPlan, targetId: string): string | undefined {
  const arm = armConfig(sim);
  const fl = arm.fingerLength;
  const R = sim.R;
  const handDir = normalize(sub(plan.tcp, plan.pre));
  const shape = new R.Cuboid(0.012, fl / 2, plan.open / 2 + FINGER_THICKNESS);
  // Fingers: local Y along the hand, local Z along the closing direction.
  const x = normalize(cross(handDir, plan.closing));
  const rot = quatFromAxes(x, handDir, plan.closing);
  const start = add(plan.pre, scale(handDir, -0.25 * fl));
  const travel = sub(plan.tcp, plan.pre);
  const target = sim.entity(targetId);
  const mine = new Set(target.colliders);
  // What the robot can name: furniture and the objects it knows. An object it has
  // never perceived is not planned around; if it is in the way, the motion meets it.
  const others = (c: { handle: number }): boolean => {
    if (mine.has(c.handle) || sim.bodyLinks.colliders.has(c.handle)) return false;
    if (sim.grasp && sim.entity(sim.grasp.objectId).colliders.includes(c.handle)) return false;
    const owner = sim.colliderOwner.get(c.handle);
    return !owner || !sim.entities.has(owner) || isKnown(sim, owner);
  };
  const hit = sim.world.castShape(start, rot, travel, shape, 0, 1, true, undefined, QUERY.approach, undefined, undefined, others);
  // The palm behind the fingers spans the full opening: it sweeps a rim beside a
  // flat object even when the fingers clear it.
  const palm = new R.Cuboid(0.025, 0.012, arm.gripperMaxOpening / 2 + FINGER_THICKNESS);
  const palmHit =
    hit ??
    sim.world.castShape(
      add(plan.pre, scale(handDir, -fl)),
      rot,
      travel,
      palm,
      0,
      1,
      true,
      undefined,
      QUERY.approach,
      undefined,
      undefined,
      others,
    );
  if (!palmHit) return undefined;
  const owner = sim.colliderOwner.get(palmHit.collider.handle);
  return owner && sim.people.has(owner) ? 'a person' : (owner ?? 'something');
}

function quatFromAxes(x: Vec3, y: Vec3, z: Vec3): { x: number; y: number; z: number; w: number } {
  // Rotation matrix columns x, y, z -> quaternion.
  const m00 = x.x,
    m01 = y.x,
    m02 = z.x;
  const m10 = x.y,
    m11 = y.y,
    m12 = z.y;
  const m20 = x.z,
    m21 = y.z,
    m22 = z.z;
  const tr = m00 + m11 + m22;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    return { w: 0.25 * s, x: (m21 - m12) / s, y: (m02 - m20) / s, z: (m10 - m01) / s };
  }
  if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    return { w: (m21 - m12) / s, x: 0.25 * s, y: (m01 + m10) / s, z: (m02 + m20) / s };
  }
  if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    return { w: (m02 - m20) / s, x: (m01 + m10) / s, y: 0.25 * s, z: (m12 + m21) / s };
  }
  const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
  return { w: (m10 - m01) / s, x: (m02 + m20) / s, y: (m12 + m21) / s, z: 0.25 * s };
}

/** Is the target between the fingers right now? */
export function betweenFingers(sim: SimWorld, targetId: string): boolean {
  const links = sim.links()!;
  const a = links.fingerA.p;
  const b = links.fingerB.p;
  const centre = scale(add(a, b), 0.5);
  const gapHalf = Math.max(0.002, sim.body.opening / 2);
  const fl = armConfig(sim).fingerLength;
  const shape = new sim.R.Cuboid(0.01, fl / 2, gapHalf);
  const mine = new Set(sim.entity(targetId).colliders);
  let found = false;
  sim.world.intersectionsWithShape(
    centre,
    links.hand.q,
    shape,
    (c) => {
      if (mine.has(c.handle)) found = true;
      return !found;
    },
    undefined,
    QUERY.approach,
  );
  return found;
}
