// Two runs of one suite case by case: each case × trial of A matched with the same
// case × trial of B, the trials that flipped (pass → fail, fail → pass), the score
// deltas, and paired tests — the exact McNemar test on the flips and the exact
// sign test on the score deltas, with a paired bootstrap interval of the mean
// delta. Runs of different suites or case sets are not comparable: refused.
import { bootstrap } from './intervals';
import type { LoadedRun } from './load';
import type { TableModel } from './tables';
import type { ResultRecord } from '../results/index';

export class ComparisonError extends Error {
  override name = 'ComparisonError';
  readonly code = 'not-comparable';
}

export interface Side {
  status: ResultRecord['status'];
  /** null for an error or a stopped trial: no score, so the pair is left out, as in the headline. */
  score: number | null;
  pass: boolean | null;
}

export interface CaseDiff {
  caseId: string;
  trial: number;
  a: Side;
  b: Side;
  /** b − a; null when either trial was stopped or ended in an error. */
  delta: number | null;
  flip: 'pass→fail' | 'fail→pass' | null;
}

export interface PairedTest {
  /** Discordant pairs in each direction. */
  up: number;
  down: number;
  /** Two-sided exact binomial p-value on the discordant pairs (1 when there are none). */
  p: number;
}

export interface Comparison {
  suite: string;
  a: string;
  b: string;
  /** Case × trials scored in both runs. */
  paired: number;
  /** Case × trials left out: an error (no score) or a stop in either run. */
  leftOut: { errors: number; stopped: number };
  /** McNemar's exact test on pass/fail flips: up = fail→pass, down = pass→fail. */
  mcnemar: PairedTest;
  /** Score deltas: mean of b − a, its 95 % paired bootstrap interval (resampling cases), and the exact sign test. */
  scores: { meanDelta: number | null; interval: { low: number; high: number } | null; sign: PairedTest };
  flipped: CaseDiff[];
  /** Every matched case × trial, in A's order. */
  cases: CaseDiff[];
}

const key = (r: { caseId: string; trial: number }) => `${r.caseId}#${r.trial}`;

function side(r: ResultRecord): Side {
  if (r.status !== 'ok') return { status: r.status, score: null, pass: null };
  return { status: r.status, score: r.score ?? 0, pass: Boolean(r.success) };
}

/** log C(n, k), exactly enough for the tails below (lgamma by summing logs). */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/** Two-sided exact binomial test of up vs down at p = ½ (McNemar's exact test, the sign test). */
export function exactPaired(up: number, down: number): PairedTest {
  const n = up + down;
  if (n === 0) return { up, down, p: 1 };
  const k = Math.min(up, down);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return { up, down, p: Math.min(1, 2 * tail) };
}

function describeMissing(keys: string[], run: string): string {
  return `${keys.length} case × trial${keys.length === 1 ? '' : 's'} missing from ${run} (e.g. ${keys[0]})`;
}

/** Compares B against A; throws ComparisonError when they are not runs of one suite over one case set. */
export function compareRuns(A: LoadedRun, B: LoadedRun): Comparison {
  const a = A.run.runId;
  const b = B.run.runId;
  if (A.run.suite !== B.run.suite)
    throw new ComparisonError(`runs ${a} (${A.run.suite}) and ${b} (${B.run.suite}) are of different suites; compare runs of one suite`);
  const inB = new Map(B.results.map((r) => [key(r), r]));
  const inA = new Set(A.results.map(key));
  const notInB = A.results.map(key).filter((k) => !inB.has(k));
  const notInA = B.results.map(key).filter((k) => !inA.has(k));
  if (notInB.length || notInA.length) {
    const why = [notInB.length ? describeMissing(notInB, b) : '', notInA.length ? describeMissing(notInA, a) : '']
      .filter(Boolean)
      .join('; ');
    throw new ComparisonError(`runs ${a} and ${b} are of different case sets: ${why}; compare runs over the same cases and trials`);
  }
  const cases: CaseDiff[] = A.results.map((ra) => {
    const rb = inB.get(key(ra))!;
    const sa = side(ra);
    const sb = side(rb);
    const both = sa.pass !== null && sb.pass !== null;
    return {
      caseId: ra.caseId,
      trial: ra.trial,
      a: sa,
      b: sb,
      delta: both ? sb.score! - sa.score! : null,
      flip: both && sa.pass !== sb.pass ? (sa.pass ? 'pass→fail' : 'fail→pass') : null,
    };
  });
  const paired = cases.filter((c) => c.delta !== null);
  const deltas = paired.map((c) => c.delta!);
  const byCase = new Map<string, number[]>();
  for (const c of paired) byCase.set(c.caseId, [...(byCase.get(c.caseId) ?? []), c.delta!]);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
  const iv = bootstrap([...byCase.values()], mean);
  return {
    suite: A.run.suite,
    a,
    b,
    paired: paired.length,
    leftOut: {
      errors: cases.filter((c) => c.a.status === 'error' || c.b.status === 'error').length,
      stopped: cases.filter(
        (c) => c.a.status !== 'error' && c.b.status !== 'error' && (c.a.status === 'stopped' || c.b.status === 'stopped'),
      ).length,
    },
    mcnemar: exactPaired(cases.filter((c) => c.flip === 'fail→pass').length, cases.filter((c) => c.flip === 'pass→fail').length),
    scores: {
      meanDelta: mean(deltas),
      interval: iv ? { low: iv.low, high: iv.high } : null,
      sign: exactPaired(deltas.filter((d) => d > 0).length, deltas.filter((d) => d < 0).length),
    },
    flipped: cases.filter((c) => c.flip !== null),
    cases,
  };
}

const f3 = (v: number | null) => (v === null ? '—' : v.toFixed(3));
const leftOut = (c: Comparison) =>
  c.leftOut.errors || c.leftOut.stopped
    ? ` (left out: ${[c.leftOut.errors ? `${c.leftOut.errors} with an error` : '', c.leftOut.stopped ? `${c.leftOut.stopped} stopped` : ''].filter(Boolean).join(', ')})`
    : '';
const signed = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(3)}`;

/** The comparison as terminal lines (markdown-friendly). */
export function comparisonLines(c: Comparison, limit = 20): string[] {
  const up = c.flipped.filter((x) => x.flip === 'fail→pass');
  const down = c.flipped.filter((x) => x.flip === 'pass→fail');
  const iv = c.scores.interval;
  const lines = [
    `${c.suite}: ${c.b} vs ${c.a} over ${c.paired} paired case × trials${leftOut(c)}`,
    `  flips: ${up.length} fail→pass, ${down.length} pass→fail; McNemar exact p = ${c.mcnemar.p.toPrecision(3)}`,
    `  score: mean delta ${c.scores.meanDelta === null ? '—' : signed(c.scores.meanDelta)}${iv ? ` [${signed(iv.low)}, ${signed(iv.high)}]` : ''}; ${c.scores.sign.up} up, ${c.scores.sign.down} down; sign test p = ${c.scores.sign.p.toPrecision(3)}`,
  ];
  for (const x of [...down, ...up].slice(0, limit)) lines.push(`  ${x.flip}  ${x.caseId}#${x.trial}  ${f3(x.a.score)} → ${f3(x.b.score)}`);
  if (c.flipped.length > limit) lines.push(`  … ${c.flipped.length - limit} more flips (--json lists every case)`);
  return lines;
}

/** The flips as a report table (HTML). */
export function comparisonTable(c: Comparison): TableModel {
  const iv = c.scores.interval;
  return {
    id: `${c.suite}-comparison`,
    title: `Per-case comparison: ${c.b} vs ${c.a}`,
    caption:
      `${c.paired} case × trials matched by case id and trial${leftOut(c)}. Flips: ${c.mcnemar.up} fail→pass, ${c.mcnemar.down} pass→fail ` +
      `(McNemar exact p = ${c.mcnemar.p.toPrecision(3)}). Mean score delta ${c.scores.meanDelta === null ? '—' : signed(c.scores.meanDelta)}` +
      `${iv ? ` [${signed(iv.low)}, ${signed(iv.high)}] (95 %, paired bootstrap over cases)` : ''}; sign test p = ${c.scores.sign.p.toPrecision(3)}.`,
    head: [
      ['Case', 'Trial', 'Flip', `Score ${c.a}`, `Score ${c.b}`, 'Delta'].map((t, i) => ({
        text: t,
        head: true,
        align: i < 3 ? 'left' : 'right',
      })),
    ],
    body: c.flipped.map((x) => [
      { text: x.caseId, align: 'left' },
      { text: String(x.trial), align: 'left' },
      { text: x.flip ?? '', align: 'left', cls: x.flip === 'pass→fail' ? 'bad' : undefined },
      { text: f3(x.a.score), align: 'right' },
      { text: f3(x.b.score), align: 'right' },
      { text: x.delta === null ? '—' : signed(x.delta), align: 'right' },
    ]),
  };
}
