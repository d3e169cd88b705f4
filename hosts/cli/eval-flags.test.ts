// Every option eval, sweep and rescore accept is applied, or refused in one line:
// the parser knows every command's options, so each command refuses the ones it
// does not use; each eval option reaches the run (what the cases run with, which
// cases run); a resumed run refuses an option that would change how it was started.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalCase } from '../../eval/core/case';
import type { Slot } from '../../eval/runner/executors';
import type { WorkerInit } from '../../eval/runner/protocol';
import { type EvalOptions, runEval } from '../../eval/runner/runner';
import { parse } from './args';
import { DOORS } from './command-flags';
import { evalOptions } from './commands/eval';
import { main } from './main';
import { TERMINAL } from '../service/host-policy';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const root = join(import.meta.dirname, '../..');
const SUITE = join(root, 'examples/suites/fruits.json');
const SCRIPT = `scripted:${join(root, 'examples/suites/fruits.script.json')}`;

/** Runs the cases nowhere: records what the run handed its slot (the options as applied) and which case × trials it ran. */
function spySlots() {
  const seen: { init?: WorkerInit; ran: string[] } = { ran: [] };
  const slot: Slot = {
    built: new Set(),
    capacity: 1,
    run: (c: EvalCase, trial: number) => {
      seen.ran.push(`${c.id}#${trial}`);
      return Promise.resolve({
        record: { caseId: c.id, trial, status: 'ok', score: 1, labels: c.labels },
        timing: { totalMs: 0, restoreMs: 0, buildMs: 0, modelMs: 0, toolMs: 0, overheadMs: 0 },
      });
    },
    stop: () => undefined,
    close: () => Promise.resolve(),
  };
  return { seen, scale: { slots: (init: WorkerInit) => ((seen.init = init), Promise.resolve([slot])) } };
}

describe('options a command does not use are refused', () => {
  it('eval, sweep and rescore refuse the others in one line (a JSON error under --json), exit 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['eval', '--suite', SUITE, '--model', SCRIPT, '--scene', 'tabletop/fruits'], /eval does not take --scene; it takes --suite/],
      [['eval', '--suite', SUITE, '--model', SCRIPT, '--db', 'x', '--port', '1'], /eval does not take --db \(nor --port\)/],
      [['eval', '--suite', SUITE, '--model', SCRIPT, '--approve', 'auto'], /eval does not take --approve/],
      [['eval', '--resume', 'r1', '--run-id', 'r2'], /--resume RUN names the run already; leave --run-id out/],
      [['eval', '--suite', SUITE, '--model', SCRIPT, '--queue', 'redis://127.0.0.1:1', '--jobs', '2'], /with --queue .*--jobs/],
      [['sweep', 'sweep.yaml', '--seed', '3'], /sweep does not take --seed; .*The rest .* is in the sweep file/],
      // Each run of a sweep is named by the sweep, alike on every shard.
      [['sweep', 'sweep.yaml', '--shard', '1/2', '--run-id', 'x'], /sweep names each of its runs itself .*leave --run-id out/],
      [['rescore', 'r1', '--model', 'oracle'], /rescore does not take --model; it takes --db, --dry-run/],
      [['rescore', 'r1', '--out', 'x'], /rescore does not take --out/],
    ];
    for (const [argv, msg] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      expect(r.err, argv.join(' ')).toMatch(msg);
      const j = await cli(...argv, '--json');
      expect(j.code).toBe(2);
      expect(JSON.parse(j.out)).toMatchObject({ error: { code: 'usage', message: expect.stringMatching(msg) } });
    }
  });
});

describe('each eval option reaches the run', () => {
  it('maps every flag eval accepts to its option', () => {
    const p = parse([
      'eval',
      ...['--suite', 'alrm', '--model', 'oracle', '--workflow', 'w', '--trials', '3', '--jobs', '2', '--seed', '5', '--filter', 'f'],
      ...['--sample', '4', '--out', 'o', '--judge', 'floor:noop', '--off-protocol', '--time-limit', '2.5', '--max-iterations', '7'],
      ...['--noise', 'distance=0.01,dropout=0.2,failure=0.3'],
    ]);
    expect(evalOptions(p)).toMatchObject({
      suite: TERMINAL.suite('alrm'),
      model: TERMINAL.model('oracle'),
      workflow: 'w',
      trials: 3,
      jobs: 2,
      seed: 5,
      filter: 'f',
      sample: 4,
      outDir: 'o',
      judge: TERMINAL.model('floor:noop'),
      offProtocol: true,
      limits: { timeLimitS: 2.5, maxIterations: 7 },
      noise: { distanceSigma: 0.01, detectionDropout: 0.2, skillFailureRate: 0.3 },
    });
    expect(evalOptions(parse(['eval', '--resume', 'r1']))).toMatchObject({ resume: TERMINAL.runId('r1') });
    // The scale flags (concurrency, rpm, tpm, prices, shard, queue, run-id) go through scaleOptions (scale.test.ts); --json is the output.
    expect(DOORS['eval']!.flags).toEqual(expect.arrayContaining(['concurrency', 'rpm', 'tpm', 'prices', 'shard', 'queue', 'run-id']));
    expect(() => evalOptions(parse(['eval', '--time-limit', '0']))).toThrow(/--time-limit must be at least 0.001/);
    expect(() => evalOptions(parse(['eval', '--max-iterations', '0']))).toThrow(/--max-iterations must be at least 1/);
  });

  it('the run hands its cases the model, workflow, seed, limits and noise, and runs the trials, filter and sample asked', async () => {
    const out = mkdtempSync(join(tmpdir(), 'skillbridge-eval-flags-'));
    const { seen, scale } = spySlots();
    const base: EvalOptions = { suite: TERMINAL.suite(SUITE), model: TERMINAL.model(SCRIPT), files: TERMINAL.files(), outDir: out, scale };
    const r = await runEval({
      ...base,
      seed: 5,
      trials: 2,
      filter: 'held',
      limits: { timeLimitS: 2.5, maxIterations: 7 },
      noise: { detectionDropout: 0.2 },
    });
    expect(seen.init).toMatchObject({
      model: SCRIPT,
      workflow: 'flat',
      seed: 5,
      limits: { timeLimitS: 2.5, maxIterations: 7 },
      noise: { distanceSigma: 0, detectionDropout: 0.2, skillFailureRate: 0 },
    });
    expect(seen.ran).toEqual(['lemon-held#1', 'lemon-held#2']);
    expect(r.run.args).toMatchObject({
      filter: 'held',
      limits: { timeLimitS: 2.5, maxIterations: 7 },
      noise: { distanceSigma: 0, detectionDropout: 0.2, skillFailureRate: 0 },
    });
    const sampled = spySlots();
    await runEval({ ...base, scale: sampled.scale, sample: 1 });
    expect(sampled.seen.ran).toHaveLength(1);
    // A judge only where the suite has free text to judge: refused here, not accepted and never asked.
    await expect(runEval({ ...base, judge: TERMINAL.model('openai-compatible:j@http://127.0.0.1:1/v1') })).rejects.toThrow(
      /--judge: suite my-fruits has no free-text answer to judge \(raider has\)/,
    );

    // A resumed run keeps how it was started: a different filter, sample, limit or protocol is refused; the same is fine.
    const again = (o: Partial<EvalOptions>) =>
      runEval({
        outDir: out,
        scale: spySlots().scale,
        resume: TERMINAL.runId(r.run.runId),
        files: TERMINAL.files(),
        reopen: TERMINAL,
        ...o,
      });
    await expect(again({ filter: 'bowl' })).rejects.toThrow(/was started with --filter held, not bowl; leave --filter out/);
    await expect(again({ sample: 1 })).rejects.toThrow(/was started with --sample none, not 1/);
    await expect(again({ limits: { timeLimitS: 9 } })).rejects.toThrow(/was started with --time-limit 2.5, not 9/);
    await expect(again({ offProtocol: true })).rejects.toThrow(/on its suite's protocol; leave --off-protocol out/);
    const resumed = spySlots();
    await runEval({
      outDir: out,
      scale: resumed.scale,
      resume: TERMINAL.runId(r.run.runId),
      files: TERMINAL.files(),
      reopen: TERMINAL,
      filter: 'held',
    });
    // Every pair was scored: nothing runs again, and the recorded limits and noise are what it would run with.
    expect(resumed.seen.ran).toEqual([]);
    expect(resumed.seen.init).toMatchObject({ limits: { timeLimitS: 2.5, maxIterations: 7 }, noise: { detectionDropout: 0.2 } });
  });
});
