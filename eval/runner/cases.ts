// A suite's cases: generated from the scenes and the world by the suite's code,
// then kept in a cache keyed by everything that could change them (the suite,
// the scene data and catalogues, and the sources of the simulator, the robot and
// the suites), so a second run starts at once and a change to a scene or to the
// physics regenerates them. Sampling and filtering are deterministic.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { PACKAGE_VERSION } from '../results/index';
import { EvalCase } from '../core/case';
import type { AnySuite, GenerateContext } from '../core/suite';
import { WorldPool } from '../core/world';
import { hash32 } from '../reference/rng';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Folders whose sources decide what a case's expected answer is (and the suite's own folder, added per suite). */
const SOURCE_DIRS = ['scenes', 'sim', 'robot', 'eval/core', 'agents/tools'];

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|json)$/.test(name) && !/\.test\.ts$/.test(name)) out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

const sourceKeys = new Map<string, string>();

/** A suite's own folder: a variant suite lives in its base suite's (etp-images in eval/suites/etp). */
export function suiteFolder(suite: string): string {
  return `eval/suites/${suite.split('-')[0]}`;
}

/**
 * A hash of the sources and data a suite's cases depend on (the scenes, the
 * simulator, the robot, the tools, the suite's own folder); the package version
 * where sources are not at hand (a packaged app).
 */
export function casesSourceKey(suite: string): string {
  const known = sourceKeys.get(suite);
  if (known) return known;
  const h = createHash('sha256').update(PACKAGE_VERSION);
  const files = [...SOURCE_DIRS, 'eval/suites/index.ts', suiteFolder(suite)].flatMap((d) => {
    const p = path.join(root, d);
    return existsSync(p) && statSync(p).isFile() ? [p] : filesUnder(p);
  });
  for (const f of files) h.update(path.relative(root, f)).update(readFileSync(f));
  const key = h.digest('hex').slice(0, 16);
  sourceKeys.set(suite, key);
  return key;
}

const scorerKeys = new Map<string, string>();

/**
 * The version of a suite's scorer: a hash of the sources a score is computed by
 * (the suite's own folder, the shared scoring code, its report spec, the verdict).
 * Recorded with a run and in each end state, so a rescore knows whether it scores
 * with the scorer that scored the run, and then must reproduce it.
 */
export function scorerVersion(suite: string): string {
  const known = scorerKeys.get(suite);
  if (known) return known;
  const h = createHash('sha256').update(PACKAGE_VERSION);
  const dirs = ['eval/core', 'eval/suites/index.ts', suiteFolder(suite), `eval/report/specs/${suite}.ts`, 'eval/runner/verdict.ts'];
  const files = dirs.flatMap((d) => {
    const p = path.join(root, d);
    return existsSync(p) && statSync(p).isFile() ? [p] : filesUnder(p);
  });
  for (const f of files) h.update(path.relative(root, f)).update(readFileSync(f));
  const key = h.digest('hex').slice(0, 16);
  scorerKeys.set(suite, key);
  return key;
}

const CacheFile = z.object({ suite: z.string(), key: z.string(), cases: z.array(EvalCase) });

export function defaultCacheDir(): string {
  return path.join(root, 'node_modules', '.cache', 'skillbridge-eval');
}

export interface LoadCasesOptions {
  cacheDir?: string;
  /** false: always generate (tests). */
  cache?: boolean;
  onProgress?: (text: string) => void;
}

/**
 * Runs a suite's generator with worlds built as the runner builds them. Cases do
 * not depend on the run's seed (it seeds noise, off by default): they are
 * generated in worlds with seed 1.
 */
export async function generateCases(
  suite: AnySuite,
  opts: { onProgress?: (text: string) => void; small?: boolean } = {},
): Promise<EvalCase[]> {
  const pool = new WorldPool({ seed: 1 });
  const ctx: GenerateContext = {
    async inWorld(spec, fn) {
      const { cw, robot } = await pool.checkout(spec);
      return fn({ robot, control: cw.control });
    },
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    ...(opts.small ? { small: true } : {}),
  };
  try {
    const cases = await suite.generate(ctx);
    const ids = new Set<string>();
    for (const c of cases) {
      if (ids.has(c.id)) throw new Error(`${suite.id}: the generator made two cases with the id "${c.id}"`);
      ids.add(c.id);
    }
    return cases.map((c) => EvalCase.parse(c));
  } finally {
    await pool.dispose();
  }
}

/** The suite's cases, from the cache when it matches the sources, else generated and cached. */
export async function loadCases(suite: AnySuite, opts: LoadCasesOptions): Promise<{ cases: EvalCase[]; generatedMs: number | null }> {
  const key = casesSourceKey(suite.id);
  const dir = opts.cacheDir ?? defaultCacheDir();
  const file = path.join(dir, `${suite.id}-${key}.json`);
  if (opts.cache !== false && existsSync(file)) {
    try {
      const parsed = CacheFile.parse(JSON.parse(readFileSync(file, 'utf8')));
      if (parsed.key === key && parsed.suite === suite.id) return { cases: parsed.cases, generatedMs: null };
    } catch {
      // A damaged cache is regenerated.
    }
  }
  const t0 = performance.now();
  opts.onProgress?.(`generating the ${suite.id} cases from the world (once per code and scene version)…`);
  const cases = await generateCases(suite, opts);
  const generatedMs = performance.now() - t0;
  if (opts.cache !== false) {
    try {
      saveCases(suite.id, cases, dir);
    } catch {
      // No cache where the folder is read-only; the next run generates again.
    }
  }
  return { cases, generatedMs };
}

/** Writes `cases` as the suite's cached cases in `dir`, where `loadCases` finds them (whole or not at all). */
export function saveCases(suite: string, cases: readonly EvalCase[], dir = defaultCacheDir()): void {
  const key = casesSourceKey(suite);
  const file = path.join(dir, `${suite}-${key}.json`);
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ suite, key, cases }));
  renameSync(tmp, file);
}

/** Cases whose id or one of whose labels contains `text` (case-insensitive). */
export function filterCases(cases: readonly EvalCase[], text: string | undefined): EvalCase[] {
  if (!text) return [...cases];
  const t = text.toLowerCase();
  return cases.filter((c) => c.id.toLowerCase().includes(t) || Object.values(c.labels).some((v) => v.toLowerCase() === t));
}

/**
 * A deterministic sample of n cases spread over the values of `axis` (round robin
 * over the groups, each group in a seeded order), so a small sample still covers
 * every category. Returns the cases in their original order.
 */
export function sampleCases(cases: readonly EvalCase[], n: number, seed: number, axis?: string): EvalCase[] {
  if (n >= cases.length) return [...cases];
  const groups = new Map<string, EvalCase[]>();
  for (const c of cases) {
    const k = axis ? (c.labels[axis] ?? '') : '';
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const ordered = [...groups.values()].map((g) => [...g].sort((a, b) => hash32(`${seed}:${a.id}`) - hash32(`${seed}:${b.id}`)));
  const chosen = new Set<string>();
  for (let i = 0; chosen.size < n; i++) {
    for (const g of ordered) {
      const c = g[i];
      if (c && chosen.size < n) chosen.add(c.id);
    }
  }
  return cases.filter((c) => chosen.has(c.id));
}
