// The safety chain: one gate for every way an action reaches a robot — a tool
// call in a flow, an API call from sandboxed code, the robot HTTP API, an MCP
// tool call. It works on skill calls (robot/skills.ts), so it sees exactly what
// the robot will be asked to do whatever tool or client asked for it:
//   finite numbers → workspace bounds → clamps → e-stop (known, fresh, released)
//   → battery (known, fresh, not empty) → rate limit
//   → approval mode of the path → shadow prediction (shadow mode) → run → compare.
// Each call gets one decision — allow, clamp, refuse or ask — reported to the
// caller's scope (a flow turns it into a `safety` event and trace record), and
// each divergence between a shadow prediction and the robot's report is reported too.
import type { ApprovalAnswer, ApprovalMode } from '../approval';
import type { Outcome, Robot, RobotEvent } from '../../../robot/robot';
import {
  type Divergence,
  type SkillCall,
  type SkillName,
  type SkillPrediction,
  type SkillPredictor,
  describeCall,
  interceptSkills,
  isMotion,
} from '../../../robot/skills';
import { DEFAULT_SAFETY_LIMITS, type SafetyLimits, SafetyLimitsSchema, staticCheck } from './checks';
import { type StateRefusal, noEstopAcceptance, readSafety, refuseOnState } from './state-gate';
import { CHARGING, batteryFloor } from './battery-floor';
import { motionEndOutside } from './motion-ends';

export type SafetyVia = 'tool' | 'sandbox' | 'http' | 'mcp' | 'direct';
export type SafetyVerdict = 'allow' | 'clamp' | 'refuse' | 'ask';
export type SafetyCheck = 'finite' | 'workspace' | 'clamp' | 'estop' | 'battery' | 'rate' | 'approval' | 'shadow';

/** One decision of the chain about one skill call. */
export interface SafetyDecision {
  verdict: SafetyVerdict;
  /** 'session': a record about the whole session (the person's acceptances at start), not one call. */
  skill: SkillName | 'session';
  /** The arguments as asked. */
  args: unknown;
  /** The arguments as run, when clamped. */
  ran?: unknown;
  /** The checks that decided (empty for a plain allow). */
  checks: SafetyCheck[];
  reason: string;
  via: SafetyVia;
  tool?: string;
  callId?: string;
  /** For 'ask': what the person said ('none' when no one could be asked). */
  answer?: 'approved' | 'rejected' | 'none';
  note?: string;
  /** Shadow mode: what the simulator predicted. */
  prediction?: { ok: boolean; code?: string; summary: string };
}

export type DivergenceReport = Divergence & { skill: SkillName; via: SafetyVia; tool?: string; callId?: string };

/** What a person is asked when the chain holds an action. */
export interface HoldRequest {
  skill: SkillName;
  call: string;
  args: unknown;
  reason: string;
  tool?: string;
  callId?: string;
  signal: AbortSignal;
}

/** Who is calling, and where decisions go. One scope per tool call (or HTTP request, MCP call). */
export interface SafetyScope {
  via: SafetyVia;
  tool?: string;
  callId?: string;
  /**
   * The approval mode for actions on this path: 'auto' where the caller has
   * already approved the call (a flow's approval gate), 'ask' or 'deny' for
   * paths without one (a read-only robot API says 'deny').
   */
  approval?: ApprovalMode;
  /** Asks a person about a held action; without it a hold is a refusal. */
  ask?: (q: HoldRequest) => Promise<ApprovalAnswer>;
  report?: (d: SafetyDecision) => void;
  diverged?: (d: DivergenceReport) => void;
}

export interface SafetyOptions {
  limits?: Partial<SafetyLimits>;
  /** Shadow mode: plays each action in a simulator first. */
  predictor?: SkillPredictor;
  /** The person accepted, at start, a robot that declares it reports no e-stop state (--accept-no-estop). */
  acceptNoEstop?: boolean;
}

/** Skills that still run on an empty battery: they are how it gets charged. */

export class SafetyChain {
  readonly limits: SafetyLimits;
  readonly predictor: SkillPredictor | undefined;
  readonly acceptNoEstop: boolean;
  private motions: number[] = [];
  private sawState = false;
  private estop: boolean | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Runs predictions one at a time: the shadow is one world. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    readonly robot: Robot,
    opts: SafetyOptions = {},
  ) {
    this.limits = SafetyLimitsSchema.parse({ ...DEFAULT_SAFETY_LIMITS, ...opts.limits });
    this.predictor = opts.predictor;
    this.acceptNoEstop = opts.acceptNoEstop ?? false;
  }

  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** The robot as a caller in `scope` sees it: every skill passes the chain, queries do not. */
  guard(scope: SafetyScope): Robot {
    // Watch the robot's events from the first guard on, so a press that arrives before the first motion counts.
    try {
      this.unsubscribe ??= this.robot.events.subscribe((e) => this.onEvent(e));
    } catch {
      // A robot without events is judged by its safety state alone.
    }
    return interceptSkills(this.robot, (call, signal, next) => this.run(call, scope, signal, next));
  }

  private onEvent(e: RobotEvent): void {
    if (e.type === 'estop_pressed') this.estop = true;
    if (e.type === 'estop_released') this.estop = false;
  }

  /**
   * The robot's e-stop and battery state, fail closed. Until a robot has given a
   * known state once, the first motion waits (bounded) for it rather than
   * reading silence as released.
   */
  private async stateRefusal(skill: SkillName): Promise<StateRefusal | undefined> {
    let state = await readSafety(this.robot);
    if (!this.sawState && state.estop.state === 'unknown' && state.link !== 'down') {
      const until = performance.now() + this.limits.startupWaitS * 1000;
      while (state.estop.state === 'unknown' && performance.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
        state = await readSafety(this.robot);
      }
    }
    if (state.estop.state !== 'unknown') this.sawState = true;
    const why = refuseOnState(state, this.acceptNoEstop);
    // Charging runs on a low battery, but not blind: only an unknown or stale battery stops it.
    return why?.check === 'battery' && CHARGING.has(skill) && state.battery?.percent !== undefined && state.battery.freshness === 'fresh'
      ? undefined
      : why;
  }

  /**
   * What the chain records at the start of a session: the person's acceptance of
   * a robot that reports no e-stop state. Undefined when there is nothing to say.
   */
  startRecord(scope: Pick<SafetyScope, 'via' | 'report'>): SafetyDecision | undefined {
    const text = this.acceptNoEstop ? noEstopAcceptance(this.robot) : undefined;
    if (!text) return undefined;
    const d: SafetyDecision = {
      verdict: 'allow',
      skill: 'session',
      args: {},
      checks: ['estop'],
      reason: text,
      via: scope.via,
      answer: 'approved',
    };
    scope.report?.(d);
    return d;
  }

  private async estopPressed(): Promise<boolean> {
    if (this.estop === undefined) {
      // Watch from the first motion on; the last e-stop event before that decides.
      try {
        this.unsubscribe ??= this.robot.events.subscribe((e) => this.onEvent(e));
        const past = await this.robot.events.since(0);
        const last = past.filter((e) => e.type === 'estop_pressed' || e.type === 'estop_released').at(-1);
        this.estop ??= last?.type === 'estop_pressed';
      } catch {
        return false;
      }
    }
    return this.estop;
  }

  /** Checks one call, asks if it must, runs it through `next`, and compares with a prediction. */
  async run(
    call: SkillCall,
    scope: SafetyScope,
    signal: AbortSignal | undefined,
    next: (c: SkillCall) => Promise<Outcome>,
  ): Promise<Outcome> {
    const base = {
      skill: call.skill,
      args: call.args,
      via: scope.via,
      ...(scope.tool ? { tool: scope.tool } : {}),
      ...(scope.callId ? { callId: scope.callId } : {}),
    };
    const refuse = (
      checks: SafetyCheck[],
      reason: string,
      code: 'invalid_argument' | 'estop' | 'battery_empty' | 'refused',
      extra: Partial<SafetyDecision> = {},
    ): Outcome => {
      scope.report?.({ ...base, verdict: 'refuse', checks, reason, ...extra });
      return { ok: false, code, summary: `refused by the safety chain: ${reason}` };
    };

    const st = staticCheck(call, this.robot.info, this.limits);
    if (st.verdict === 'refuse') return refuse(st.checks, st.reasons.join('; '), 'invalid_argument');
    const toRun = st.call;
    const motion = isMotion(call.skill);
    // Relative motions are checked where they end, from where the robot is now (motion-ends.ts).
    const end = await motionEndOutside(toRun, this.robot, this.limits.workspaceMarginM);
    if (end) return refuse(['workspace'], end, 'invalid_argument');

    if (motion && (await this.estopPressed()))
      return refuse(['estop'], 'the emergency stop is pressed; release it before the robot moves', 'estop');

    if (motion) {
      const why = await this.stateRefusal(call.skill);
      if (why) return refuse([why.check], why.reason, why.code);
    }

    if (motion && !CHARGING.has(call.skill) && this.robot.has('battery')) {
      let battery: { percent: number; level: string };
      try {
        battery = await this.robot.battery();
      } catch (e) {
        return refuse(['battery'], `the robot did not report its battery (${e instanceof Error ? e.message : String(e)})`, 'refused');
      }
      const low = batteryFloor(toRun, this.robot.info, battery, this.limits.minBatteryPercent);
      if (low) return refuse(['battery'], low, 'battery_empty');
    }

    if (motion) {
      const now = await this.clock();
      const w = this.limits.rateWindowS;
      this.motions = this.motions.filter((t) => t > now - w && t <= now);
      if (this.motions.length >= this.limits.maxMotions)
        return refuse(
          ['rate'],
          `more than ${this.limits.maxMotions} motion commands within ${w} s of the robot's time; wait before the next`,
          'refused',
        );
      this.motions.push(now);
    }

    const mode = scope.approval ?? 'auto';
    if (mode === 'deny') return refuse(['approval'], `actions are not allowed on this path (${scope.via})`, 'refused');

    let prediction: SkillPrediction | undefined;
    if (this.predictor) {
      try {
        prediction = await this.serial(() => this.predictor!.predict(toRun, signal));
      } catch (e) {
        // A shadow that cannot predict must not stop the robot silently: hold the action.
        prediction = {
          outcome: {
            ok: false,
            code: 'skill_failure',
            summary: `the shadow could not predict it: ${e instanceof Error ? e.message : String(e)}`,
          },
          concerns: ['the shadow simulator could not predict this action'],
        };
      }
    }
    for (const d of prediction?.drift ?? []) scope.diverged?.({ ...d, ...where(call, scope) });
    const predicted = prediction ? { prediction: summaryOf(prediction.outcome) } : {};
    const clampInfo = st.verdict === 'clamp' ? { ran: toRun.args } : {};
    const checks: SafetyCheck[] = [...st.checks];
    const reasons = [...st.reasons];
    const hold = prediction?.concerns.length ? prediction.concerns : [];
    if (hold.length || mode === 'ask') {
      if (hold.length) checks.push('shadow');
      if (mode === 'ask') checks.push('approval');
      const reason = [
        ...reasons,
        ...(hold.length ? [`the shadow simulator predicts: ${hold.join('; ')}`] : ['actions need approval on this path']),
      ].join('; ');
      let answer: ApprovalAnswer | undefined;
      if (scope.ask && signal?.aborted !== true) {
        try {
          answer = await scope.ask({
            skill: call.skill,
            call: describeCall(toRun),
            args: toRun.args,
            reason,
            ...(scope.tool ? { tool: scope.tool } : {}),
            ...(scope.callId ? { callId: scope.callId } : {}),
            signal: signal ?? new AbortController().signal,
          });
        } catch (e) {
          answer = { approved: false, note: `the approval prompt failed (${e instanceof Error ? e.message : String(e)})` };
        }
      }
      const said = answer ? (answer.approved ? 'approved' : 'rejected') : 'none';
      scope.report?.({
        ...base,
        verdict: 'ask',
        checks,
        reason,
        answer: said,
        ...(answer?.note ? { note: answer.note } : {}),
        ...predicted,
        ...clampInfo,
      });
      if (!answer?.approved) {
        if (prediction) await this.serial(() => this.predictor!.discard());
        const why = answer ? `the person said no${answer.note ? ` ("${answer.note}")` : ''}` : 'no one was there to approve it';
        return { ok: false, code: 'refused', summary: `held by the safety chain (${reason}) and not run: ${why}` };
      }
    } else {
      scope.report?.({ ...base, verdict: st.verdict, checks, reason: reasons.join('; ') || 'within limits', ...predicted, ...clampInfo });
    }

    // A Stop that landed while the checks ran: the robot is not asked to start.
    if (signal?.aborted) {
      if (prediction) await this.serial(() => this.predictor!.discard());
      return { ok: false, code: 'aborted', summary: `${describeCall(toRun)} was stopped before it started` };
    }
    let outcome: Outcome;
    try {
      outcome = await next(toRun);
    } catch (e) {
      if (prediction) await this.serial(() => this.predictor!.discard()).catch(() => undefined);
      throw e;
    }
    if (prediction) {
      try {
        const found = await this.serial(() => this.predictor!.observe(toRun, prediction, outcome));
        for (const d of found)
          scope.diverged?.({
            ...d,
            skill: call.skill,
            via: scope.via,
            ...(scope.tool ? { tool: scope.tool } : {}),
            ...(scope.callId ? { callId: scope.callId } : {}),
          });
      } catch (e) {
        scope.diverged?.({
          kind: 'outcome',
          subject: 'shadow',
          predicted: 'a synchronised shadow',
          actual: `could not compare: ${e instanceof Error ? e.message : String(e)}`,
          skill: call.skill,
          via: scope.via,
        });
      }
    }
    // What ran is not what was asked: the outcome says so first, so its numbers (a wait's
    // seconds, a step's metres) read as the clamped ones they are.
    if (st.verdict === 'clamp')
      return { ...outcome, summary: `the safety chain changed the call (${st.reasons.join('; ')}); ${outcome.summary}` };
    return outcome;
  }

  private async clock(): Promise<number> {
    try {
      const t = await this.robot.time();
      if (Number.isFinite(t)) return t;
    } catch {
      // A robot that cannot say its time is rate-limited by ours.
    }
    return performance.now() / 1000;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

function where(call: SkillCall, scope: SafetyScope): Pick<DivergenceReport, 'skill' | 'via' | 'tool' | 'callId'> {
  return {
    skill: call.skill,
    via: scope.via,
    ...(scope.tool ? { tool: scope.tool } : {}),
    ...(scope.callId ? { callId: scope.callId } : {}),
  };
}

function summaryOf(o: Outcome): { ok: boolean; code?: string; summary: string } {
  return o.ok ? { ok: true, summary: o.summary } : { ok: false, code: o.code, summary: o.summary };
}
