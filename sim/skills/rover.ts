// Docking, charging and scanning for the field rover (paper 003, Valdemar): it
// may dock only from the shelter's entry pose, may not drive while docked,
// charges only at the dock, and scans plants at points of interest.
import { type Vec3, dist, fromTuple, rad, round, yawOf, wrapAngle } from '../math';
import { BaseMotion } from '../robot/motion';
import { SkillInterrupt, type PlantReading, type SimWorld } from '../world/sim-world';
import { interruptOutcome } from './manipulation';
import { basePreconditions } from './navigation';
import { type SkillOptions, type SkillOutcome, failure, success } from './outcome';

function locationOfKind(sim: SimWorld, kind: string) {
  return [...sim.locations.values()].find((l) => l.kind === kind);
}

async function drive(sim: SimWorld, to: Vec3, yaw: number, reverse: boolean, opts: SkillOptions): Promise<void> {
  const cfg = sim.scene.robot.base;
  // Docking is slow and careful.
  const m = new BaseMotion(sim.robot.basePose, [{ position: to, yaw }], cfg.maxSpeed * 0.4, rad(cfg.maxYawRate) * 0.5, reverse);
  sim.setBaseMotion(m);
  try {
    await sim.runUntil(() => m.done, opts);
  } finally {
    sim.setBaseMotion(undefined);
    sim.updateLocation();
  }
}

export async function dock(sim: SimWorld, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = basePreconditions(sim);
  if (pre) return pre;
  if (sim.robot.docked) return failure('already_done', 'the robot is already docked');
  const entry = locationOfKind(sim, 'entry');
  const station = locationOfKind(sim, 'dock');
  if (!entry || !station) return failure('unsupported', 'this scene has no charging dock');
  const d = dist(sim.robot.basePose.p, fromTuple(entry.pose.position));
  const yawErr = Math.abs(wrapAngle(yawOf(sim.robot.basePose.q) - rad(entry.pose.yaw)));
  if (d > 0.3 || yawErr > rad(15)) {
    return failure('not_at_entry', `docking starts from the shelter entry pose (${entry.id}); the robot is ${round(d, 2)} m from it${yawErr > rad(15) ? ` and turned ${round((yawErr * 180) / Math.PI, 0)}° off` : ''}`);
  }
  try {
    await drive(sim, fromTuple(station.pose.position), rad(station.pose.yaw), false, opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'docking');
    throw e;
  }
  sim.robot.docked = true;
  sim.post({ type: 'docked' });
  return success(`docked at ${station.id}`, { battery: round(sim.battery.percent, 1) });
}

export async function undock(sim: SimWorld, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = basePreconditions(sim);
  if (pre) return pre;
  if (!sim.robot.docked) return failure('not_docked', 'the robot is not docked');
  const entry = locationOfKind(sim, 'entry');
  if (!entry) return failure('unsupported', 'this scene has no shelter entry');
  sim.battery.charging = false;
  sim.robot.docked = false;
  try {
    await drive(sim, fromTuple(entry.pose.position), rad(entry.pose.yaw), true, opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'undocking');
    throw e;
  }
  sim.post({ type: 'undocked' });
  return success(`undocked; now at ${entry.id}`);
}

export async function charge(sim: SimWorld, targetPercent = 100, opts: SkillOptions = {}): Promise<SkillOutcome> {
  if (!sim.robot.docked) return failure('not_docked', 'charging happens at the dock; dock first');
  if (targetPercent <= 0 || targetPercent > 100) return failure('invalid_argument', 'the target charge must be between 1 and 100 percent');
  const from = sim.battery.percent;
  if (from >= targetPercent) return failure('already_done', `the battery is already at ${round(from, 0)}%`);
  const t0 = sim.time;
  sim.battery.charging = true;
  try {
    await sim.idle(sim.battery.secondsToCharge(targetPercent) + 1, { ...opts, until: () => sim.battery.percent >= targetPercent, ignoreEstop: true });
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'charging');
    throw e;
  } finally {
    sim.battery.charging = false;
  }
  const minutes = (sim.time - t0) / 60;
  return success(`charged from ${round(from, 0)}% to ${round(sim.battery.percent, 0)}% in ${round(minutes, 0)} min`, {
    from: round(from, 1),
    to: round(sim.battery.percent, 1),
    minutes: round(minutes, 1),
  });
}

/** A stable per-plant hash, so readings do not depend on call order. */
function hash01(s: string, salt: number): number {
  let h = 2166136261 ^ salt;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return ((h >>> 0) % 10000) / 10000;
}

export async function scan(sim: SimWorld, poi: string | undefined, opts: SkillOptions = {}): Promise<SkillOutcome> {
  if (sim.estop) return failure('estop', 'the emergency stop is pressed');
  const here = sim.robot.at ? sim.locations.get(sim.robot.at) : undefined;
  if (!here || here.kind !== 'poi') return failure('not_here', `scans are made at a point of interest; the robot is at ${sim.robot.at ?? 'no known place'}`);
  if (poi && poi !== here.id) return failure('not_here', `the robot is at ${here.id}, not ${poi}; drive there first`);
  const p = fromTuple(here.pose.position);
  const plants = [...sim.entities.values()].filter((e) => e.spec.category === 'plant' && dist(sim.pose(e.id).p, p) < 5);
  try {
    await sim.idle(15, opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, `scanning ${here.id}`);
    throw e;
  }
  sim.battery.drainWh(sim.scene.robot.battery.scanWh);
  const readings: PlantReading[] = plants.map((e) => {
    const base = hash01(e.id, sim.scene.scene.id.length);
    const noise = sim.noise.distanceSigma ? sim.rng.gaussian() * 0.02 : 0;
    const ndvi = round(Math.min(0.95, Math.max(0.1, 0.35 + base * 0.55 + noise)), 2);
    return {
      plant: e.id,
      crop: String(e.spec.attributes['crop'] ?? e.spec.name),
      ndvi,
      heightCm: round(20 + hash01(e.id, 7) * 60, 0),
      health: ndvi >= 0.6 ? 'healthy' : ndvi >= 0.4 ? 'stressed' : 'diseased',
    };
  });
  sim.scans.set(here.id, { poi: here.id, time: sim.time, readings });
  return success(`scanned ${here.id}: ${readings.length} plants`, { poi: here.id, readings });
}
