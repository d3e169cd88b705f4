// A skill as a job on the robot (POST /v1/skills/…, long-polled on
// /v1/jobs/…, cancelled with …/cancel), apart from the seam that offers it.
// A motion job is posted only on green and watched while it runs (./motion-watch.ts);
// every way a job can end, fail to start or be lost becomes an Outcome that
// says whether it may have run part-way.
import type { Outcome } from '../robot';
import { type Reading, known, unknown } from '../../base/reading';
import { type SkillCall, describeCall, isMotion } from '../skills';
import { RobotConnectionError, type Wire } from './client';
import { MotionWatch } from './motion-watch';
import { type Job, JobResponse } from './protocol';
import type { SafetyMonitor } from './safety-monitor';

/** Seconds one long-poll for a job waits on the server. */
const POLL_S = 10;
/** Seconds a skill may run past its own timeout (the robot's time to finish and report) before it is cancelled. */
export const SKILL_GRACE_S = 10;
const UNKNOWN_STATE = "the robot's state (posture, position, what it holds) is unknown until observed again";
/** How long a cancel is tried again while the robot does not answer, ms. */
const CANCEL_TRY_MS = 5000;

/** How long `call` may run on the robot before it is cancelled, seconds (without the grace). */
function skillLimitS(call: SkillCall, fallback: number): number {
  if (call.skill === 'robot.wait') return call.args.seconds;
  if ((call.skill === 'speech.ask' || call.skill === 'speech.listen') && call.args.timeoutSeconds !== undefined)
    return call.args.timeoutSeconds;
  return fallback;
}

/** A job answer that is not the job asked about is not an answer about it. */
function sameJob(job: Job, call: SkillCall, id?: string): Reading<Job> {
  if (job.skill !== call.skill) return unknown(`the robot answered about a ${job.skill} job, not ${call.skill}`);
  if (id !== undefined && job.id !== id) return unknown(`the robot answered about job "${job.id}", not "${id}"`);
  return known(job, performance.now());
}

/** The jobs of one robot: each skill call posted, followed and, when it must stop, cancelled on the robot. */
export class SkillJobs {
  constructor(
    private readonly wire: Wire,
    private readonly monitor: SafetyMonitor,
    private readonly skillTimeoutS: number,
    private readonly controlPeriodMs: number,
    /** Opens the event stream (a press on it, or its dropping, stops a motion job in flight). */
    private readonly stream: () => Promise<void>,
  ) {}

  run(call: SkillCall, signal?: AbortSignal): Promise<Outcome> {
    return isMotion(call.skill) ? this.motion(call, signal) : this.job(call, signal);
  }

  /** What a failed start of a job says, by the kind of fault. */
  private startFailure(e: RobotConnectionError, what: string): Outcome {
    if (e.kind === 'aborted')
      return { ok: false, code: 'aborted', summary: `${what} was stopped while it was being sent; it may have started` };
    if (e.kind === 'refused')
      return {
        ok: false,
        code: e.status === 501 ? 'unsupported' : e.status === 400 ? 'invalid_argument' : 'skill_failure',
        summary: e.message,
      };
    if (e.kind === 'unreachable') return { ok: false, code: 'skill_failure', summary: `${e.message}; ${what} did not start` };
    return {
      ok: false,
      code: 'skill_failure',
      summary: `lost the robot while ${what} was starting or running (${e.message}); it may have stopped part-way or still be moving; ${UNKNOWN_STATE}`,
    };
  }

  /** A skill that does not move the robot (speech, wait): a job, long-polled until it ends. */
  private async job(call: SkillCall, signal?: AbortSignal): Promise<Outcome> {
    const what = describeCall(call);
    if (signal?.aborted) return { ok: false, code: 'aborted', summary: `${what} was not started: the call was stopped` };
    const limitS = skillLimitS(call, this.skillTimeoutS) + SKILL_GRACE_S;
    const deadline = performance.now() + limitS * 1000;
    const pollS = Math.max(0, Math.min(POLL_S, Math.ceil(limitS)));
    let job: Job;
    try {
      job = await this.postJob(call, pollS, signal);
    } catch (e) {
      if (!(e instanceof RobotConnectionError)) throw e;
      return this.startFailure(e, what);
    }
    while (job.status === 'running') {
      const left = (deadline - performance.now()) / 1000;
      if (left <= 0) return this.timedOut(job, what, limitS);
      try {
        job = await this.pollJob(job, call, left, signal);
      } catch (e) {
        if (!(e instanceof RobotConnectionError)) throw e;
        if (e.kind === 'aborted') return this.cancel(job, what);
        return this.lost(job, what, e);
      }
    }
    return job.outcome ?? { ok: false, code: 'skill_failure', summary: `the robot ended ${what} without an outcome` };
  }

  /**
   * A motion skill: posted only on green, then watched every control period
   * while it runs; anything else cancels it on the robot at once.
   */
  private async motion(call: SkillCall, signal?: AbortSignal): Promise<Outcome> {
    const what = describeCall(call);
    if (signal?.aborted) return { ok: false, code: 'aborted', summary: `${what} was not started: the call was stopped` };
    await this.stream();
    await this.monitor.read(this.wire.opts.timeoutMs);
    const blocked = this.monitor.block();
    if (blocked)
      return {
        ok: false,
        code: blocked.pressed ? 'estop' : 'refused',
        summary: `${what} was not sent to the robot: ${blocked.why}`,
        data: { safety: blocked.why },
      };
    // From here on a reading that is not green stops the job, even one that comes while it is being posted.
    const watch = new MotionWatch(this.monitor, this.controlPeriodMs, () => this.wire.opts.timeoutMs);
    try {
      const limitS = skillLimitS(call, this.skillTimeoutS) + SKILL_GRACE_S;
      const deadline = performance.now() + limitS * 1000;
      let job: Job;
      try {
        // wait=0: the job's id comes back at once, so it can be cancelled while it runs. Not cut short by
        // the caller's Stop: a job the robot started must be known to be cancelled.
        job = await this.postJob(call, 0);
      } catch (e) {
        if (!(e instanceof RobotConnectionError)) throw e;
        return this.startFailure(e, what);
      }
      if (signal?.aborted && job.status === 'running') return this.cancel(job, what);
      const both = signal ? AbortSignal.any([signal, watch.signal]) : watch.signal;
      while (job.status === 'running') {
        if (watch.tripped) return this.stopped(job, what, watch.tripped);
        const left = (deadline - performance.now()) / 1000;
        if (left <= 0) return this.timedOut(job, what, limitS);
        try {
          job = await this.pollJob(job, call, left, both);
        } catch (e) {
          if (!(e instanceof RobotConnectionError)) throw e;
          if (watch.tripped) return this.stopped(job, what, watch.tripped);
          if (e.kind === 'aborted') return this.cancel(job, what);
          return this.lost(job, what, e, CANCEL_TRY_MS);
        }
      }
      return job.outcome ?? { ok: false, code: 'skill_failure', summary: `the robot ended ${what} without an outcome` };
    } finally {
      watch.stop();
    }
  }

  private async postJob(call: SkillCall, waitS: number, signal?: AbortSignal): Promise<Job> {
    const { value } = await this.wire.call('POST', `/v1/skills/${call.skill}?wait=${waitS}`, call.args, JobResponse, {
      timeoutMs: waitS * 1000 + this.wire.opts.timeoutMs,
      ...(signal ? { signal } : {}),
    });
    const job = sameJob(value.job, call);
    if (!job.known)
      throw new RobotConnectionError(`the robot answered POST /v1/skills/${call.skill} outside the protocol: ${job.why}`, 'protocol');
    return job.value;
  }

  private async pollJob(job: Job, call: SkillCall, leftS: number, signal?: AbortSignal): Promise<Job> {
    const waitS = Math.max(0, Math.min(POLL_S, Math.ceil(leftS)));
    const { value } = await this.wire.call('GET', `/v1/jobs/${job.id}?wait=${waitS}`, undefined, JobResponse, {
      timeoutMs: waitS * 1000 + this.wire.opts.timeoutMs,
      ...(signal ? { signal } : {}),
    });
    const next = sameJob(value.job, call, job.id);
    if (!next.known)
      throw new RobotConnectionError(`the robot answered GET /v1/jobs/${job.id} outside the protocol: ${next.why}`, 'protocol');
    return next.value;
  }

  /** The robot could not be followed: the job may still run there, so it is cancelled (tried, not assumed). */
  private async lost(job: Job, what: string, e: RobotConnectionError, retryMs = 0): Promise<Outcome> {
    const c = await this.cancelOnRobot(job, retryMs);
    return {
      ok: false,
      code: 'skill_failure',
      summary: `lost the robot while ${what} was running (${e.message}); it may have stopped part-way or still be moving (${c.note}); ${UNKNOWN_STATE}`,
    };
  }

  private async timedOut(job: Job, what: string, limitS: number): Promise<Outcome> {
    const cancelled = await this.cancel(job, what);
    return {
      ok: false,
      code: 'timeout',
      summary: `${what} did not end within ${Math.round(limitS - SKILL_GRACE_S)} s (+${SKILL_GRACE_S} s grace) and was cancelled (${cancelled.summary}); ${UNKNOWN_STATE}`,
    };
  }

  /** Stopped by the safety watch: cancelled on the robot, with the reading that stopped it. */
  private async stopped(job: Job, what: string, why: { why: string; pressed: boolean }): Promise<Outcome> {
    const c = await this.cancelOnRobot(job, CANCEL_TRY_MS);
    return {
      ok: false,
      code: why.pressed ? 'estop' : 'aborted',
      summary: `${what} was cancelled on the robot: ${why.why} (${c.note}); ${UNKNOWN_STATE}`,
      data: { safety: why.why, cancelConfirmed: c.confirmed },
    };
  }

  private async cancel(job: Job, what: string): Promise<Outcome> {
    const c = await this.cancelOnRobot(job);
    if (c.outcome) return c.outcome;
    return { ok: false, code: 'aborted', summary: `${what} was stopped here; ${c.note}` };
  }

  /**
   * POST …/cancel; for a motion, tried again each control period while the
   * robot cannot be reached (a restart, a dropped line), for `retryMs` at most.
   */
  private async cancelOnRobot(job: Job, retryMs = 0): Promise<{ confirmed: boolean; note: string; outcome?: Outcome }> {
    const until = performance.now() + retryMs;
    for (;;) {
      try {
        const { value } = await this.wire.call('POST', `/v1/jobs/${job.id}/cancel`, {}, JobResponse, {
          timeoutMs: Math.min(CANCEL_TRY_MS, this.wire.opts.timeoutMs),
        });
        if (value.job.id !== job.id)
          return { confirmed: false, note: `the robot answered the cancel about another job ("${value.job.id}")` };
        if (value.job.status === 'running') return { confirmed: false, note: 'cancel sent; the robot has not confirmed it stopped' };
        return {
          confirmed: true,
          note: `the robot confirmed it ${value.job.status === 'cancelled' ? 'stopped' : value.job.status}`,
          ...(value.job.outcome ? { outcome: value.job.outcome } : {}),
        };
      } catch (e) {
        const err = e instanceof RobotConnectionError ? e : undefined;
        if (err?.status === 404) return { confirmed: false, note: 'the robot no longer knows the job (it restarted or forgot it)' };
        const retry = err && (err.kind === 'unreachable' || err.kind === 'dropped' || err.kind === 'timeout');
        if (!retry || performance.now() >= until)
          return { confirmed: false, note: `the cancel did not reach the robot (${(e as Error).message}); it may still be moving` };
        await new Promise((r) => setTimeout(r, this.controlPeriodMs));
      }
    }
  }
}
