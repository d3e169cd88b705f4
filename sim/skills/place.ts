// Place: the held object goes onto a surface or into a container, at the
// nearest free spot the arm reaches; where it ends up is read back from the
// world after it settles.
import { type Aabb, type Vec3, aabbCenter, add, normalize, poseInv, poseMul, qAxisAngle, qMul, round, scale, sub, v3 } from '../math';
import type { JointValues } from '../body/kinematics';
import { QUERY } from '../groups';
import { believedGeo, believedGeos, isKnown, isStale, knownObjectIds } from '../perception/believed';
import { look, record } from '../perception/observe';
import { slipReason } from '../body/grasp';
import { aabbToWorld } from '../world/entity';
import { locationOf } from '../world/location';
import type { SimWorld } from '../world/sim-world';
import { SkillInterrupt } from '../world/types';
import {
  MotionFailure,
  TOP_PITCHES,
  armConfig,
  describeIk,
  followLine,
  gripperTo,
  moveJoints,
  moveLine,
  planApproach,
  handHold,
  kinematicsOf,
  shoulderWorld,
  solve,
} from './arm';
import { armPreconditions, displayName, interruptOutcome, observationProblem } from './common';
import { APPROACH } from './grasp-plan';
import { type SkillOptions, type SkillOutcome, claims, failure, success } from './outcome';
import { contentsOf, liftTo } from './pick';
import { POSE_TOLERANCE, offTarget, standing } from './placed';
import { noteWhereItIs, settle, stillMoving, told, tracked } from './incidents';
import { handMeets } from './hand-clear';

export type PlaceTarget = { kind: 'object'; id: string; relation?: 'on' | 'in' } | { kind: 'point'; point: Vec3; label?: string };

interface PlaceRegion {
  box: Aabb;
  relation: 'on' | 'in';
  /** Rest height of the object bottom. */
  restY: number;
  /** Height to release from (object bottom). */
  releaseY: number;
  container: string | undefined;
  /** What the object should end up resting on or in. */
  support: string;
  desired: Vec3;
  label: string;
}

function surfaceUnder(sim: SimWorld, p: Vec3): { id: string; box: Aabb } | undefined {
  let best: { id: string; box: Aabb } | undefined;
  for (const id of knownObjectIds(sim)) {
    if (sim.isHeld(id) || isStale(sim, id)) continue;
    const boxes = believedGeo(sim, id).surfaces ?? [];
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
      support: s.id,
      desired: target.point,
      label: target.label ?? `the point on ${s.id}`,
    };
  }
  const e = sim.entity(target.id);
  // The target as the robot believes it is (furniture as it stands).
  const g = believedGeo(sim, target.id);
  const name = displayName(sim, target.id);
  const wantIn = target.relation === 'in' || (target.relation === undefined && Boolean(e.spec.receptacle));
  if (wantIn && e.spec.receptacle) {
    if (e.door && !e.states.open) return failure('receptacle_closed', `${name} is closed; open it first`);
    const interior = g.interior;
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
      releaseY: enclosed ? interior.min.y + 0.012 : Math.max(interior.min.y + 0.012, g.box.max.y + 0.012),
      container: target.id,
      support: target.id,
      desired: aabbCenter(interior),
      label: name,
    };
  }
  if (e.spec.surfaces.length) {
    const surf = g.surfaces!;
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
    return {
      box: best,
      relation: 'on',
      restY: best.max.y,
      releaseY: best.max.y + 0.012,
      container: undefined,
      support: target.id,
      desired,
      label: name,
    };
  }
  if (wantIn) return failure('invalid_argument', `${name} is not a container; things cannot be put inside it`);
  // Small things without a surface (a plate, a book): place on top of their box.
  const box = g.box;
  return {
    box,
    relation: 'on',
    restY: box.max.y,
    releaseY: box.max.y + 0.012,
    container: undefined,
    support: target.id,
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
  // Only the built-in arm's last joint is a roll about the approach; a chain keeps its hand as it is.
  if (kinematicsOf(sim).kind !== 'five_dof') return undefined;
  if (Math.abs(q[1]! + q[2]! + q[3]! - Math.PI) > 0.35) return undefined;
  const tcp = sim.tcp()!;
  const e = sim.entity(heldId);
  const rel = poseMul(poseInv(tcp), sim.pose(heldId));
  const [lo, hi] = kinematicsOf(sim).limits[4]!;
  const alongX = region.max.x - region.min.x >= region.max.z - region.min.z;
  let best: { roll: number; box: Aabb; score: number } | undefined;
  for (let k = -12; k <= 12; k++) {
    const d = (k * Math.PI) / 24;
    const r = q[4]! + d;
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
  for (const g of believedGeos(sim)) {
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

async function runPlace(sim: SimWorld, target: PlaceTarget, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  if (!sim.grasp) return failure('hand_empty', 'the hand is empty: pick something up first');
  const heldId = sim.grasp.objectId;
  const held = displayName(sim, heldId);
  if (target.kind === 'object' && target.id === heldId) return failure('invalid_argument', `cannot place ${held} on itself`);
  look(sim);
  if (target.kind === 'object') {
    const obs = observationProblem(sim, target.id);
    if (obs) return obs;
  }
  const region = placeRegion(sim, target);
  if ('ok' in region) return region;
  const tcp = sim.tcp()!;
  const hold = handHold(sim);
  const pitch = hold.pitch;
  // Into a container, turn the wrist so a long object lies along the container.
  const turned = region.relation === 'in' ? alignHeld(sim, heldId, region.box) : undefined;
  // The built-in arm keeps (or turns to) its roll; a chain keeps the direction its fingers close along.
  const roll = turned ? { roll: turned.roll } : hold.closing ? { closing: hold.closing } : { roll: hold.roll! };
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
  let chosen: { release: Vec3; above: Vec3; joints: JointValues; down: JointValues[]; pitch: number } | undefined;
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
        // The spot is checked as a depth camera would, but only the objects the
        // robot knows are named and planned around: an unperceived one is met by the motion.
        if (owner && sim.entities.has(owner) && !isKnown(sim, owner)) return true;
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
    // The fingers around the object need room too (they would tip a box beside the spot onto the hand).
    if (handMeets(sim, release, region.support, heldId)) continue;
    const above = v3(release.x, Math.max(release.y + APPROACH, clearY), release.z);
    for (const p of pitches) {
      const r1 = solve(sim, { position: release, pitch: p, ...roll });
      if (!r1.ok) {
        lastReach ??= describeIk(r1.failure, `the nearest free spot ${region.relation === 'in' ? 'in' : 'on'} ${region.label}`);
        continue;
      }
      const r2 = planApproach(
        sim,
        { position: above, pitch: p, ...roll },
        { position: release, pitch: p, ...roll },
        `the approach above ${region.label}`,
      );
      if (!r2.ok) {
        lastReach ??= r2.message;
        continue;
      }
      reachable++;
      chosen = { release, above, joints: r2.startJoints, down: r2.line, pitch: p };
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
  // A slip on the way is the end of the placement: the motion stops at once and
  // the outcome says where the object went, not where it was meant to go.
  const lost = new AbortController();
  const stopOnSlip = sim.events.onEvent((e) => {
    if ((e.type === 'object_dropped' || e.type === 'physics_fault') && e.object === heldId) lost.abort();
  });
  const moving = { signal: opts.signal ? AbortSignal.any([opts.signal, lost.signal]) : lost.signal };
  try {
    await liftTo(sim, Math.max(chosen.above.y, tcp.p.y), moving);
    await moveJoints(sim, chosen.joints, moving);
    await followLine(sim, chosen.down, moving);
    stopOnSlip();
    sim.releaseGrasp();
    await gripperTo(sim, Math.min(armConfig(sim).gripperMaxOpening, sim.body.opening + 0.03), opts);
    await moveLine(sim, { position: chosen.above, pitch: chosen.pitch, ...roll }, region.label, opts);
  } catch (err) {
    if (err instanceof SkillInterrupt && lost.signal.aborted && !opts.signal?.aborted) {
      sim.halt();
      const slip = sim.lastSlip;
      const why = slip?.object === heldId ? `: ${slipReason(slip)}` : '';
      await settle(sim);
      return told(sim, (s) =>
        failure(
          'slipped',
          `${held} slipped out of the fingers on the way to ${region.label}${why}; it is ${noteWhereItIs(s, heldId, { fromHand: true })}`,
        ),
      );
    }
    if (err instanceof SkillInterrupt) return interruptOutcome(sim, err, `placing ${held}`);
    if (err instanceof MotionFailure) return failure('out_of_reach', `cannot place ${held}: ${err.message}`);
    throw err;
  } finally {
    stopOnSlip();
  }
  await settle(sim);
  return told(sim, (s) => placed(s, heldId, region, target));
}

/**
 * Where the placed object ended, told from the world as it is when called (the
 * tracked wrapper calls it again once everything has settled): the support it
 * rests on, the position the robot records, how it lies, how far from a point asked.
 */
function placed(sim: SimWorld, heldId: string, region: PlaceRegion, target: PlaceTarget): SkillOutcome {
  const held = displayName(sim, heldId);
  const now = locationOf(sim, heldId);
  const arrived = (now.kind === 'in' || now.kind === 'on') && now.id === region.support && now.kind === region.relation;
  if (!arrived) {
    const where = noteWhereItIs(sim, heldId, { fromHand: true });
    return failure(
      'placement_failed',
      `${held} was released ${region.relation === 'in' ? 'over' : 'on'} ${region.label} but did not stay there; it is ${where}`,
      { object: heldId, where },
    );
  }
  // The robot watched its own hand set it down: what it says is what it records now.
  const p = record(sim, heldId, 'placed').pose.p;
  const position: [number, number, number] = [round(p.x), round(p.y), round(p.z)];
  const stands = standing(sim, heldId);
  // A container on its side or upside down does not hold things: that is no success.
  if (stands && stands.way !== 'upright' && sim.entity(heldId).spec.receptacle) {
    return failure(
      'placement_failed',
      `${held} was set down ${region.relation} ${region.support} but lies ${stands.way} (tilted ${stands.tiltDeg}° from upright) at (${position.join(', ')}), so it does not hold things`,
      { object: heldId, position, orientation: stands.way, tiltDeg: stands.tiltDeg },
    );
  }
  // Still rolling once the skill stops watching: where it will rest is not known, so no position is said.
  const rolling = stillMoving(sim, heldId);
  const off = target.kind === 'point' && !rolling ? offTarget(sim, heldId, target.point) : undefined;
  const where = off ? ` at (${position.join(', ')}), ${off} cm from the requested point (the tolerance is ${POSE_TOLERANCE * 100} cm)` : '';
  const lies =
    (stands && stands.way !== 'upright' ? `; it lies ${stands.way} (tilted ${stands.tiltDeg}° from upright)` : '') +
    (rolling ? '; it is still rolling' : '');
  const orientation = stands ? { orientation: stands.way } : {};
  return region.relation === 'in'
    ? success(`put ${held} into ${region.label}${where}${lies}`, {
        object: heldId,
        container: region.support,
        ...claims({ kind: 'rests', object: heldId, relation: 'in', support: region.support }),
        position,
        ...orientation,
      })
    : success(`placed ${held} on ${region.support}${where}${lies}`, {
        object: heldId,
        on: region.support,
        ...claims({ kind: 'rests', object: heldId, relation: 'on', support: region.support }),
        position,
        ...orientation,
      });
}

/** place, answering for everything that happened while it ran (see incidents.ts). */
export const place = tracked(runPlace, (sim) => [sim.heldId()]);
