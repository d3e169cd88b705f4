// Shadow mode: the simulator runs beside a real robot. Before
// each action it is synchronised from what the robot reports (where it sees each
// object, its battery) — a difference from what the shadow expected is a
// divergence — then the action is played in it first: a predicted failure or an
// incident (something knocked over, dropped) is a concern the safety chain holds
// for a person. After the robot acts, its outcome and its reported world are
// compared with the prediction, and every divergence is reported.
import type { SimControl } from '../sim/control';
import type { SimRobot } from '../sim/sim-robot';
import type { Outcome, Robot, Vec3Tuple } from '../robot';
import { type Divergence, type SkillCall, type SkillPrediction, type SkillPredictor, callSkill, describeCall } from '../skills';
import type { WorldSnapshot } from '../../sim/world/sim-world';

export interface ShadowOptions {
  /** Positions closer than this (metres) agree. */
  toleranceM?: number;
  /** Joint values closer than this agree (radians; metres for a prismatic joint). */
  jointTolerance?: number;
}

const fmt = (p: Vec3Tuple) => `[${p.map((x) => x.toFixed(2)).join(', ')}]`;
const dist = (a: Vec3Tuple, b: Vec3Tuple) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

export class Shadow implements SkillPredictor {
  private readonly tol: number;
  private readonly jointTol: number;
  private before: WorldSnapshot | undefined;

  constructor(
    readonly real: Robot,
    readonly sim: { robot: SimRobot; control: SimControl },
    opts: ShadowOptions = {},
  ) {
    this.tol = opts.toleranceM ?? 0.05;
    this.jointTol = opts.jointTolerance ?? 0.05;
  }

  /**
   * The robot's measured joints against the twin's, by name: one beyond the
   * tolerance diverges; a reading that is absent, stale or lacks a joint of the
   * twin is unknown, said so (never taken as agreeing).
   */
  private async joints(): Promise<Divergence[]> {
    const world = this.sim.control.world;
    const kin = world.kinematics;
    const q = world.body.q;
    if (!this.real.jointStates || !kin || !q) return [];
    const r = await this.real.jointStates();
    const twin = (i: number) => `at ${q[i]!.toFixed(3)}`;
    if (!r.known)
      return kin.jointNames.map((name, i) => ({ kind: 'joint', subject: name, predicted: twin(i), actual: `unknown: ${r.why}` }));
    const out: Divergence[] = [];
    for (const [i, name] of kin.jointNames.entries()) {
      const v = r.value.get(name);
      if (v === undefined)
        out.push({ kind: 'joint', subject: name, predicted: twin(i), actual: `unknown: the joint states have no ${name}` });
      else if (Math.abs(v - q[i]!) > this.jointTol)
        out.push({ kind: 'joint', subject: name, predicted: twin(i), actual: `at ${v.toFixed(3)}` });
    }
    return out;
  }

  /** Where the shadow sees each object now (its detections), by id. */
  private async shadowSeen(): Promise<Map<string, Vec3Tuple>> {
    return new Map((await this.sim.robot.perception.detect()).map((d) => [d.id, d.position] as const));
  }

  /**
   * Brings the shadow to what the robot reports: objects it sees elsewhere are
   * moved there, its battery is copied. Returns the differences found, as divergences.
   */
  async sync(): Promise<Divergence[]> {
    const found: Divergence[] = [];
    const [seen, held] = await Promise.all([this.real.perception.detect(), this.real.perception.holding()]);
    const mine = await this.shadowSeen();
    for (const d of seen) {
      if (d.id === held) continue; // it moves with the hand; the grasp is compared below
      // Out of the shadow's view (occluded, or its camera looks elsewhere): where its body is.
      const at = mine.get(d.id) ?? (await this.sim.robot.perception.pose(d.id))?.position;
      if (!at) {
        found.push({
          kind: 'object',
          subject: d.id,
          predicted: 'not there (the shadow has no such object in view)',
          actual: `seen at ${fmt(d.position)}`,
        });
        continue;
      }
      if (dist(at, d.position) <= this.tol) continue;
      found.push({ kind: 'object', subject: d.id, predicted: `at ${fmt(at)}`, actual: `at ${fmt(d.position)}` });
      // Detections give the centre of the object's box; a move sets its body's origin.
      const pose = await this.sim.robot.perception.pose(d.id);
      const offset = pose ? [at[0] - pose.position[0], at[1] - pose.position[1], at[2] - pose.position[2]] : [0, 0, 0];
      try {
        this.sim.control.inject({
          type: 'object_moved',
          object: d.id,
          to: [d.position[0] - offset[0]!, d.position[1] - offset[1]!, d.position[2] - offset[2]!],
          by: 'shadow sync',
        });
      } catch {
        // A fixed object cannot be moved: the divergence stands, reported above.
      }
    }
    const mineHeld = this.sim.control.holding();
    if ((held ?? null) !== (mineHeld ?? null))
      found.push({
        kind: 'holding',
        subject: 'gripper',
        predicted: mineHeld ? `holding ${mineHeld}` : 'empty',
        actual: held ? `holding ${held}` : 'empty',
      });
    found.push(...(await this.joints()));
    if (this.real.has('battery')) {
      try {
        const b = await this.real.battery();
        this.sim.control.inject({ type: 'set_battery', percent: Math.max(0, Math.min(100, b.percent)) });
      } catch {
        // No battery report: the shadow keeps its own.
      }
    }
    return found;
  }

  async predict(call: SkillCall, signal?: AbortSignal): Promise<SkillPrediction> {
    const drift = await this.sync();
    this.before = this.sim.control.snapshot();
    const outcome = await callSkill(this.sim.robot, call, signal);
    const concerns: string[] = [];
    if (!outcome.ok) concerns.push(`${describeCall(call)} would fail (${outcome.code}): ${outcome.summary}`);
    if (outcome.incidents?.length) concerns.push(`${describeCall(call)} would also: ${outcome.incidents.join('; ')}`);
    return { outcome, concerns, drift };
  }

  async observe(call: SkillCall, prediction: SkillPrediction, actual: Outcome): Promise<Divergence[]> {
    this.before = undefined;
    const found: Divergence[] = [];
    const p = prediction.outcome;
    if (p.ok !== actual.ok || (!p.ok && !actual.ok && p.code !== actual.code)) {
      found.push({
        kind: 'outcome',
        subject: describeCall(call),
        predicted: p.ok ? `success: ${p.summary}` : `failure (${p.code}): ${p.summary}`,
        actual: actual.ok ? `success: ${actual.summary}` : `failure (${actual.code}): ${actual.summary}`,
      });
    }
    // What the robot reports now against where the prediction left things; the shadow follows the robot.
    found.push(...(await this.sync()));
    return found;
  }

  async discard(): Promise<void> {
    if (this.before) this.sim.control.restore(this.before);
    this.before = undefined;
  }

  dispose(): void {
    this.sim.control.dispose();
  }
}
