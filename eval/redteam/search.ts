// The red team's search: per suite, play the named shapes (and any recorded
// champions), then breed — mutate a strategy's parameters and compositions,
// cross two — selecting parents by the metric being attacked, round robin over
// the metrics, until the budget of cases played (or minutes) is spent. A new
// strategy first plays a short, stratified prefix of the cases and earns the
// rest only if it beats floor:noop there on some figure (racing), so the budget
// goes to strategies that score. Credit is counted only where the case's goal
// was not reached (goals.ts): a case a strategy really solved is scored as
// floor:noop scored it, so what remains is credit without the goal.
import type { EvalCase } from '../core/case';
import type { AnySuite } from '../core/suite';
import { hash32, seededRandom } from '../reference/rng';
import type { ResultRecord } from '../results/index';
import { FIELDS, type Genome, SEEDS, VERBS, crossover, describe, genomeKey, mutate, randomGenome, sweep } from './genome';
import { type AttackedMetric, attackedOf, figuresOf } from './metrics';
import { type Play, PlayCache, type PlayContext, playCase } from './play';

export interface SearchOptions {
  /** Cases played at most (every strategy's, floor:noop's included). */
  budget: number;
  /** Wall-clock minutes at most (checked between strategies). */
  minutes?: number;
  seed: number;
  /** Cases a new strategy plays before it earns the rest (default: a quarter, at least 8). */
  race?: number;
  /** Strategies to play first: recorded champions (a previous run's bests). */
  champions?: Array<{ name: string; genome: Genome }>;
  /** The named shapes to start from (default: SEEDS). */
  seeds?: Record<string, Genome>;
  /** The metrics to attack (default: the suite's, metrics.ts). */
  metrics?: AttackedMetric[];
  onProgress?: (line: string) => void;
}

export interface MetricBest {
  id: string;
  label: string;
  raw: boolean;
  /** floor:noop's figure on the same cases. */
  noop: number | null;
  /** The best figure found without reaching the goal. */
  best: number | null;
  /** The best figure of any strategy counting every case, the goals reached too (credit from a bias, e.g. a first branch that is usually right). */
  withGoals: number | null;
  /** Cases whose goal that strategy reached (its credit there not counted). */
  goals: number;
  /** The strategy that found it: its lineage and what it does. */
  name: string | null;
  strategy: string | null;
  genome: Genome | null;
}

export interface SuiteAttackResult {
  suite: string;
  cases: number;
  /** Cases played, all strategies and floor:noop together. */
  plays: number;
  /** Plays replayed from the cache (a strategy that would make exactly the turns of one already played). */
  replayed: number;
  seconds: number;
  /** Strategies tried, and those that played every case. */
  strategies: number;
  full: number;
  metrics: MetricBest[];
  /** Plays that ended in an error (scored as floor:noop). */
  errors: number;
}

/** The cases in an order whose every prefix is spread over the suite's categories (round robin, each group seeded). */
export function stratified(cases: readonly EvalCase[], axis: string | undefined, seed: number): EvalCase[] {
  const groups = new Map<string, EvalCase[]>();
  for (const c of cases) {
    const k = axis ? (c.labels[axis] ?? '') : '';
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const ordered = [...groups.values()].map((g) => [...g].sort((a, b) => hash32(`${seed}:${a.id}`) - hash32(`${seed}:${b.id}`)));
  const out: EvalCase[] = [];
  for (let i = 0; out.length < cases.length; i++) for (const g of ordered) if (g[i]) out.push(g[i]!);
  return out;
}

interface Evaluated {
  name: string;
  genome: Genome;
  /** Played every case. */
  full: boolean;
  /** Credit rows (a reached goal or an error replaced by floor:noop's row), over the cases played. */
  rows: ResultRecord[];
  figures: Record<string, number | null>;
  /** The figures counting the goals reached too. */
  withGoals: Record<string, number | null>;
  goals: number;
  errors: number;
}

const better = (a: number | null | undefined, b: number | null | undefined) => (a ?? -Infinity) > (b ?? -Infinity) + 1e-9;

/** Attacks one suite's scorer on `cases` (in the order given: stratify first). */
export async function attackSuite(
  suite: AnySuite,
  cases: readonly EvalCase[],
  given: PlayContext,
  o: SearchOptions,
): Promise<SuiteAttackResult> {
  const t0 = performance.now();
  const ctx: PlayContext = { ...given, cache: given.cache ?? new PlayCache() };
  const metrics = o.metrics ?? attackedOf(suite.id);
  const rnd = seededRandom(o.seed);
  const race = Math.min(cases.length, o.race ?? Math.max(8, Math.ceil(cases.length / 4)));
  let plays = 0;
  const outOfTime = () => o.minutes !== undefined && performance.now() - t0 > o.minutes * 60_000;
  const playAll = async (who: Parameters<typeof playCase>[2], list: readonly EvalCase[]): Promise<Play[]> => {
    const out: Play[] = [];
    for (const c of list) {
      if (ctx.signal?.aborted) break;
      const p = await playCase(suite, c, who, ctx);
      out.push(p);
      if (!p.cached) plays++;
    }
    return out;
  };
  const noop = new Map<string, ResultRecord>();
  for (const p of await playAll({ spec: 'floor:noop' }, cases)) noop.set(p.caseId, p.row);
  const noopRows = (ids: readonly string[]) => ids.flatMap((id) => (noop.has(id) ? [noop.get(id)!] : []));
  const credit = (ps: readonly Play[]) => ps.map((p) => (p.row.status === 'ok' && p.goal !== true ? p.row : (noop.get(p.caseId) ?? p.row)));
  const prefixIds = cases.slice(0, race).map((c) => c.id);
  const noopPrefix = figuresOf(suite.report, metrics, noopRows(prefixIds));
  const noopFull = figuresOf(suite.report, metrics, noopRows(cases.map((c) => c.id)));

  const seen = new Map<string, Evaluated>();
  const evaluate = async (name: string, genome: Genome): Promise<Evaluated | undefined> => {
    const key = genomeKey(genome);
    if (seen.has(key)) return seen.get(key);
    const first = await playAll({ genome }, cases.slice(0, race));
    let played = first;
    const f0 = figuresOf(suite.report, metrics, credit(first));
    const promising = metrics.some((m) => better(f0[m.id] ?? null, noopPrefix[m.id] ?? 0));
    if (promising && race < cases.length && !outOfTime()) played = [...first, ...(await playAll({ genome }, cases.slice(race)))];
    const full = played.length === cases.length;
    const rows = credit(played);
    const all = played.map((p) => (p.row.status === 'ok' ? p.row : (noop.get(p.caseId) ?? p.row)));
    const e: Evaluated = {
      name,
      genome,
      full,
      rows,
      figures: full ? figuresOf(suite.report, metrics, rows) : f0,
      withGoals: full ? figuresOf(suite.report, metrics, all) : {},
      goals: played.filter((p) => p.goal === true).length,
      errors: played.filter((p) => p.row.status !== 'ok').length,
    };
    seen.set(key, e);
    o.onProgress?.(
      `${suite.id}: ${name}${full ? '' : ' (prefix)'}: ${metrics.map((m) => `${m.label} ${fmt(e.figures[m.id])}`).join(', ')}`,
    );
    return e;
  };

  for (const c of o.champions ?? []) {
    if (plays >= o.budget || outOfTime()) break;
    await evaluate(c.name, c.genome);
  }
  for (const [name, g] of Object.entries(o.seeds ?? SEEDS)) {
    if (plays >= o.budget || outOfTime()) break;
    await evaluate(name, g);
  }
  // Breeding: parents by tournament on the metric attacked this round.
  let round = 0;
  let stale = 0;
  while (plays + race <= o.budget && !outOfTime() && !ctx.signal?.aborted && stale < 50) {
    const m = metrics[round++ % metrics.length]!;
    const pool = [...seen.values()];
    const pick = () => {
      let best: Evaluated | undefined;
      for (let i = 0; i < 3; i++) {
        const x = pool[Math.floor(rnd() * pool.length)]!;
        const score = (e: Evaluated) => (e.full ? 1 : 0) * 1e3 + (e.figures[m.id] ?? -1);
        if (!best || score(x) > score(best)) best = x;
      }
      return best!;
    };
    const a = pick();
    const r = rnd();
    let child: Genome;
    let name: string;
    const root = (n: string) => n.replace(/^(mutant|cross|sweep) of /, '');
    if (r < 0.25) {
      // A sweep: one answer field over its choices (for one verb, half the time), side by side.
      const field = Math.floor(rnd() * FIELDS);
      const verb = rnd() < 0.5 ? Math.floor(rnd() * VERBS.length) : undefined;
      const fresh = sweep(a.genome, field, verb).filter((g) => !seen.has(genomeKey(g)));
      if (!fresh.length) {
        stale++;
        continue;
      }
      stale = 0;
      for (const g of fresh) {
        if (plays + race > o.budget || outOfTime()) break;
        await evaluate(`sweep of ${root(a.name)}`, g);
      }
      continue;
    }
    if (r < 0.7) {
      child = a.genome;
      for (let i = 1 + Math.floor(rnd() * 3); i > 0; i--) child = mutate(child, rnd);
      name = `mutant of ${root(a.name)}`;
    } else if (r < 0.92) {
      const b = pick();
      child = crossover(a.genome, b.genome, rnd);
      name = `cross of ${root(a.name)} × ${root(b.name)}`;
    } else {
      child = randomGenome(rnd);
      name = 'random';
    }
    if (seen.has(genomeKey(child))) {
      stale++;
      continue;
    }
    stale = 0;
    await evaluate(name, child);
  }

  const fulls = [...seen.values()].filter((e) => e.full);
  const bests: MetricBest[] = metrics.map((m) => {
    let top: Evaluated | undefined;
    let withGoals: number | null = null;
    for (const e of fulls) {
      if (!top || better(e.figures[m.id], top.figures[m.id])) top = e;
      if (better(e.withGoals[m.id], withGoals)) withGoals = e.withGoals[m.id] ?? null;
    }
    // No strategy beat floor:noop on the race prefix: the best known is floor:noop's own
    // (none was tried at all when floor:noop's plays spent the budget: left null, untested).
    const floor = seen.size ? (noopFull[m.id] ?? null) : null;
    return {
      id: m.id,
      label: m.label,
      raw: Boolean(m.raw),
      noop: noopFull[m.id] ?? null,
      best: better(top?.figures[m.id], floor) ? (top?.figures[m.id] ?? null) : floor,
      withGoals,
      goals: top?.goals ?? 0,
      name: top?.name ?? null,
      strategy: top ? describe(top.genome) : null,
      genome: top?.genome ?? null,
    };
  });
  return {
    suite: suite.id,
    cases: cases.length,
    plays,
    replayed: ctx.cache!.hits,
    seconds: Math.round((performance.now() - t0) / 100) / 10,
    strategies: seen.size,
    full: fulls.length,
    metrics: bests,
    errors: [...seen.values()].reduce((n, e) => n + e.errors, 0),
  };
}

export const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(3));

/** The metrics of a result that break the line: a non-raw figure more than `margin` above floor:noop's. */
export function overTheLine(r: SuiteAttackResult, margin = 0.1): MetricBest[] {
  return r.metrics.filter((m) => !m.raw && m.best !== null && m.best > (m.noop ?? 0) + margin + 1e-9);
}
