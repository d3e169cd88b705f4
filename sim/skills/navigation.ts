// Driving the base between named poses. The base is a kinematic footprint that
// sweeps its path before it moves: furniture, objects and people in the way are
// reported by name. Driving with the arm (or a held object) outside the
// footprint is refused, as on Mobipick (paper 003 §4); robots configured to
// tuck their arm do so first.
import type { Location } from '../../scenes/schema';
import { type Pose, type Vec3, add, dist, fromTuple, poseApply, poseInv, qYaw, rad, round, v3, yawOf } from '../math';
import { BaseMotion, type BasePathPoint } from '../body/motion';
import { isKnown } from '../perception/believed';
import { visibleEntityIds, visiblePersonIds } from '../perception/visibility';
import { look, record } from '../perception/observe';
import { seePerson } from '../perception/person-names';
import { planRoute, sweepObstacle } from '../perception/route';
import { SkillInterrupt, type SimWorld } from '../world/sim-world';
import { movePosture } from './arm';
import { interruptOutcome } from './common';
import { type SkillOptions, type SkillOutcome, claims, failure, success } from './outcome';
import { tracked } from './incidents';

export { planRoute, sweepObstacle };

export type NavTarget = { kind: 'location'; id: string } | { kind: 'pose'; position: Vec3; yaw: number; label: string };

const FOOTPRINT_MARGIN = 0.05;

/** Points of the arm (and a held object's box) that stick out of the base footprint, in metres. */
export function armOutsideFootprint(sim: SimWorld): number {
  if (!sim.body.q) return 0;
  const links = sim.links()!;
  const inv = poseInv(sim.body.basePose);
  const [sx, , sz] = sim.scene.robot.base.size;
  const pts: Vec3[] = [links.fore.p, links.hand.p, links.tcp.p, links.fingerA.p, links.fingerB.p];
  if (sim.grasp) {
    const b = sim.aabb(sim.grasp.objectId);
    for (const x of [b.min.x, b.max.x]) for (const z of [b.min.z, b.max.z]) pts.push(v3(x, b.min.y, z));
  }
  let worst = 0;
  for (const p of pts) {
    const l = poseApply(inv, p);
    worst = Math.max(worst, Math.abs(l.x) - sx / 2 - FOOTPRINT_MARGIN, Math.abs(l.z) - sz / 2 - FOOTPRINT_MARGIN);
  }
  return Math.max(0, worst);
}

/**
 * How the robot may name an obstacle: what it knows (furniture, what it
 * perceived, a person in view) or sees now (then it is perceived), else only
 * that something it had not perceived is in the way.
 */
function nameable(sim: SimWorld, by: string): string {
  if (sim.people.has(by)) return visiblePersonIds(sim).includes(by) ? seePerson(sim, by).handle : 'a person';
  if (!sim.entities.has(by) || isKnown(sim, by)) return by;
  look(sim);
  if (isKnown(sim, by)) return by;
  if (visibleEntityIds(sim).includes(by)) {
    record(sim, by, 'seen');
    return by;
  }
  return 'an object the robot had not perceived';
}

export function targetPose(sim: SimWorld, t: NavTarget): { pose: Pose; label: string; location?: Location } | undefined {
  if (t.kind === 'pose') return { pose: { p: t.position, q: qYaw(t.yaw) }, label: t.label };
  const l = sim.locations.get(t.id);
  if (!l) return undefined;
  return { pose: { p: fromTuple(l.pose.position), q: qYaw(rad(l.pose.yaw)) }, label: l.id, location: l };
}

export function basePreconditions(sim: SimWorld): SkillOutcome | undefined {
  if (sim.scene.robot.kind === 'fixed_arm') return failure('unsupported', `${sim.scene.robot.title} is fixed in place; it cannot drive`);
  if (sim.estop) return failure('estop', 'the emergency stop is pressed: the base cannot move until it is released');
  if (sim.battery.percent <= 0) return failure('battery_empty', 'the battery is empty; the robot cannot drive');
  return undefined;
}

async function runNavigate(sim: SimWorld, target: NavTarget, opts: SkillOptions & { ignore?: string[] } = {}): Promise<SkillOutcome> {
  const pre = basePreconditions(sim);
  if (pre) return pre;
  if (sim.body.docked)
    return failure('docked', 'the robot is docked in its shelter; undock first (driving inside the shelter is not allowed)');
  const goal = targetPose(sim, target);
  if (!goal) return failure('invalid_argument', `no place called "${target.kind === 'location' ? target.id : target.label}"`);
  const out = armOutsideFootprint(sim);
  if (out > 0) {
    const arm = sim.scene.robot.arm!;
    const tuck = 'transport' in arm.postures ? 'transport' : 'home';
    if (!sim.scene.robot.base.autoTuck || sim.body.posture === tuck) {
      const what = sim.grasp && sim.body.posture === tuck ? `${sim.grasp.objectId} in the hand sticks` : 'the arm is';
      // Tucked and still outside: what the hand holds is the cause, or (empty hand) the posture itself.
      const fix =
        sim.body.posture !== tuck
          ? `move it to ${tuck} before driving`
          : sim.grasp
            ? 'place what the hand holds first: it is too big to carry'
            : `even its ${tuck} posture does not fit over the base, so the robot cannot drive`;
      return failure(
        'arm_outside_footprint',
        `${what} ${Math.max(1, round(out * 100, 0))} cm outside the base footprint (posture: ${sim.body.posture ?? 'custom'}); ${fix}`,
      );
    }
    try {
      await movePosture(sim, tuck, opts);
    } catch (e) {
      if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'tucking the arm');
      throw e;
    }
  }
  const ignore = new Set(opts.ignore ?? []);
  const route = planRoute(sim, goal.pose.p, ignore);
  if ('blockedBy' in route) {
    const named = nameable(sim, route.blockedBy);
    return failure('path_blocked', `the way to ${goal.label} is blocked by ${named}`, { obstacle: named });
  }
  const start = sim.body.basePose.p;
  const path: BasePathPoint[] = route.path.map((p, i) =>
    i === route.path.length - 1 ? { position: p, yaw: yawOf(goal.pose.q) } : { position: p },
  );
  const cfg = sim.scene.robot.base;
  const m = new BaseMotion(sim.body.basePose, path, cfg.maxSpeed, rad(cfg.maxYawRate));
  const pct0 = sim.battery.percent;
  try {
    sim.setBaseMotion(m);
    await sim.runUntil(() => m.done, { ...opts, maxSeconds: 600 });
  } catch (e) {
    if (e instanceof SkillInterrupt) {
      sim.updateLocation();
      return interruptOutcome(sim, e, `driving to ${goal.label}`);
    }
    throw e;
  } finally {
    sim.setBaseMotion(undefined);
  }
  sim.updateLocation();
  const travelled = route.path.reduce((acc, p, i) => acc + dist(i === 0 ? start : route.path[i - 1]!, p), 0);
  return success(`arrived at ${goal.label}`, {
    location: sim.body.at ?? null,
    distanceM: round(travelled, 2),
    battery: round(sim.battery.percent, 1),
    batteryUsed: round(pct0 - sim.battery.percent, 2),
    via: route.path.length > 1 ? route.path.length - 1 : 0,
    ...claims(
      target.kind === 'location'
        ? { kind: 'at', place: target.id }
        : {
            kind: 'base',
            position: [round(goal.pose.p.x, 3), round(goal.pose.p.z, 3)],
            yawDeg: round((yawOf(goal.pose.q) * 180) / Math.PI, 1),
          },
    ),
  });
}

/** A relative base step, bounded by the caller (TORO's TakeAStep, on wheels). */
async function runStep(sim: SimWorld, dx: number, dz: number, dyawDeg: number, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = basePreconditions(sim);
  if (pre) return pre;
  if (sim.body.docked) return failure('docked', 'the robot is docked; undock first');
  const b = sim.body.basePose;
  const to = add(b.p, poseApply({ p: v3(), q: b.q }, v3(dx, 0, dz)));
  const blocked = sweepObstacle(sim, b.p, to);
  if (blocked) return failure('path_blocked', `the step is blocked by ${nameable(sim, blocked)}`);
  const yaw = yawOf(b.q) + rad(dyawDeg);
  return navigate(sim, { kind: 'pose', position: to, yaw, label: 'the new pose' }, opts);
}

/** navigate, answering for everything that happened while it ran (see incidents.ts). */
export const navigate = tracked(runNavigate, () => []);

/** step, answering for everything that happened while it ran (see incidents.ts). */
export const step = tracked(runStep, () => []);
