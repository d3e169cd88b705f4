// Skills as jobs: each POST to a skill starts one, with its own abort handle,
// so a client can read its status and progress, wait for it, or cancel it. A
// robot that reports progress does so as `skill_progress` events (the rosbridge
// source turns action feedback into them); every job reports the robot seconds
// since it started.
import { randomBytes } from 'node:crypto';
import type { Outcome, Robot, RobotEvent } from '../../robot/robot';
import type { Job } from '../../robot/http/protocol';
import type { SkillCall } from '../../robot/skills';

interface Running {
  job: Job;
  startedAt: number;
  ctl: AbortController;
  done: Promise<void>;
}

const KEEP = 200;

export class Jobs {
  private readonly jobs = new Map<string, Running>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly robot: Robot,
    private readonly changed: (job: Job) => void,
  ) {
    this.unsubscribe = robot.events.subscribe((e) => this.onEvent(e));
  }

  dispose(): void {
    this.unsubscribe();
    for (const r of this.jobs.values()) r.ctl.abort(new Error('the robot API is shutting down'));
  }

  private onEvent(e: RobotEvent): void {
    // The robot's own e-stop ends every running job here too: a skill that would not see it must not go on.
    if (e.type === 'estop_pressed') return this.cancelAll('the emergency stop was pressed');
    if (e.type !== 'skill_progress') return;
    const skill = e.data['skill'];
    for (const r of this.jobs.values()) {
      if (r.job.status !== 'running' || (skill !== undefined && skill !== r.job.skill)) continue;
      const fraction = e.data['fraction'];
      r.job.progress = {
        ...r.job.progress,
        ...(typeof fraction === 'number' && fraction >= 0 && fraction <= 1 ? { fraction } : {}),
        text: e.text,
      };
      this.changed(r.job);
    }
  }

  /** Starts `call` through `run` (the guarded robot's skill); returns at once. */
  async start(call: SkillCall, run: (signal: AbortSignal) => Promise<Outcome>): Promise<Job> {
    const id = `job_${randomBytes(6).toString('hex')}`;
    const ctl = new AbortController();
    const job: Job = { id, skill: call.skill, args: call.args, status: 'running', progress: { elapsedS: 0 }, outcome: null };
    const startedAt = await this.clock();
    const entry: Running = { job, startedAt, ctl, done: Promise.resolve() };
    entry.done = run(ctl.signal).then(
      (outcome) => this.finish(entry, outcome),
      (e: unknown) =>
        this.finish(entry, {
          ok: false,
          code: 'skill_failure',
          summary: `the skill failed on the robot: ${e instanceof Error ? e.message : String(e)}`,
        }),
    );
    this.jobs.set(id, entry);
    if (this.jobs.size > KEEP) {
      for (const [k, r] of this.jobs) {
        if (this.jobs.size <= KEEP) break;
        if (r.job.status !== 'running') this.jobs.delete(k);
      }
    }
    this.changed(job);
    return job;
  }

  private async finish(entry: Running, outcome: Outcome): Promise<void> {
    const j = entry.job;
    j.outcome = outcome;
    j.status = outcome.ok ? 'succeeded' : entry.ctl.signal.aborted || outcome.code === 'aborted' ? 'cancelled' : 'failed';
    j.progress = { ...j.progress, elapsedS: round((await this.clock()) - entry.startedAt), ...(outcome.ok ? { fraction: 1 } : {}) };
    this.changed(j);
  }

  /** The job now (progress brought up to date), after waiting up to `waitS` for it to end. */
  async get(id: string, waitS = 0): Promise<Job | undefined> {
    const r = this.jobs.get(id);
    if (!r) return undefined;
    if (waitS > 0 && r.job.status === 'running') {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([r.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitS * 1000)))]);
      clearTimeout(timer);
    }
    if (r.job.status === 'running') r.job.progress = { ...r.job.progress, elapsedS: round((await this.clock()) - r.startedAt) };
    return r.job;
  }

  /** Aborts the job's skill and waits (up to 5 s) for the robot to say it stopped. */
  async cancel(id: string): Promise<Job | undefined> {
    const r = this.jobs.get(id);
    if (!r) return undefined;
    if (r.job.status === 'running') r.ctl.abort(new Error('cancelled by the client'));
    return this.get(id, 5);
  }

  /** Aborts every running job (the e-stop). */
  cancelAll(reason: string): void {
    for (const r of this.jobs.values()) if (r.job.status === 'running') r.ctl.abort(new Error(reason));
  }

  /** Aborts the job if it still runs (its waiting client went away). */
  abandon(id: string): void {
    const r = this.jobs.get(id);
    if (r?.job.status === 'running') r.ctl.abort(new Error('the client waiting for it went away'));
  }

  private async clock(): Promise<number> {
    try {
      return await this.robot.time();
    } catch {
      return performance.now() / 1000;
    }
  }
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
