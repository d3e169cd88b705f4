// A sweep's run ids are made from everything that makes each run: two models
// whose specs differ late, or a changed seed, trials, sample or filter, never
// share a run id (a re-run sweep must not keep a run made with other settings).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { SweepFile, sweepCells } from './sweep';

const base = (over: Record<string, unknown> = {}) => SweepFile.parse({ name: 'ckpt', suites: ['alrm'], models: ['oracle'], ...over });
const models = fc.constantFrom('a', 'b', 'oracle', 'floor:noop', 'x'.repeat(70) + '1', 'x'.repeat(70) + '2');
const ids = (over: Record<string, unknown> = {}) => sweepCells(base(over)).map((c) => c.runId);

describe('sweep run ids', () => {
  it('two checkpoints whose names differ after 60 characters get two runs', () => {
    const stem = `scripted:/models/${'a-very-long-checkpoint-folder-name/'.repeat(3)}`;
    const cells = sweepCells(base({ models: [`${stem}step-1000.json`, `${stem}step-2000.json`] }));
    expect(cells).toHaveLength(2);
    expect(new Set(cells.map((c) => c.runId)).size).toBe(2);
  });

  it('a changed seed, trials, sample, filter or protocol is another run', () => {
    const one = ids()[0];
    for (const over of [{ seed: 2 }, { trials: 3 }, { sample: 5 }, { filter: 'boxes' }, { offProtocol: true }])
      expect(ids(over)[0], JSON.stringify(over)).not.toBe(one);
    expect(ids({ seed: 1 })[0]).toBe(one);
  });

  it('seeds: each combination once per seed, with its seed', () => {
    const cells = sweepCells(base({ models: ['oracle', 'floor:noop'], seeds: [1, 2, 3] }));
    expect(cells.map((c) => `${c.model}/${c.seed}`)).toEqual([
      'oracle/1',
      'oracle/2',
      'oracle/3',
      'floor:noop/1',
      'floor:noop/2',
      'floor:noop/3',
    ]);
    expect(new Set(cells.map((c) => c.runId)).size).toBe(6);
    expect(cells.every((c) => c.runId.length <= 100)).toBe(true);
  });

  it('a sweep gives each combination its own run id, and the same one again', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(models, { minLength: 1, maxLength: 4 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 3 }),
        (ms, seeds, trials) => {
          const file = SweepFile.parse({ name: 'g', suites: ['alrm', 'rtw'], models: ms, seeds, trials });
          const ids = sweepCells(file).map((c) => c.runId);
          expect(new Set(ids).size).toBe(ids.length);
          expect(sweepCells(file).map((c) => c.runId)).toEqual(ids);
          const other = sweepCells(SweepFile.parse({ name: 'g', suites: ['alrm', 'rtw'], models: ms, seeds, trials: trials + 1 }));
          expect(other.some((c) => ids.includes(c.runId))).toBe(false);
        },
      ),
      { numRuns: fuzzRuns(100), seed: fuzzSeed(38) },
    );
  });
});
