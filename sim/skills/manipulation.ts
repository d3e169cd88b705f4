// Pick and place. Every refusal comes from the geometry or the physics of the
// moment: reach from inverse kinematics, blockage from shape casts along the
// approach, weight from the grasp giving way while lifting, containment and
// stacking from the relation rules. Reasons name the objects and the numbers.
import type { RAPIER } from '../rapier';
import {
  type Aabb,
  type Vec3,
  aabbCenter,
  poseInv,
  poseMul,
  qAxisAngle,
  qMul,
  add,
  cross,
  dot,
  normalize,
  round,
  rotate,
  scale,
  sub,
  v3,
} from '../math';
import type { Joints } from '../body/arm-kinematics';
import { Grasp } from '../body/grasp';
import { FINGER_THICKNESS } from '../body/links';
import { geoObject, geoObjects } from '../perception/geo';
import { containerOf, isInside, isOnTopOf, related, supportOf } from '../perception/relations';
import { aabbToWorld, primitiveAabb, unionAll } from '../world/entity';
import { QUERY } from '../world/groups';
import { recordPlacement } from '../perception/observe';
import { SkillInterrupt, type SimWorld, slipReason } from '../world/sim-world';
import {
  MotionFailure,
  TOP_PITCHES,
  armConfig,
  describeIk,
  followLine,
  gripperTo,
  moveJoints,
  moveLine,
  planLine,
  shoulderWorld,
  solve,
} from './arm';
import { type SkillOptions, type SkillOutcome, failure, success } from './outcome';

const APPROACH = 0.1;

/** A wrapped handle holds by form, not friction: this many times the grip's friction torque. */
const WRAP_TORQUE_FACTOR = 4;

export function displayName(sim: SimWorld, id: string): string {
  return sim.entities.get(id)?.spec.name ? `${id} (${sim.entities.get(id)!.spec.name})` : id;
}

interface GraspPlan {
  tcp: Vec3;
  pre: Vec3;
  /** Where the object is lifted to: above the approach point when the arm reaches that high. */
  lift: Vec3;
  pitch: number;
  closing: Vec3;
  width: number;
  open: number;
  joints: Joints;
  preJoints: Joints;
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

/** Where the support under an object tops out (table top, or a container's floor). */
function supportTopUnder(sim: SimWorld, id: string): number {
  const all = geoObjects(sim);
  const me = all.find((g) => g.id === id)!;
  const s = supportOf(me, all);
  if (!s) return 0;
  if (s.relation === 'in') return sim.interior(s.id)!.min.y;
  const surf = sim.surfaces(s.id);
  return surf.length ? Math.max(...surf.map((b) => b.max.y)) : sim.aabb(s.id).max.y;
}

export function planGrasp(sim: SimWorld, id: string): { ok: true; plan: GraspPlan } | { ok: false; outcome: SkillOutcome } {
  const arm = armConfig(sim);
  const e = sim.entity(id);
  const pose = sim.pose(id);
  const name = displayName(sim, id);
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
  const worldTop = sim.aabb(id).max.y;
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
  const tcp = v3(point.x, graspY, point.z);
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
    const p = solve(sim, { position: pre, pitch, closing });
    if (!p.ok) {
      firstFailure ??= `out_of_reach:${describeIk(p.failure, `the approach above ${name}`)}`;
      continue;
    }
    const open = Math.min(arm.gripperMaxOpening, w + 0.03);
    const higher = add(pre, v3(0, 0.05, 0));
    const lift = solve(sim, { position: higher, pitch, closing }).ok ? higher : pre;
    return { ok: true, plan: { tcp, pre, lift, pitch, closing, width: w, open, joints: g.joints, preJoints: p.joints } };
  }
  const [code, text] = (firstFailure ?? 'out_of_reach:no grasp found').split(/:(.*)/s) as [string, string];
  return { ok: false, outcome: failure(code as 'out_of_reach', `cannot grasp ${name}: ${text}`) };
}

/** Objects the fingers would hit on the way down to a grasp. */
function approachBlocker(sim: SimWorld, plan: GraspPlan, targetId: string): string | undefined {
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
  const others = (c: { handle: number }): boolean =>
    !mine.has(c.handle) &&
    !sim.bodyLinks.colliders.has(c.handle) &&
    !(sim.grasp && sim.entity(sim.grasp.objectId).colliders.includes(c.handle));
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
  return sim.colliderOwner.get(palmHit.collider.handle) ?? 'something';
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
function betweenFingers(sim: SimWorld, targetId: string): boolean {
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

/** Lifts the tool straight up to a height before swinging across the workspace. */
async function liftTo(sim: SimWorld, y: number, opts: SkillOptions): Promise<void> {
  const tcp = sim.tcp()!;
  if (tcp.p.y >= y - 0.01) return;
  const q = sim.body.q!;
  const pitch = q[1] + q[2] + q[3];
  try {
    await moveLine(sim, { position: v3(tcp.p.x, y, tcp.p.z), pitch, roll: q[4] }, 'the lift', opts);
  } catch (e) {
    if (!(e instanceof MotionFailure)) throw e;
    // Cannot go straight up from here: swing with the joints instead.
  }
}

function contentsOf(sim: SimWorld, id: string): string[] {
  if (!sim.entity(id).spec.receptacle) return [];
  const all = geoObjects(sim);
  const me = all.find((g) => g.id === id)!;
  return related('inside', me, all, sim.body.basePose)
    .map((g) => g.id)
    .filter((x) => x !== id);
}

function massOf(sim: SimWorld, id: string): number {
  return sim.world.getRigidBody(sim.entity(id).body).mass();
}

export function interruptOutcome(sim: SimWorld, e: SkillInterrupt, doing: string): SkillOutcome {
  sim.halt();
  const held = sim.heldId() ? `; it still holds ${sim.heldId()}` : '';
  if (e.reason === 'estop') return failure('estop', `emergency stop pressed while ${doing}: the robot stopped where it was${held}`);
  if (e.reason === 'aborted') return failure('aborted', `stopped while ${doing}${held}`);
  if (e.reason === 'battery_empty') return failure('battery_empty', `the battery ran out while ${doing}${held}`);
  return failure('timeout', `${doing} took too long and was stopped${held}`);
}

/** Fails with a readable reason if the robot cannot use its arm now. */
export function armPreconditions(sim: SimWorld): SkillOutcome | undefined {
  if (!sim.scene.robot.arm) return failure('no_arm', `${sim.scene.robot.title} has no arm`);
  if (sim.estop) return failure('estop', 'the emergency stop is pressed: the arm cannot move until it is released');
  if (sim.battery.percent <= 0) return failure('battery_empty', 'the battery is empty');
  return undefined;
}

export async function pick(sim: SimWorld, id: string, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  const e = sim.entity(id);
  const name = displayName(sim, id);
  if (sim.grasp) {
    return failure(
      'hand_full',
      sim.grasp.objectId === id ? `already holding ${name}` : `the hand is full: it holds ${sim.grasp.objectId}; place it first`,
    );
  }
  if (e.fixed || !e.spec.properties.pickable) {
    return failure(
      'not_pickable',
      e.fixed
        ? `${name} is ${e.spec.category === 'appliance' ? 'an appliance' : 'furniture'} fixed in place; it cannot be picked up`
        : `${name} cannot be picked up`,
    );
  }
  const obs = observationProblem(sim, id);
  if (obs) return obs;
  const all = geoObjects(sim);
  const me = all.find((g) => g.id === id)!;
  const container = containerOf(me, all);
  if (container) {
    const c = sim.entity(container.id);
    if (c.door && !c.states.open) {
      return failure('inside_closed_receptacle', `${name} is inside ${displayName(sim, container.id)}, which is closed; open it first`);
    }
  }
  const onTop = all.filter((g) => g.id !== id && isOnTopOf(g, me) && !sim.isHeld(g.id));
  if (onTop.length) {
    return failure(
      'blocked',
      `${name} is blocked: ${onTop.map((g) => displayName(sim, g.id)).join(' and ')} ${onTop.length > 1 ? 'are' : 'is'} on top of it`,
    );
  }
  const inside = contentsOf(sim, id);
  if (inside.length && !e.spec.receptacle?.carryLoaded) {
    return failure(
      'blocked',
      `${name} has ${inside.map((x) => displayName(sim, x)).join(' and ')} inside it; take ${inside.length > 1 ? 'them' : 'it'} out first`,
    );
  }
  const planned = planGrasp(sim, id);
  if (!planned.ok) return planned.outcome;
  const plan = planned.plan;
  const blocker = approachBlocker(sim, plan, id);
  if (blocker) return failure('blocked', `${name} is blocked: ${displayName(sim, blocker)} is in the way of the gripper`);
  try {
    const liftY = Math.max(plan.pre.y, sim.tcp()!.p.y);
    await gripperTo(sim, plan.open, opts);
    await liftTo(sim, liftY, opts);
    await moveJoints(sim, plan.preJoints, opts);
    await followLine(sim, planLine(sim, sim.tcp()!.p, { position: plan.tcp, pitch: plan.pitch, closing: plan.closing }, name), opts);
    if (!betweenFingers(sim, id)) {
      await moveLine(sim, { position: plan.pre, pitch: plan.pitch, closing: plan.closing }, name, opts);
      return failure('skill_failure', `the fingers found nothing to close on: ${name} was not where it was seen`);
    }
    if (sim.rng.chance(sim.noise.skillFailureRate)) {
      await moveLine(sim, { position: plan.pre, pitch: plan.pitch, closing: plan.closing }, name, opts);
      return failure('skill_failure', `the grasp of ${name} failed (injected skill failure)`);
    }
    await gripperTo(sim, plan.width + 0.002, opts);
    const tcp = sim.tcp()!;
    sim.attachGrasp(
      Grasp.close(
        id,
        e.body,
        tcp,
        sim.pose(id),
        { payloadKg: armConfig(sim).payloadKg, gripTorqueNm: armConfig(sim).gripTorqueNm * (e.spec.grasp?.wrap ? WRAP_TORQUE_FACTOR : 1) },
        plan.width,
      ),
    );
    await moveLine(sim, { position: plan.lift, pitch: plan.pitch, closing: plan.closing }, name, opts);
    await sim.idle(0.3, opts);
    if (!sim.grasp) {
      const slip = sim.lastSlip;
      await gripperTo(sim, plan.open, opts);
      const total = massOf(sim, id) + inside.reduce((m, x) => m + massOf(sim, x), 0);
      const payload = armConfig(sim).payloadKg;
      // Over the payload, the weight is the cause whichever way it gave way.
      const heavy = total > payload;
      const detail = `${slip ? slipReason(slip) : 'it slipped from the fingers'}${heavy ? `; with what is in it, it weighs ${round(total, 1)} kg and the arm lifts at most ${payload} kg` : ''}`;
      return failure(heavy ? 'too_heavy' : 'slipped', `could not lift ${name}: ${detail}`, {
        massKg: round(total, 3),
        payloadKg: armConfig(sim).payloadKg,
      });
    }
    return success(`picked up ${name}`, { object: id, heightLifted: round(sim.pose(id).p.y - me.box.min.y, 3) });
  } catch (err) {
    if (err instanceof SkillInterrupt) return interruptOutcome(sim, err, `picking ${name}`);
    if (err instanceof MotionFailure) {
      sim.halt();
      const held = sim.heldId() ? `; it still holds ${sim.heldId()}` : '';
      return failure('out_of_reach', `cannot pick ${name}: ${err.message}${held}`);
    }
    throw err;
  }
}

/** Partial observability: manipulation needs a fresh look at the object. */
export function observationProblem(sim: SimWorld, id: string): SkillOutcome | undefined {
  if (!sim.scene.scene.perception.partialObservability) return undefined;
  const o = sim.knowledge.get(id);
  const name = displayName(sim, id);
  if (!o) return failure('not_perceived', `${name} has not been perceived yet; perceive the table it is on first`);
  if (o.baseMoves !== sim.body.baseMoves) {
    return failure(
      'stale_observation',
      `${name} was perceived before the robot last moved; its pose is stale, so perceive ${o.support ?? 'it'} again from here`,
    );
  }
  return undefined;
}

export type PlaceTarget = { kind: 'object'; id: string; relation?: 'on' | 'in' } | { kind: 'point'; point: Vec3; label?: string };

interface PlaceRegion {
  box: Aabb;
  relation: 'on' | 'in';
  /** Rest height of the object bottom. */
  restY: number;
  /** Height to release from (object bottom). */
  releaseY: number;
  container: string | undefined;
  desired: Vec3;
  label: string;
}

function surfaceUnder(sim: SimWorld, p: Vec3): { id: string; box: Aabb } | undefined {
  let best: { id: string; box: Aabb } | undefined;
  for (const [id, e] of sim.entities) {
    if (sim.isHeld(id)) continue;
    const boxes = e.spec.surfaces.length ? sim.surfaces(id) : [];
    for (const b of boxes) {
      if (p.x >= b.min.x && p.x <= b.max.x && p.z >= b.min.z && p.z <= b.max.z && b.max.y <= p.y + 0.08) {
        if (!best || b.max.y > best.box.max.y) best = { id, box: b };
      }
    }
  }
  return best;
}

function placeRegion(sim: SimWorld, target: PlaceTarget): PlaceRegion | SkillOutcome {
  if (target.kind === 'point') {
    const s = surfaceUnder(sim, target.point);
    if (!s)
      return failure(
        'invalid_argument',
        `there is no surface to place on at (${round(target.point.x, 2)}, ${round(target.point.y, 2)}, ${round(target.point.z, 2)})`,
      );
    return {
      box: s.box,
      relation: 'on',
      restY: s.box.max.y,
      releaseY: s.box.max.y + 0.012,
      container: undefined,
      desired: target.point,
      label: target.label ?? `the point on ${s.id}`,
    };
  }
  const e = sim.entity(target.id);
  const name = displayName(sim, target.id);
  const wantIn = target.relation === 'in' || (target.relation === undefined && Boolean(e.spec.receptacle));
  if (wantIn && e.spec.receptacle) {
    if (e.door && !e.states.open) return failure('receptacle_closed', `${name} is closed; open it first`);
    const interior = sim.interior(target.id);
    if (!interior)
      return failure('blocked', `${name} is tipped over: its opening does not face up, so nothing stays in it; set it upright first`);
    const cap = e.spec.receptacle.capacity;
    const inside = contentsOf(sim, target.id);
    if (cap !== undefined && inside.length >= cap) {
      return failure('receptacle_full', `${name} is full: it holds ${inside.length} of ${cap} (${inside.join(', ')})`);
    }
    const enclosed = e.spec.receptacle.enclosed;
    return {
      box: interior,
      relation: 'in',
      restY: interior.min.y,
      // Open containers: drop from just above the rim. Cupboards: set it down inside.
      releaseY: enclosed ? interior.min.y + 0.012 : Math.max(interior.min.y + 0.012, sim.aabb(target.id).max.y + 0.012),
      container: target.id,
      desired: aabbCenter(interior),
      label: name,
    };
  }
  if (e.spec.surfaces.length) {
    const surf = sim.surfaces(target.id);
    const shoulder = shoulderWorld(sim);
    // Nearest point of the surface to the arm, a little inward.
    let best: Aabb = surf[0]!;
    let bestD = Infinity;
    for (const s of surf) {
      const c = v3(Math.min(Math.max(shoulder.x, s.min.x), s.max.x), s.max.y, Math.min(Math.max(shoulder.z, s.min.z), s.max.z));
      const d = Math.hypot(c.x - shoulder.x, c.z - shoulder.z);
      if (d < bestD) {
        bestD = d;
        best = s;
      }
    }
    const c = aabbCenter(best);
    const near = v3(
      Math.min(Math.max(shoulder.x, best.min.x), best.max.x),
      best.max.y,
      Math.min(Math.max(shoulder.z, best.min.z), best.max.z),
    );
    const inward = normalize(sub(v3(c.x, near.y, c.z), near));
    const desired = add(near, scale(inward, Math.min(0.25, Math.hypot(c.x - near.x, c.z - near.z))));
    return { box: best, relation: 'on', restY: best.max.y, releaseY: best.max.y + 0.012, container: undefined, desired, label: name };
  }
  if (wantIn) return failure('invalid_argument', `${name} is not a container; things cannot be put inside it`);
  // Small things without a surface (a plate, a book): place on top of their box.
  const box = sim.aabb(target.id);
  return {
    box,
    relation: 'on',
    restY: box.max.y,
    releaseY: box.max.y + 0.012,
    container: undefined,
    desired: aabbCenter(box),
    label: name,
  };
}

/**
 * The wrist roll that makes the held object's footprint smallest and its long side
 * run along the region's long side, with the object's box at that roll. Only for
 * a hand pointing down, where rolling the wrist turns the object about the vertical.
 */
function alignHeld(sim: SimWorld, heldId: string, region: Aabb): { roll: number; box: Aabb } | undefined {
  const q = sim.body.q!;
  if (Math.abs(q[1] + q[2] + q[3] - Math.PI) > 0.35) return undefined;
  const tcp = sim.tcp()!;
  const e = sim.entity(heldId);
  const rel = poseMul(poseInv(tcp), sim.pose(heldId));
  const [lo, hi] = sim.bodyLinks.geometry!.limits[4]!;
  const alongX = region.max.x - region.min.x >= region.max.z - region.min.z;
  let best: { roll: number; box: Aabb; score: number } | undefined;
  for (let k = -12; k <= 12; k++) {
    const d = (k * Math.PI) / 24;
    const r = q[4] + d;
    if (r < lo || r > hi) continue;
    const box = aabbToWorld(e.localAabb, poseMul({ p: tcp.p, q: qMul(tcp.q, qAxisAngle(v3(0, 1, 0), d)) }, rel));
    const sx = box.max.x - box.min.x;
    const sz = box.max.z - box.min.z;
    const misaligned = alongX ? sz > sx : sx > sz;
    const score = sx * sz * (misaligned ? 1.2 : 1) + Math.abs(d) * 1e-4;
    if (!best || score < best.score) best = { roll: r, box, score };
  }
  return best && { roll: best.roll, box: best.box };
}

/** Highest top of the movable things standing on or in a region (the carried object excluded). */
function clearanceTop(sim: SimWorld, region: Aabb, heldId: string): number {
  let top = region.max.y;
  for (const g of geoObjects(sim)) {
    if (g.fixed || g.id === heldId) continue;
    const b = g.box;
    const overXZ = b.max.x > region.min.x && b.min.x < region.max.x && b.max.z > region.min.z && b.min.z < region.max.z;
    if (overXZ && b.min.y < region.max.y + 0.3 && b.max.y > region.min.y) top = Math.max(top, b.max.y);
  }
  return top;
}

function* spiral(step: number, maxR: number): Generator<[number, number]> {
  yield [0, 0];
  for (let r = step; r <= maxR + 1e-9; r += step) {
    const n = Math.max(6, Math.round((2 * Math.PI * r) / step));
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n;
      yield [r * Math.cos(a), r * Math.sin(a)];
    }
  }
}

export async function place(sim: SimWorld, target: PlaceTarget, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  if (!sim.grasp) return failure('hand_empty', 'the hand is empty: pick something up first');
  const heldId = sim.grasp.objectId;
  const held = displayName(sim, heldId);
  if (target.kind === 'object' && target.id === heldId) return failure('invalid_argument', `cannot place ${held} on itself`);
  if (target.kind === 'object') {
    const obs = observationProblem(sim, target.id);
    if (obs && sim.scene.scene.perception.partialObservability && !sim.entity(target.id).fixed) return obs;
  }
  const region = placeRegion(sim, target);
  if ('ok' in region) return region;
  const tcp = sim.tcp()!;
  const q = sim.body.q!;
  const pitch = q[1] + q[2] + q[3];
  // Into a container, turn the wrist so a long object lies along the container.
  const turned = region.relation === 'in' ? alignHeld(sim, heldId, region.box) : undefined;
  const roll = turned?.roll ?? q[4];
  const heldBox = turned?.box ?? sim.aabb(heldId);
  const size = sub(heldBox.max, heldBox.min);
  const heldCentre = aabbCenter(heldBox);
  const tcpToBottom = tcp.p.y - heldBox.min.y;
  const tcpOffset = v3(tcp.p.x - heldCentre.x, 0, tcp.p.z - heldCentre.z);
  const margin = 0.01;
  const inner: Aabb = {
    min: v3(region.box.min.x + size.x / 2 + margin, 0, region.box.min.z + size.z / 2 + margin),
    max: v3(region.box.max.x - size.x / 2 - margin, 0, region.box.max.z - size.z / 2 - margin),
  };
  const fits = inner.min.x <= inner.max.x + 1e-6 && inner.min.z <= inner.max.z + 1e-6;
  if (!fits) {
    return failure(
      'no_free_space',
      `${held} (${round(size.x * 100, 0)}×${round(size.z * 100, 0)} cm) does not fit ${region.relation === 'in' ? 'into' : 'on'} ${region.label}`,
    );
  }
  const heldColliders = new Set(sim.entity(heldId).colliders);
  const shape = new sim.R.Cuboid(size.x / 2 + 0.004, Math.max(0.005, size.y / 2 - 0.004), size.z / 2 + 0.004);
  // Into a container the object falls from above the rim: check the whole column.
  const fallHalf = Math.max(0.005, (region.releaseY - region.restY + size.y) / 2);
  const fallShape = new sim.R.Cuboid(size.x / 2 + 0.004, fallHalf, size.z / 2 + 0.004);
  let reachable = 0;
  let lastReach: string | undefined;
  let chosen: { release: Vec3; above: Vec3; joints: Joints; pitch: number } | undefined;
  // Keep the hand as it is if possible; tilt it (and the object) when the spot is far.
  const pitches = [pitch, ...TOP_PITCHES.filter((p) => Math.abs(p - pitch) > 1e-3)];
  // Into a container, start from the inner corner nearest the arm so later
  // objects still find room; on a surface, start from the wanted spot.
  let start = region.desired;
  if (region.relation === 'in') {
    const sh = shoulderWorld(sim);
    const pickEnd = (lo: number, hi: number, s: number): number => (Math.abs(s - lo) <= Math.abs(s - hi) ? lo : hi);
    start = v3(pickEnd(inner.min.x, inner.max.x, sh.x), 0, pickEnd(inner.min.z, inner.max.z, sh.z));
  }
  // Carry the object over whatever already stands on the target, not through it.
  const clearY = clearanceTop(sim, region.box, heldId) + 0.03 + tcpToBottom;
  search: for (const [dx, dz] of spiral(0.025, 0.45)) {
    const cx = start.x + dx;
    const cz = start.z + dz;
    if (cx < inner.min.x - 1e-6 || cx > inner.max.x + 1e-6 || cz < inner.min.z - 1e-6 || cz > inner.max.z + 1e-6) continue;
    let occupied = false;
    const probeY = region.restY + 0.006 + (region.relation === 'in' ? fallHalf : size.y / 2);
    sim.world.intersectionsWithShape(
      v3(cx, probeY, cz),
      { x: 0, y: 0, z: 0, w: 1 },
      region.relation === 'in' ? fallShape : shape,
      (c) => {
        const owner = sim.colliderOwner.get(c.handle);
        if (heldColliders.has(c.handle) || sim.bodyLinks.colliders.has(c.handle)) return true;
        // The container's own walls and floor are fine; a carry bar across its
        // opening is not (the object would land on it).
        if (owner && owner === region.container && c.translation().y < region.box.max.y) return true;
        occupied = true;
        return false;
      },
      undefined,
      QUERY.placement,
    );
    if (occupied) continue;
    const release = v3(cx + tcpOffset.x, region.releaseY + tcpToBottom, cz + tcpOffset.z);
    const above = v3(release.x, Math.max(release.y + APPROACH, clearY), release.z);
    for (const p of pitches) {
      const r1 = solve(sim, { position: release, pitch: p, roll });
      if (!r1.ok) {
        lastReach ??= describeIk(r1.failure, `the nearest free spot ${region.relation === 'in' ? 'in' : 'on'} ${region.label}`);
        continue;
      }
      const r2 = solve(sim, { position: above, pitch: p, roll });
      if (!r2.ok) {
        lastReach ??= describeIk(r2.failure, `the approach above ${region.label}`);
        continue;
      }
      reachable++;
      chosen = { release, above, joints: r2.joints, pitch: p };
      break search;
    }
  }
  if (!chosen) {
    if (lastReach && reachable === 0)
      return failure('out_of_reach', `cannot place ${held} ${region.relation === 'in' ? 'into' : 'on'} ${region.label}: ${lastReach}`);
    return failure(
      region.relation === 'in' ? 'receptacle_full' : 'no_free_space',
      `no free space ${region.relation === 'in' ? 'in' : 'on'} ${region.label} for ${held}`,
    );
  }
  try {
    await liftTo(sim, Math.max(chosen.above.y, tcp.p.y), opts);
    await moveJoints(sim, chosen.joints, opts);
    await moveLine(sim, { position: chosen.release, pitch: chosen.pitch, roll }, region.label, opts);
    sim.releaseGrasp();
    await gripperTo(sim, Math.min(armConfig(sim).gripperMaxOpening, sim.body.opening + 0.03), opts);
    await moveLine(sim, { position: chosen.above, pitch: chosen.pitch, roll }, region.label, opts);
    await sim.idle(1.0, { ...opts, until: () => sim.isAtRest() });
  } catch (err) {
    if (err instanceof SkillInterrupt) return interruptOutcome(sim, err, `placing ${held}`);
    if (err instanceof MotionFailure) return failure('out_of_reach', `cannot place ${held}: ${err.message}`);
    throw err;
  }
  recordPlacement(sim, heldId);
  const all = geoObjects(sim);
  const me = all.find((g) => g.id === heldId)!;
  if (region.container) {
    const c = all.find((g) => g.id === region.container)!;
    if (!isInside(me, c)) return failure('placement_failed', `${held} was released over ${region.label} but did not end up inside it`);
    return success(`put ${held} into ${region.label}`, { object: heldId, container: region.container });
  }
  const support = supportOf(me, all);
  if (target.kind === 'object' && support?.id !== target.id) {
    return failure(
      'placement_failed',
      `${held} was released on ${region.label} but ended up ${support ? `${support.relation} ${support.id}` : 'falling off'}`,
    );
  }
  const p = sim.pose(heldId).p;
  return success(`placed ${held} on ${support?.id ?? region.label}`, {
    object: heldId,
    on: support?.id,
    position: [round(p.x), round(p.y), round(p.z)],
  });
}
