// Runs one case × trial: restore the case's world from its snapshot, open a
// conversation through the one conversation service, send the instruction,
// score from the final physical state and the event order, and return the row
// for the results database. A case whose outcome is unknown (its model could not
// be reached, the scorer did not decide, it crashed) comes back as status "error"
// with the kind and cause (verdict.ts); a stopped one as "stopped". Nothing here throws.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ConversationSpecError, openConversation } from '../../agents/conversation';
import { type Model, ModelError } from '../../agents/models/model';
import { createModel } from '../../agents/models/spec';
import type { ModelFiles, ModelSpec } from '../../base/host-refs';
import type { FlowEvent } from '../../agents/runtime/events';
import type { TurnResult } from '../../agents/runtime/conversation';
import { JsonlSink } from '../../agents/runtime/trace';
import type { ResultInput } from '../results/index';
import type { EvalCase } from '../core/case';
import { endStateFile, writeEndState } from '../core/end-state';
import { toolMs } from '../core/events';
import { type AnySuite, type CaseOutcome, type MetricValue, PER_CASE } from '../core/suite';
import type { WorldPool } from '../core/world';
import { SimWorldModel } from '../../robot/sim/world-model';
import { referenceModelFactories } from '../reference/factories';
import { simulatedAskUser, withSimulatedUser } from '../core/simulated-user';
import { CaseClock, type MachineTurns, releasingWhileWaiting } from '../scale/machine-turns';
import { scorerVersion } from './cases';
import { type Unscored, caseScore, isUnscored, modelErrorKind, modelFailure } from './verdict';

export interface CaseRunInput {
  suite: AnySuite;
  case: EvalCase;
  trial: number;
  workflow: string;
  model: ModelSpec;
  seed: number;
  pool: WorldPool;
  /** Lease a world of its own (several cases in flight in this thread) instead of sharing the key's one. */
  lease?: boolean;
  /** Wraps the case's model (the shared rate limiter). */
  wrapModel?: (m: Model) => Model;
  /** The thread's machine, taken in turns by the cases in flight (each holds it but while its model thinks). */
  turns?: MachineTurns;
  /** Traces of this run go here (one file per case × trial). */
  traceDir: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Where the model and the judge may read `scripted:FILE` and `local:` files: the door's grant, never a default. */
  files: ModelFiles;
  signal?: AbortSignal;
  /** Overrides the case's own turn bounds (--time-limit, --max-iterations). */
  limits?: { timeLimitS?: number; maxIterations?: number };
  /** The free-text judge's model spec (--judge), where the suite has a judge. */
  judge?: ModelSpec;
  /** The judge's environment, where it is not the model's. */
  judgeEnv?: Readonly<Record<string, string | undefined>>;
}

export interface CaseTiming {
  totalMs: number;
  /** Restoring the world's snapshot. */
  restoreMs: number;
  /** Building the world the first time a process meets it (0 after that). */
  buildMs: number;
  modelMs: number;
  /** The robot's skills and perception (the workload, like the model). */
  toolMs: number;
  /** Everything else: the harness (restore, hashes, opening the conversation, scoring, the trace). */
  overheadMs: number;
}

export interface CaseResult {
  record: ResultInput;
  timing: CaseTiming;
}

/** A file name for a case × trial's trace. */
export function traceFileName(caseId: string, trial: number): string {
  return `${caseId.replace(/[^A-Za-z0-9._-]+/g, '_')}.t${trial}.jsonl`;
}

function timed(model: Model, acc: { ms: number }): Model {
  return {
    id: model.id,
    ...(model.input ? { input: model.input } : {}),
    async complete(req) {
      const t0 = performance.now();
      try {
        return await model.complete(req);
      } finally {
        acc.ms += performance.now() - t0;
      }
    },
  };
}

function oneLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.replace(/\s+/g, ' ').trim().slice(0, 500) || 'unknown error';
}

export async function runCase(input: CaseRunInput): Promise<CaseResult> {
  const { suite, trial } = input;
  const t0 = performance.now();
  const modelTime = { ms: 0 };
  const timing: CaseTiming = { totalMs: 0, restoreMs: 0, buildMs: 0, modelMs: 0, toolMs: 0, overheadMs: 0 };
  const base: ResultInput = { caseId: input.case.id, trial, status: 'error', labels: input.case.labels };
  const events: FlowEvent[] = [];
  const times: number[] = [];
  const tracePath = path.join(input.traceDir, traceFileName(input.case.id, trial));
  const finish = (record: ResultInput): CaseResult => {
    timing.totalMs = performance.now() - t0;
    timing.modelMs = modelTime.ms;
    timing.toolMs = toolMs(events);
    timing.overheadMs = Math.max(0, timing.totalMs - timing.buildMs - timing.modelMs - timing.toolMs);
    return { record: { ...record, durationMs: Math.round(timing.totalMs), modelMs: Math.round(modelTime.ms) }, timing };
  };
  if (input.signal?.aborted) return finish({ ...base, status: 'stopped' });
  let hashStart: string | null = null;
  let release: (() => void) | undefined;
  // Several cases in flight on this thread take turns at it (eval/scale/machine-turns.ts).
  const machine = input.turns ? { turns: input.turns, who: {}, clock: new CaseClock() } : undefined;
  const letGo = () => machine?.turns.done(machine.who);
  try {
    const c = { ...input.case, gold: suite.gold.parse(input.case.gold) };
    const tb = performance.now();
    const before = input.pool.keys().includes(c.world.key);
    const builtBefore = input.pool.made.built + input.pool.made.restored;
    const leased = input.lease ? await input.pool.lease(c.world) : undefined;
    release = leased?.release;
    if (machine) await machine.turns.enter(machine.who, machine.clock);
    const { cw, robot: simRobot, restoreMs } = leased ?? (await input.pool.checkout(c.world));
    if (leased ? input.pool.made.built + input.pool.made.restored > builtBefore : !before)
      timing.buildMs = performance.now() - tb - restoreMs;
    timing.restoreMs = restoreMs;
    hashStart = cw.control.hash();
    const robot = withSimulatedUser(simRobot, cw.control, c.answers);
    const binding = {
      suite,
      case: input.case,
      workflow: input.workflow === PER_CASE && suite.caseWorkflow ? suite.caseWorkflow(c) : input.workflow,
      seed: input.seed,
      trial,
    };
    const factories = referenceModelFactories(() => binding);
    const created = createModel(input.model, {
      factories,
      factoryContext: { robot, sim: cw.control, scene: c.world.scene, seed: input.seed },
      ...(input.env ? { env: input.env } : {}),
      scriptFiles: input.files.scripts,
      localModels: input.files.localModels,
    });
    const model0 = timed(input.wrapModel ? input.wrapModel(created) : created, modelTime);
    const model = machine ? releasingWhileWaiting(model0, machine.turns, machine.who, machine.clock) : model0;
    const limitsOf = (l?: { timeLimitS?: number; maxIterations?: number }) => ({
      ...(l?.timeLimitS !== undefined ? { timeLimitMs: l.timeLimitS * 1000 } : {}),
      ...(l?.maxIterations !== undefined ? { maxIterations: l.maxIterations } : {}),
    });
    const limits = { ...limitsOf(c.limits), ...limitsOf(input.limits), ...(machine ? { clock: machine.clock.now } : {}) };
    rmSync(tracePath, { force: true });
    rmSync(endStateFile(tracePath), { force: true });
    const open = async (workflow: string, toolSet: string | undefined, file: string) =>
      openConversation({
        robot,
        workflow: (await suite.ownWorkflows?.[workflow]?.(c, robot)) ?? workflow,
        ...(toolSet ? { toolSet } : {}),
        model,
        limits,
        traceSinks: () => [new JsonlSink(file)],
        scene: c.world.scene,
        seed: input.seed,
        onEvent: (e) => {
          events.push(e);
          times.push(cw.control.time());
        },
        ...(c.answers ? { askUser: simulatedAskUser(c.answers)! } : {}),
      });
    const workflow = input.workflow === PER_CASE && suite.caseWorkflow ? suite.caseWorkflow(c) : input.workflow;
    const opened = await open(workflow, c.toolSet, tracePath);
    const stop = () => opened.conversation.stop('stopped: the evaluation was interrupted');
    input.signal?.addEventListener('abort', stop, { once: true });
    let turn: TurnResult;
    const extra: Record<string, unknown> = {};
    try {
      turn = await opened.conversation.send(c.instruction);
      if (suite.afterTurn && !input.signal?.aborted) {
        let n = 1;
        await suite.afterTurn({
          case: c,
          events,
          times,
          turn,
          extra,
          sendFresh: async (o) => {
            n++;
            const next = await open(o.workflow, o.toolSet, tracePath.replace(/\.jsonl$/, `.turn${n}.jsonl`));
            const relay = () => next.conversation.stop('stopped: the evaluation was interrupted');
            input.signal?.addEventListener('abort', relay, { once: true });
            try {
              return await next.conversation.send(o.message);
            } finally {
              input.signal?.removeEventListener('abort', relay);
            }
          },
        });
      }
    } finally {
      input.signal?.removeEventListener('abort', stop);
    }
    if (input.signal?.aborted) return finish({ ...base, status: 'stopped', tracePath, worldHashStart: hashStart });
    const outcome: CaseOutcome = { events, times, turn, control: cw.control, robot, extra };
    // What the scorer reads, recorded first, so `skillbridge rescore` can score it again without running it.
    writeEndState(endStateFile(tracePath), {
      caseId: c.id,
      trial,
      hash: cw.control.hash(),
      scorer: scorerVersion(suite.id),
      world: cw.control.snapshot(),
      worldModel: simRobot.worldModel instanceof SimWorldModel ? simRobot.worldModel.edits() : null,
      events,
      times,
      turn,
      extra,
    });
    const usage = {
      tokensIn: turn.usage.promptTokens,
      tokensOut: turn.usage.completionTokens,
      ...(turn.usage.costUsd !== undefined ? { costUsd: turn.usage.costUsd } : {}),
      toolCalls: events.filter((e) => e.type === 'tool_start').length,
      tracePath,
      worldHashStart: hashStart,
      worldHashEnd: cw.control.hash(),
    };
    const unscored = (u: Unscored & { metrics?: Record<string, number | boolean | null> }, judge?: string) =>
      finish({
        ...base,
        status: 'error',
        error: u.why,
        errorKind: u.kind,
        ...usage,
        ...(u.metrics ? { metrics: u.metrics } : {}),
        ...(judge ? { scorerVersion: judge } : {}),
      });
    // A model that was never heard (unreachable, refused, failing after its retries) did not show what it would do.
    const failed = modelFailure(events, turn);
    if (failed) return unscored(failed);
    // From here the suite's scorer judges the row: its version goes with the row (a rescore records its own).
    const judge = scorerVersion(suite.id);
    let scored;
    try {
      scored = await suite.score(c, outcome);
    } catch (e) {
      return unscored({ kind: 'scorer-undecided', why: `the scorer failed: ${oneLine(e)}` }, judge);
    }
    const metrics = numeric(scored.metrics);
    const score = caseScore(suite.report, scored.metrics);
    if (isUnscored(score)) return unscored({ ...score, metrics }, judge);
    const done = finish({
      ...base,
      scorerVersion: judge,
      status: 'ok',
      score,
      success: scored.success ?? score >= 1,
      metrics,
      failureClass: scored.failureClass ?? null,
      ...usage,
    });
    // The judge runs after the case's clock stopped: its time is not the case's.
    letGo();
    if (input.judge && suite.judge) {
      const asked = suite.judge.prompt(c, outcome);
      if (asked) done.record.metrics = { ...metrics, [suite.judge.metric]: await judgeCase(input.judge, asked, input) };
    }
    return done;
  } catch (e) {
    if (input.signal?.aborted) return finish({ ...base, status: 'stopped', worldHashStart: hashStart });
    const why = e instanceof ConversationSpecError ? `${e.field}: ${e.message}` : oneLine(e);
    // A model that cannot be made (a missing script, a bad key) is the model's kind of error; anything else a crash.
    const errorKind = e instanceof ModelError ? modelErrorKind(e.kind) : 'crash';
    return finish({ ...base, status: 'error', error: why, errorKind, tracePath, worldHashStart: hashStart });
  } finally {
    letGo();
    release?.();
  }
}

/** The judge's yes or no as 1 or 0; null when it cannot be reached or answers neither. */
async function judgeCase(spec: ModelSpec, asked: { system: string; user: string }, input: CaseRunInput): Promise<number | null> {
  try {
    const env = input.judgeEnv ?? input.env;
    const model = createModel(spec, { ...(env ? { env } : {}), scriptFiles: input.files.scripts, localModels: input.files.localModels });
    const r = await model.complete({
      messages: [
        { role: 'system', content: asked.system },
        { role: 'user', content: asked.user },
      ],
      temperature: 0,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const m = /\b(yes|no)\b/i.exec(r.message.content ?? '');
    return m ? (m[1]!.toLowerCase() === 'yes' ? 1 : 0) : null;
  } catch {
    return null;
  }
}

function numeric(m: Record<string, MetricValue>): Record<string, number | boolean | null> {
  const out: Record<string, number | boolean | null> = {};
  for (const [k, v] of Object.entries(m)) out[k] = typeof v === 'number' && !Number.isFinite(v) ? null : v;
  return out;
}
