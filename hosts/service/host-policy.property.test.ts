// The host policy against generated requests (fast-check, fixed seed, small
// budget; FUZZ_RUNS for more): whatever text a page or a queue job puts in a field, the ref the
// policy makes names only what the door allows — a built-in suite, one folder
// name for a run or a trace, a script in the scripts folder, a key only for the
// base URL it is for — and anything else is a refusal of the page's own (an
// AppApiError naming the field), never another error.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { AppApiError } from '../../contract/api';
import { normalizeBaseURL, parseModelSpec } from '../../agents/models/spec';
import { SUITES } from '../../eval/suites/index';
import { HostPolicy } from './host-policy';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';

/** CI's budget with a fixed seed; `npm run fuzz` (FUZZ_SCALE, FUZZ_SEED) tries more. */
const runs = fuzzRuns;
const RUNS = { seed: fuzzSeed(34), numRuns: runs(300) };

/** Text a hostile page or job would try: paths of every shape, suite ids bent, separators, NULs, URLs. */
const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '/etc/passwd',
    '/proc/self/environ',
    '../../etc/passwd',
    '..',
    '.',
    'a/../b',
    'C:\\x\\y',
    '~/x',
    'x\0y',
    'eval-results',
    'results.db',
  ),
  fc.constantFrom(...SUITES.map((s) => s.id)).map((id) => id),
  fc
    .tuple(
      fc.constantFrom('', '/', './', '../', '/tmp/', '~/'),
      fc.constantFrom(...SUITES.map((s) => s.id), 'x', 'results'),
      fc.constantFrom('', '.json', '.db', '/', '\0'),
    )
    .map(([a, b, c]) => `${a}${b}${c}`),
  fc.array(fc.constantFrom('a', '.', '/', '\\', '-', '_', ':', '0'), { minLength: 1, maxLength: 12 }).map((cs) => cs.join('')),
);

function outcome<T>(f: () => T): { ok: true; value: T } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: f() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** One folder name: joined under a folder it stays directly inside. */
const oneSegment = (v: string) => path.dirname(path.join('/root', v)) === '/root' && path.basename(path.join('/root', v)) === v;

describe('the host policy on generated fields', () => {
  const scripts = mkdtempSync(path.join(tmpdir(), 'sb-prop-scripts-'));
  writeFileSync(path.join(scripts, 'ok.json'), JSON.stringify([{ content: 'done' }]));
  const policy = new HostPolicy({ scriptFiles: { dir: scripts }, modelsDir: mkdtempSync(path.join(tmpdir(), 'sb-prop-models-')), env: {} });

  it('a suite is a built-in id, or refused', () => {
    const ids = new Set(SUITES.map((s) => s.id));
    fc.assert(
      fc.property(hostile, (s) => {
        const r = outcome(() => policy.suite(s));
        if (r.ok) return r.value.kind === 'builtin' && ids.has(r.value.id);
        return r.error instanceof AppApiError && r.error.message.startsWith('suite: ') && !ids.has(s);
      }),
      RUNS,
    );
  });

  it('a run id, a session trace and a models-folder id are one folder name, or refused', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        for (const parse of [(v: string) => policy.runId(v), (v: string) => policy.traceId(v), (v: string) => policy.localModelId(v)]) {
          const r = outcome(() => parse(s));
          if (r.ok && !(oneSegment(r.value) && r.value !== '.' && r.value !== '..' && !r.value.includes('\0'))) return false;
          if (!r.ok && !(r.error instanceof AppApiError)) return false;
        }
        return true;
      }),
      RUNS,
    );
  });

  it('a scripted or local model reads only the scripts folder and the models folder', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, fc.constantFrom('scripted', 'local'), async (s, provider) => {
        const r = await policy.evalModel(`${provider}:${s}`).then(
          (v) => ({ ok: true as const, v }),
          (e: unknown) => ({ ok: false as const, e }),
        );
        if (!r.ok) return r.e instanceof AppApiError;
        // Accepted: only the one script the folder holds, under the door's grant (never "any").
        return provider === 'scripted' && s.trim() === 'ok.json' && r.v.files.scripts !== 'any' && r.v.files.localModels !== 'any';
      }),
      { ...RUNS, numRuns: runs(150) },
    );
  });

  it("sends the environment's key only to the base URL it is bound or allowed for", async () => {
    const allowed = 'http://127.0.0.1:8000/v1';
    const door = new HostPolicy({ env: { SKILLBRIDGE_API_KEY: 'sk-HOST' }, allowKeyFor: [allowed] });
    const url = fc.oneof(
      fc.constantFrom(
        allowed,
        `${allowed}/`,
        'http://127.0.0.1:8000/v1@127.0.0.1:9',
        'http://127.0.0.1:8000@127.0.0.1:9/v1',
        'http://127.0.0.1:80000/v1',
        'https://127.0.0.1:8000/v1',
      ),
      fc
        .tuple(
          fc.constantFrom('http', 'https'),
          fc.constantFrom('127.0.0.1', 'localhost', '127.0.0.1:8000', 'evil.example', 'user:pw@127.0.0.1:8000'),
          fc.constantFrom('', '/v1', '/v1/', '/v2', '/v1/../v1', '/V1'),
        )
        .map(([p, h, q]) => `${p}://${h}${q}`),
    );
    await fc.assert(
      fc.asyncProperty(url, async (u) => {
        const spec = `openai-compatible:m@${u}`;
        const r = await door.evalModel(spec).then(
          (v) => v,
          (e: unknown) => e,
        );
        if (r instanceof AppApiError) return true;
        if (r instanceof Error) return false;
        const sent = Object.values((r as { env: Record<string, string | undefined> }).env).includes('sk-HOST');
        const parsed = parseModelSpec(spec);
        const target = parsed.provider === 'openai-compatible' ? normalizeBaseURL(parsed.baseURL) : '';
        return sent === (target === normalizeBaseURL(allowed));
      }),
      { ...RUNS, numRuns: runs(200) },
    );
  });
});
