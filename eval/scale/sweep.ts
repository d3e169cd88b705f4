// A sweep: suites × models × workflows × seeds × trials in one command, one results
// folder, one report. Each combination is a run with an id made from the
// sweep's name, readable parts of the combination and a hash of all of it (the
// whole model spec, workflow, seed, trials, sample, filter and protocol), so two
// combinations never share an id and running the sweep again skips the runs
// whose every case × trial was scored and resumes the others (their errored,
// stopped and missing case × trials). The leaderboard ranks each suite's runs by headline score.
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { UserFileError, readFailure, readUserTextSync } from '../../base/user-file';
import { z } from 'zod';
import { openResults } from '../results/index';
import { EvalInputError } from '../runner/errors';
import { type EvalOptions, runEval } from '../runner/runner';
import { type RunCounts, tally } from '../runner/tally';
import { SUITES } from '../suites/index';
import { canonicalJson } from './queue-protocol';
import type { ScaleOptions } from './runner-hook';
import type { RefPolicy } from '../../base/host-refs';

export const SweepFile = z.strictObject({
  /** Names the runs (their ids start with it), so a second sweep in the same folder does not collide. */
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,40}$/, 'letters, digits, ".", "_" or "-" (up to 41)'),
  suites: z.array(z.string().min(1)).min(1),
  models: z.array(z.string().min(1)).min(1),
  /** "default" is each suite's own workflow; a list applies to every suite, a map names each suite's. */
  workflows: z.union([z.array(z.string().min(1)).min(1), z.record(z.string(), z.array(z.string().min(1)).min(1))]).default(['default']),
  trials: z.number().int().min(1).max(100).default(1),
  /** One seed for every run (default 1), or `seeds`: each combination runs once per seed. */
  seed: z.number().int().min(0).optional(),
  seeds: z.array(z.number().int().min(0)).min(1).max(100).optional(),
  sample: z.number().int().min(1).optional(),
  filter: z.string().optional(),
  concurrency: z.number().int().min(1).max(1024).optional(),
  rpm: z.number().positive().optional(),
  tpm: z.number().positive().optional(),
  /** Run workflows a suite is not defined for (as eval --off-protocol); every table marks those runs. */
  offProtocol: z.boolean().default(false),
});
export type SweepFile = z.infer<typeof SweepFile>;

/** A sweep file is YAML when its name ends in .yaml/.yml, JSON otherwise (JSON is also YAML, but JSON's errors read better). */
export function loadSweep(file: string): SweepFile {
  const asYaml = /\.ya?ml$/i.test(file);
  let raw: unknown;
  try {
    const text = readUserTextSync(file);
    raw = asYaml ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    if (e instanceof UserFileError) throw new EvalInputError('bad-option', `sweep file ${file}: ${readFailure(e)}`);
    throw new EvalInputError(
      'bad-option',
      `sweep file ${file}: cannot read it as ${asYaml ? 'YAML' : 'JSON'} (${(e as Error).message.split('\n')[0]})`,
    );
  }
  const r = SweepFile.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new EvalInputError('bad-option', `sweep file ${file}: ${i.path.join('.') || '(top)'}: ${i.message}`);
  }
  if (r.data.seed !== undefined && r.data.seeds !== undefined)
    throw new EvalInputError('bad-option', `sweep file ${file}: seeds: give "seed" (one) or "seeds" (a list), not both`);
  if (r.data.seeds && new Set(r.data.seeds).size !== r.data.seeds.length)
    throw new EvalInputError('bad-option', `sweep file ${file}: seeds: each seed once`);
  const known = SUITES.map((s) => s.id);
  for (const s of r.data.suites)
    if (!known.includes(s))
      throw new EvalInputError('unknown-suite', `sweep file ${file}: suites: unknown suite "${s}"; suites: ${known.join(', ')}`);
  return r.data;
}

export interface SweepCell {
  suite: string;
  model: string;
  /** undefined: the suite's own. */
  workflow: string | undefined;
  seed: number;
  runId: string;
}

const slug = (s: string, n: number) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, n);

/** The seeds a sweep runs each combination with. */
export const sweepSeeds = (s: SweepFile): number[] => s.seeds ?? [s.seed ?? 1];

/**
 * A combination's run id: the sweep's name, the suite, the model and workflow cut short to read, the seed,
 * and a hash of everything that makes the run (so models whose names differ late, or a changed seed,
 * trials, sample or filter, never share an id).
 */
export function cellRunId(s: SweepFile, suite: string, model: string, wf: string, seed: number): string {
  const content = canonicalJson({
    suite,
    model,
    workflow: wf,
    seed,
    trials: s.trials,
    sample: s.sample ?? null,
    filter: s.filter ?? null,
    offProtocol: s.offProtocol,
  });
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 10);
  return `${s.name}-${suite}-${slug(model, 20)}-${slug(wf, 12)}-s${seed}-${hash}`;
}

export function sweepCells(s: SweepFile): SweepCell[] {
  const cells: SweepCell[] = [];
  for (const suite of s.suites) {
    const flows = Array.isArray(s.workflows) ? s.workflows : (s.workflows[suite] ?? ['default']);
    for (const model of s.models)
      for (const wf of flows)
        for (const seed of sweepSeeds(s)) {
          const workflow = wf === 'default' ? undefined : wf;
          cells.push({ suite, model, workflow, seed, runId: cellRunId(s, suite, model, wf, seed) });
        }
  }
  return cells;
}

export interface SweepRow {
  suite: string;
  model: string;
  workflow: string;
  seed: number;
  runId: string;
  cases: number;
  errors: number;
  /** The run's case × trials: scored, errored, stopped, missing. */
  counts: RunCounts;
  status: string;
  /** What this invocation did with the run. */
  action: 'ran' | 'resumed' | 'kept';
}

export async function runSweep(
  s: SweepFile,
  o: Pick<EvalOptions, 'signal' | 'onProgress' | 'onLog' | 'env' | 'cacheDir'> & {
    outDir: string;
    scale?: ScaleOptions;
    /** The door's policy: the sweep file's suites and models are parsed by it (the command line's). */
    door: RefPolicy;
    onCell?: (c: SweepCell, i: number, n: number) => void;
  },
): Promise<SweepRow[]> {
  const cells = sweepCells(s);
  const rows: SweepRow[] = [];
  for (const [i, cell] of cells.entries()) {
    if (o.signal?.aborted) break;
    o.onCell?.(cell, i, cells.length);
    const db = openResults(o.outDir);
    const known = db.run(cell.runId);
    // A finished run is kept only when every case × trial was scored: an error (its outcome unknown) runs again.
    const unscored = known ? db.results(cell.runId).some((x) => x.status !== 'ok') : false;
    db.close();
    const scale: ScaleOptions = {
      ...(s.concurrency !== undefined ? { concurrency: s.concurrency } : {}),
      ...(s.rpm !== undefined ? { rpm: s.rpm } : {}),
      ...(s.tpm !== undefined ? { tpm: s.tpm } : {}),
      ...o.scale,
      runId: cell.runId,
    };
    const common = {
      outDir: o.outDir,
      scale,
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
      ...(o.onLog ? { onLog: o.onLog } : {}),
      ...(o.env ? { env: o.env } : {}),
      ...(o.cacheDir ? { cacheDir: o.cacheDir } : {}),
      files: o.door.files(),
      reopen: o.door,
    };
    let action: SweepRow['action'] = 'ran';
    let counts: RunCounts | undefined;
    if (known?.status === 'finished' && !unscored) action = 'kept';
    else if (known) {
      action = 'resumed';
      counts = (await runEval({ ...common, resume: o.door.runId(cell.runId) })).counts;
    } else
      counts = (
        await runEval({
          ...common,
          suite: o.door.suite(cell.suite, 'suites'),
          model: o.door.model(cell.model, 'models'),
          ...(cell.workflow ? { workflow: cell.workflow } : {}),
          trials: s.trials,
          seed: cell.seed,
          ...(s.sample !== undefined ? { sample: s.sample } : {}),
          ...(s.filter ? { filter: s.filter } : {}),
          ...(s.offProtocol ? { offProtocol: true } : {}),
          args: { sweep: s.name },
        })
      ).counts;
    const db2 = openResults(o.outDir, { mode: 'read' });
    const run = db2.requireRun(cell.runId);
    const results = db2.results(cell.runId);
    db2.close();
    const scored = results.filter((x) => x.status !== 'stopped');
    rows.push({
      suite: cell.suite,
      model: cell.model,
      workflow: run.workflow,
      seed: run.seed,
      runId: cell.runId,
      cases: scored.length,
      errors: scored.filter((x) => x.status === 'error').length,
      counts: counts ?? tally(results, results),
      status: run.status,
      action,
    });
  }
  return rows;
}
