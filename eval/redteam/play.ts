// Playing a strategy on a suite's cases exactly as `skillbridge eval` does: each
// case through the runner (a world restored from its snapshot, the conversation
// service, the suite's workflow and scorer), the strategy standing in for the
// model. Then the case's recorded end state is restored and its goal judged
// (goals.ts), so the red team can tell earned credit from credit without it.
import path from 'node:path';
import type { ModelFiles, ModelSpec } from '../../base/host-refs';
import type { CompletionRequest, Model } from '../../agents/models/model';
import type { PolicyTurn } from '../core/suite';
import { SimWorldModel } from '../../robot/sim/world-model';
import type { EvalCase } from '../core/case';
import { endStateFile, readEndState } from '../core/end-state';
import type { AnySuite, CaseOutcome } from '../core/suite';
import type { WorldPool } from '../core/world';
import { withSimulatedUser } from '../core/simulated-user';
import type { ResultRecord } from '../results/index';
import { runCase, traceFileName } from '../runner/run-case';
import type { Genome } from './genome';
import { goalReached } from './goals';
import { strategyModel, strategyTurn } from './strategy';

/** A goal of one's own (a toy suite's, in the search's own test); default: goals.ts. */
export type GoalFn = (suite: AnySuite, c: EvalCase, o: CaseOutcome) => Promise<boolean | undefined> | boolean | undefined;

/** How a red-team run names models: the door's policy (the command line's; a test's). */
export interface RedTeamRefs {
  model(spec: string, field?: string): ModelSpec;
  files(): ModelFiles;
}

export interface PlayContext {
  pool: WorldPool;
  /** Plays already made, replayed without running when a strategy would make exactly the same turns. */
  cache?: PlayCache;
  traceDir: string;
  seed: number;
  refs: RedTeamRefs;
  goal?: GoalFn;
  signal?: AbortSignal;
}

/** Who plays: a genome, or a reference model spec (floor:noop, the oracle). */
export type Player = { genome: Genome } | { spec: 'floor:noop' | 'oracle' };

export interface Play {
  caseId: string;
  row: ResultRecord;
  /** The goal was reached (judged from the end state); undefined when the case could not be judged (an error). */
  goal: boolean | undefined;
  ms: number;
  /** Replayed from the cache: no case was run. */
  cached?: boolean;
}

interface Node {
  req: CompletionRequest;
  next: Map<string, Node | { play: Play }>;
}

const turnKey = (t: PolicyTurn) =>
  JSON.stringify([t.content ?? null, (t.tool_calls ?? []).map((c) => [c.function.name, c.function.arguments ?? null])]);

/**
 * Plays by the turns made: a case is deterministic (the same world, seed and
 * replies give the same requests and the same end), so a strategy whose turn for
 * every request on a recorded path is the recorded one would play exactly that
 * game again. Its result is taken from the cache instead of running the case.
 */
export class PlayCache {
  private readonly roots = new Map<string, Node>();
  hits = 0;

  /** The recorded play this strategy would make on this case, if it is one. */
  lookup(caseId: string, turn: (req: CompletionRequest) => PolicyTurn): Play | undefined {
    let node = this.roots.get(caseId);
    while (node) {
      const next = node.next.get(turnKey(turn(node.req)));
      if (!next) return undefined;
      if ('play' in next) {
        this.hits++;
        return { ...next.play, cached: true };
      }
      node = next;
    }
    return undefined;
  }

  /** Records a play: the requests it met and the turns it made, in order. */
  record(caseId: string, steps: ReadonlyArray<{ req: CompletionRequest; turn: PolicyTurn }>, play: Play): void {
    if (!steps.length) return;
    let node = this.roots.get(caseId);
    if (!node) this.roots.set(caseId, (node = { req: steps[0]!.req, next: new Map() }));
    steps.forEach((s, i) => {
      const key = turnKey(s.turn);
      if (i === steps.length - 1) {
        node!.next.set(key, { play });
        return;
      }
      let child = node!.next.get(key);
      if (!child || 'play' in child) node!.next.set(key, (child = { req: steps[i + 1]!.req, next: new Map() }));
      node = child;
    });
  }
}

/** A request as the model saw it, kept after the call (the flow's list grows afterwards). */
function kept(req: CompletionRequest): CompletionRequest {
  return { messages: [...req.messages], ...(req.tools ? { tools: req.tools } : {}) };
}

function recordOf(c: EvalCase, r: Awaited<ReturnType<typeof runCase>>['record']): ResultRecord {
  const metrics: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(r.metrics ?? {})) metrics[k] = typeof v === 'boolean' ? Number(v) : v;
  return {
    runId: 'red-team',
    caseId: c.id,
    trial: r.trial ?? 1,
    status: r.status,
    success: r.success ?? null,
    score: r.score ?? null,
    metrics,
    labels: c.labels,
    durationMs: r.durationMs ?? null,
    modelMs: r.modelMs ?? null,
    tokensIn: null,
    tokensOut: null,
    costUsd: null,
    toolCalls: r.toolCalls ?? null,
    failureClass: r.failureClass ?? null,
    error: r.error ?? null,
    errorKind: r.errorKind ?? null,
    tracePath: r.tracePath ?? null,
    worldHashStart: r.worldHashStart ?? null,
    worldHashEnd: r.worldHashEnd ?? null,
    scorerVersion: r.scorerVersion ?? null,
    recordedAt: '',
  };
}

/** The case's end state as its scorer saw it: the world restored, the robot's world model, the events and the answer. */
async function outcomeOf(c: EvalCase, file: string, pool: WorldPool): Promise<CaseOutcome> {
  const end = readEndState(file);
  const { cw, robot: simRobot } = await pool.checkout(c.world);
  cw.control.restore(end.world);
  if (end.worldModel && simRobot.worldModel instanceof SimWorldModel) simRobot.worldModel.restoreEdits(end.worldModel);
  const robot = withSimulatedUser(simRobot, cw.control, c.answers);
  return { events: end.events, times: end.times, turn: end.turn, control: cw.control, robot, extra: end.extra };
}

/** Plays one case. */
export async function playCase(suite: AnySuite, c: EvalCase, who: Player, ctx: PlayContext): Promise<Play> {
  const t0 = performance.now();
  const genome = 'genome' in who ? who.genome : undefined;
  if (genome && ctx.cache) {
    const hit = ctx.cache.lookup(c.id, (req) => strategyTurn(genome, req));
    if (hit) return hit;
  }
  const steps: Array<{ req: CompletionRequest; turn: PolicyTurn }> = [];
  const model: Model | undefined = genome ? (ctx.cache ? recording(strategyModel(genome), steps) : strategyModel(genome)) : undefined;
  const r = await runCase({
    suite,
    case: c,
    trial: 1,
    workflow: suite.defaultWorkflow,
    model: ctx.refs.model('genome' in who ? 'floor:noop' : who.spec),
    files: ctx.refs.files(),
    seed: ctx.seed,
    pool: ctx.pool,
    traceDir: ctx.traceDir,
    // The strategy stands in for the model the spec names: it sees only the requests.
    ...(model ? { wrapModel: () => model } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  const row = recordOf(c, r.record);
  let goal: boolean | undefined;
  if (row.status === 'ok') {
    const file = endStateFile(path.join(ctx.traceDir, traceFileName(c.id, 1)));
    const o = await outcomeOf(c, file, ctx.pool);
    goal = await (ctx.goal ?? ((s, x, y) => goalReached(s, x, y)))(suite, c, o);
  }
  const play: Play = { caseId: c.id, row, goal, ms: performance.now() - t0 };
  // Only a play that ran to its end is a game worth replaying (an error may not repeat).
  if (genome && ctx.cache && row.status === 'ok') ctx.cache.record(c.id, steps, play);
  return play;
}

/** The model, noting each request and the turn it made. */
function recording(model: Model, steps: Array<{ req: CompletionRequest; turn: PolicyTurn }>): Model {
  return {
    id: model.id,
    async complete(req) {
      const out = await model.complete(req);
      const m = out.message;
      steps.push({
        req: kept(req),
        turn: { content: m.content ?? null, ...(m.tool_calls?.length ? { tool_calls: m.tool_calls } : {}) },
      });
      return out;
    },
  };
}
