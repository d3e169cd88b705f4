// Docking, charging and scanning for the field rover (paper 003, Valdemar): it
// may dock only from the shelter's entry pose, may not drive while docked,
// charges only at the dock, and scans plants at points of interest.
import type { Location } from '../../scenes/schema';
import { type Vec3, dist, fromTuple, rad, round, sub, yawOf, wrapAngle } from '../math';
import { BaseMotion } from '../body/motion';
import { SkillInterrupt, type PlantReading, type SimWorld } from '../world/sim-world';
import { interruptOutcome } from './common';
import { basePreconditions } from './navigation';
import { type SkillOptions, type SkillOutcome, claims, failure, success } from './outcome';
import { tracked } from './incidents';

function locationOfKind(sim: SimWorld, kind: string) {
  return [...sim.locations.values()].find((l) => l.kind === kind);
}

/**
 * True when the rover stands in the lane between the entry pose and the dock,
 * facing in, but is not docked: a docking or undocking manoeuvre was stopped
 * part-way. From there it may finish either manoeuvre: driving inside the
 * shelter is not allowed (paper 003 §4), so this is the proper way out.
 */
function inDockLane(sim: SimWorld, entry: Location, station: Location): boolean {
  if (sim.body.docked) return false;
  const a = fromTuple(entry.pose.position);
  const ab = sub(fromTuple(station.pose.position), a);
  const ap = sub(sim.body.basePose.p, a);
  const len = Math.hypot(ab.x, ab.z);
  const along = (ap.x * ab.x + ap.z * ab.z) / len;
  const across = Math.abs(ap.x * ab.z - ap.z * ab.x) / len;
  const yawErr = Math.abs(wrapAngle(yawOf(sim.body.basePose.q) - rad(entry.pose.yaw)));
  return along > 0.3 && along <= len + 0.05 && across < 0.3 && yawErr < rad(15);
}

async function drive(sim: SimWorld, to: Vec3, yaw: number, reverse: boolean, opts: SkillOptions): Promise<void> {
  const cfg = sim.scene.robot.base;
  // Docking is slow and careful.
  const m = new BaseMotion(sim.body.basePose, [{ position: to, yaw }], cfg.maxSpeed * 0.4, rad(cfg.maxYawRate) * 0.5, reverse);
  sim.setBaseMotion(m);
  try {
    await sim.runUntil(() => m.done, opts);
  } finally {
    sim.setBaseMotion(undefined);
    sim.updateLocation();
  }
}

async function runDock(sim: SimWorld, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = basePreconditions(sim);
  if (pre) return pre;
  if (sim.body.docked) return failure('already_done', 'the robot is already docked');
  const entry = locationOfKind(sim, 'entry');
  const station = locationOfKind(sim, 'dock');
  if (!entry || !station) return failure('unsupported', 'this scene has no charging dock');
  const d = dist(sim.body.basePose.p, fromTuple(entry.pose.position));
  const yawErr = Math.abs(wrapAngle(yawOf(sim.body.basePose.q) - rad(entry.pose.yaw)));
  if ((d > 0.3 || yawErr > rad(15)) && !inDockLane(sim, entry, station)) {
    return failure(
      'not_at_entry',
      `docking starts from the shelter entry pose (${entry.id}); the robot is ${round(d, 2)} m from it${yawErr > rad(15) ? ` and turned ${round((yawErr * 180) / Math.PI, 0)}° off` : ''}`,
    );
  }
  try {
    await drive(sim, fromTuple(station.pose.position), rad(station.pose.yaw), false, opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'docking');
    throw e;
  }
  sim.body.docked = true;
  // The dock's contacts charge a docked rover, as when a scene starts docked.
  sim.battery.charging = true;
  sim.post({ type: 'docked' });
  return success(`docked at ${station.id}`, { battery: round(sim.battery.percent, 1), ...claims({ kind: 'docked', value: true }) });
}

async function runUndock(sim: SimWorld, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = basePreconditions(sim);
  if (pre) return pre;
  const entry = locationOfKind(sim, 'entry');
  const station = locationOfKind(sim, 'dock');
  if (!sim.body.docked && !(entry && station && inDockLane(sim, entry, station))) return failure('not_docked', 'the robot is not docked');
  if (!entry) return failure('unsupported', 'this scene has no shelter entry');
  sim.battery.charging = false;
  sim.body.docked = false;
  try {
    await drive(sim, fromTuple(entry.pose.position), rad(entry.pose.yaw), true, opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'undocking');
    throw e;
  }
  sim.post({ type: 'undocked' });
  return success(`undocked; now at ${entry.id}`, claims({ kind: 'docked', value: false }, { kind: 'at', place: entry.id }));
}

async function runCharge(sim: SimWorld, targetPercent = 100, opts: SkillOptions = {}): Promise<SkillOutcome> {
  if (!sim.body.docked) return failure('not_docked', 'charging happens at the dock; dock first');
  if (targetPercent <= 0 || targetPercent > 100) return failure('invalid_argument', 'the target charge must be between 1 and 100 percent');
  const from = sim.battery.percent;
  if (from >= targetPercent) return failure('already_done', `the battery is already at ${round(from, 0)}%`);
  const t0 = sim.time;
  // Docked means on the charger; the skill waits there until the target is reached.
  sim.battery.charging = true;
  try {
    await sim.idle(sim.battery.secondsToCharge(targetPercent) + 1, {
      ...opts,
      until: () => sim.battery.percent >= targetPercent,
      ignoreEstop: true,
    });
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'charging');
    throw e;
  }
  const minutes = (sim.time - t0) / 60;
  return success(`charged from ${round(from, 0)}% to ${round(sim.battery.percent, 0)}% in ${round(minutes, 0)} min`, {
    from: round(from, 1),
    to: round(sim.battery.percent, 1),
    minutes: round(minutes, 1),
    ...claims({ kind: 'battery', atLeast: Math.min(targetPercent, round(sim.battery.percent, 1)) }),
  });
}

/** A stable per-plant hash, so readings do not depend on call order. */
function hash01(s: string, salt: number): number {
  let h = 2166136261 ^ salt;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return ((h >>> 0) % 10000) / 10000;
}

/** A plant reading with what the scene says the sensors can see of it. */
export interface PlantScan extends PlantReading {
  name: string;
  species: string | null;
  growthStage: string | null;
  /** Visible signs (yellowing leaves, pest damage), or "none". */
  symptoms: string;
}

const HEALTH = ['healthy', 'stressed', 'diseased'] as const;
/** NDVI bands per health class, so the index agrees with what the plant shows. */
const NDVI_BAND: Record<PlantReading['health'], [number, number]> = {
  healthy: [0.65, 0.85],
  stressed: [0.42, 0.58],
  diseased: [0.2, 0.38],
};

function attrString(v: string | number | boolean | undefined): string | null {
  return v === undefined || v === '' ? null : String(v);
}

function describeReading(r: PlantScan): string {
  const what = [r.crop, r.growthStage, `NDVI ${r.ndvi}`, `${r.heightCm} cm`, r.health].filter(Boolean).join(', ');
  return `${r.plant} (${what}${r.symptoms !== 'none' ? `: ${r.symptoms}` : ''})`;
}

async function runScan(sim: SimWorld, poi: string | undefined, opts: SkillOptions = {}): Promise<SkillOutcome> {
  if (sim.estop) return failure('estop', 'the emergency stop is pressed');
  const here = sim.body.at ? sim.locations.get(sim.body.at) : undefined;
  if (!here || here.kind !== 'poi') {
    const go = poi ? `; drive to ${poi} first` : '';
    return failure('not_here', `scans are made at a point of interest; the robot is at ${sim.body.at ?? 'no known place'}${go}`);
  }
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
  const readings: PlantScan[] = plants.map((e) => {
    const a = e.spec.attributes;
    const base = hash01(e.id, sim.scene.scene.id.length);
    const noise = sim.noise.distanceSigma ? sim.rng.gaussian() * 0.02 : 0;
    // A plant the scene declares healthy, stressed or diseased reads in that band.
    const declared = HEALTH.find((h) => h === a['health']);
    const raw = declared ? NDVI_BAND[declared][0] + base * (NDVI_BAND[declared][1] - NDVI_BAND[declared][0]) : 0.35 + base * 0.55;
    const ndvi = round(Math.min(0.95, Math.max(0.1, raw + noise)), 2);
    return {
      plant: e.id,
      name: e.spec.name,
      crop: String(a['crop'] ?? e.spec.name),
      species: attrString(a['species']),
      growthStage: attrString(a['growth_stage']),
      ndvi,
      heightCm: typeof a['height_cm'] === 'number' ? a['height_cm'] : round(20 + hash01(e.id, 7) * 60, 0),
      health: declared ?? (ndvi >= 0.6 ? 'healthy' : ndvi >= 0.4 ? 'stressed' : 'diseased'),
      symptoms: attrString(a['symptoms']) ?? 'none',
    };
  });
  sim.scans.set(here.id, { poi: here.id, time: sim.time, readings });
  const list = readings.length ? `: ${readings.map(describeReading).join('; ')}` : '';
  return success(`scanned ${here.id}, ${readings.length} plant${readings.length === 1 ? '' : 's'}${list}`, { poi: here.id, readings });
}

/** dock, answering for everything that happened while it ran (see incidents.ts). */
export const dock = tracked(runDock, () => []);

/** undock, answering for everything that happened while it ran (see incidents.ts). */
export const undock = tracked(runUndock, () => []);

/** charge, answering for everything that happened while it ran (see incidents.ts). */
export const charge = tracked(runCharge, () => []);

/** scan, answering for everything that happened while it ran (see incidents.ts). */
export const scan = tracked(runScan, () => []);
