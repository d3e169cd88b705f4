// A sweep's run ids are made from everything that makes each run: two models
// whose specs differ late, or a changed seed, trials, sample or filter, never
// share a run id (a re-run sweep must not keep a run made with other settings).
import { describe, expect, it } from 'vitest';
import { SweepFile, sweepCells } from './sweep';

const base = (over: Record<string, unknown> = {}) => SweepFile.parse({ name: 'ckpt', suites: ['alrm'], models: ['oracle'], ...over });
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
});
