// eval --noise is applied, not only recorded: with the same seed a noisy run's
// observations differ from a clean run's (on this thread and on worker threads),
// its skills fumble, the run records the noise it applied, a resumed run keeps it
// and refuses another, and a bad spec is one line naming --noise.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openResults } from '../../eval/results/index';
import { main } from './main';
import { parseNoise } from './noise';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'skillbridge-cli-eval-noise-'));
const suite = join(dir, 'look.json');
writeFileSync(
  suite,
  JSON.stringify({
    id: 'look',
    scene: 'tabletop/fruits',
    workflow: 'flat',
    cases: [{ id: 'what-is-there', task: 'Which objects are on the table?', goal: { holding: null } }],
  }),
);
const script = join(dir, 'look.script.json');
writeFileSync(script, JSON.stringify([{ tool_calls: [{ function: { name: 'get_objects', arguments: {} } }] }, { content: 'Done.' }]));

/** What get_objects answered in the run's one case, from its trace. */
function seen(out: string, runId: string): string {
  const db = openResults(out, { mode: 'read' });
  const [row] = db.results(runId);
  db.close();
  const lines = readFileSync(resolve(out, row!.tracePath!), 'utf8').trim().split('\n');
  const result = lines.map((l) => JSON.parse(l) as { type: string; name?: string; result?: string }).find((e) => e.type === 'tool_result');
  expect(result?.name).toBe('get_objects');
  return result!.result!;
}

function recorded(out: string, runId: string): unknown {
  const db = openResults(out, { mode: 'read' });
  const args = db.requireRun(runId).args;
  db.close();
  return args['noise'];
}

describe('eval --noise', () => {
  it('changes what the robot observes under the same seed, records exactly the noise applied, and a resumed run keeps it', async () => {
    const out = mkdtempSync(join(dir, 'runs-'));
    const run = async (...extra: string[]) => {
      const r = await cli('eval', '--suite', suite, '--model', `scripted:${script}`, '--seed', '7', '--out', out, '--json', ...extra);
      expect(r.code, r.err).toBe(0);
      return (JSON.parse(r.out) as { runId: string }).runId;
    };
    const clean = await run();
    const noisy = await run('--noise', 'dropout=1');
    const threads = await run('--noise', 'dropout=1', '--jobs', '2');
    expect(seen(out, clean)).toMatch(/lemon_1/);
    // Every detection dropped: the same seed, another observation.
    expect(seen(out, noisy)).not.toMatch(/lemon_1/);
    expect(seen(out, noisy)).not.toBe(seen(out, clean));
    expect(seen(out, threads)).toBe(seen(out, noisy));
    expect(recorded(out, clean)).toBeUndefined();
    expect(recorded(out, noisy)).toEqual({ distanceSigma: 0, detectionDropout: 1, skillFailureRate: 0 });
    expect(recorded(out, threads)).toEqual({ distanceSigma: 0, detectionDropout: 1, skillFailureRate: 0 });

    // A resumed run keeps its noise; another is refused in one line.
    const other = await cli('eval', '--resume', noisy, '--noise', 'dropout=0.5', '--out', out);
    expect(other.code).toBe(2);
    expect(other.err.trim().split('\n')).toHaveLength(1);
    expect(other.err).toMatch(/was started with --noise .*detectionDropout":1.*leave --noise out/);
    const same = await cli('eval', '--resume', noisy, '--noise', 'dropout=1', '--out', out, '--json');
    expect(same.code, same.err).toBe(0);
    expect(recorded(out, noisy)).toEqual({ distanceSigma: 0, detectionDropout: 1, skillFailureRate: 0 });
  }, 300_000);

  it("fumbles the robot's skills: with failure=1 the lemon never reaches the bowl", async () => {
    const out = mkdtempSync(join(dir, 'fumble-'));
    const args = [
      'eval',
      '--suite',
      join(root, 'examples/suites/fruits.json'),
      '--model',
      `scripted:${join(root, 'examples/suites/fruits.script.json')}`,
    ];
    const clean = await cli(...args, '--out', out, '--json');
    const noisy = await cli(...args, '--noise', 'failure=1', '--out', out, '--json');
    expect(clean.code, clean.err).toBe(0);
    expect(noisy.code, noisy.err).toBe(0);
    const rows = (r: { out: string }) => {
      const db = openResults(out, { mode: 'read' });
      const x = db.results((JSON.parse(r.out) as { runId: string }).runId).map((row) => [row.caseId, row.score]);
      db.close();
      return x;
    };
    expect(rows(clean)).toEqual([
      ['lemon-bowl', 1],
      ['lemon-held', 0],
    ]);
    expect(rows(noisy)).toEqual([
      ['lemon-bowl', 0],
      ['lemon-held', 0],
    ]);
  }, 300_000);

  it('answers a bad spec with one line naming --noise, exit 2', async () => {
    for (const spec of ['', 'dropout=', 'dropout=2', 'distance=-1', 'loud=1', 'dropout=0.1,dropout=0.2', 'dropout=NaN']) {
      const r = await cli('eval', '--suite', suite, '--model', `scripted:${script}`, '--noise', spec, '--out', dir);
      expect(r.code, spec).toBe(2);
      expect(r.err.trim().split('\n'), spec).toHaveLength(1);
      expect(r.err, spec).toMatch(/--noise/);
    }
    expect(parseNoise('distance=0.01, dropout=0.1,failure=0.05')).toEqual({
      distanceSigma: 0.01,
      detectionDropout: 0.1,
      skillFailureRate: 0.05,
    });
  });
});
