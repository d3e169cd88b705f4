// Held-out gaming models, of the classes the shipped floors cover but not
// shipped with the harness (a scorer tuned to the floors must still hold):
// narrate — talks instead of acting: writes the oracle's first tool call out as
//           prose, then claims success;
// echo    — stuffs the task's own words: repeats the instruction back as done,
//           with a done and a refused status line;
// hedge   — answers every label at once: one structured answer per verdict
//           and issue type, every status, every success word.
// On every suite's sample (the floors' own), each stays within 0.1 of floor:noop on the headline
// (RAIDER: and Expl, Grnd), and the oracle still scores 1.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompletionRequest, Model } from '../../agents/models/model';
import { aggregate, headline } from '../report/stats';
import type { ResultRecord } from '../results/index';
import { WorldPool } from '../core/world';
import { isClassify } from '../reference/policies';
import { sampleCases } from '../runner/cases';
import { runCase } from '../runner/run-case';
import { SUITES } from '../suites/index';
import { CLAIM } from './adversaries';
import { sharedSmallCases } from '../../test/support/shared-cases';
import { typedModel } from '../../test/support/host-refs';

const traceDir = mkdtempSync(join(tmpdir(), 'skillbridge-held-out-'));
const pool = new WorldPool({ seed: 1 });
afterAll(() => pool.dispose());

const instruction = (req: CompletionRequest) =>
  [...req.messages].reverse().find((m) => m.role === 'user' && typeof m.content === 'string')?.content ?? '';

const HEDGE = [
  ...[
    'ambiguity:IA',
    'unfeasibility:IU1',
    'unfeasibility:IU2',
    'unfeasibility:IU3',
    'unfeasibility:IU4',
    'unfeasibility:IU5',
    'unfeasibility:IU6',
    'none:IN',
  ].map((x) => JSON.stringify({ final_response: x.split(':')[0], explanation: 'See above.', category: x.split(':')[1], objects: [] })),
  'STATUS: done',
  'STATUS: refused',
  'STATUS: blocked',
  CLAIM,
].join('\n');

/** A held-out model around the case's own model spec (`inner`): `say` decides the reply to every non-routing request. */
function heldOut(say: (req: CompletionRequest, inner: Model) => Promise<string>) {
  return (inner: Model): Model => ({
    id: inner.id,
    async complete(req) {
      // The routing step (MAYA's classify) is answered as the inner model answers it.
      if (isClassify(req)) return inner.complete(req);
      return { message: { role: 'assistant', content: await say(req, inner) }, toolCalls: [] };
    },
  });
}

const HELD_OUT: Record<string, { model: string; wrap: (m: Model) => Model }> = {
  narrate: {
    model: 'oracle',
    wrap: heldOut(async (req, inner) => {
      const r = await inner.complete(req);
      const calls = (r.message.tool_calls ?? []).map((t) => `${t.function.name}(${t.function.arguments})`);
      return `I called ${calls.join(', then ') || 'the tools I needed'} and everything worked. ${CLAIM}`;
    }),
  },
  echo: {
    model: 'floor:claim',
    wrap: heldOut(async (req) => {
      const i = instruction(req);
      return `Done: ${i} ${i}\nSTATUS: done\nSTATUS: refused\n${CLAIM}`;
    }),
  },
  hedge: { model: 'floor:claim', wrap: heldOut(async () => HEDGE) },
};

describe.each(SUITES.map((s) => [s.id, s] as const))('held-out gaming models on %s', (_id, suite) => {
  it('stay within 0.1 of floor:noop, and the oracle scores 1', async () => {
    // The self-test's small set: every category, the same sample as the shipped floors play.
    const sample = sampleCases(await sharedSmallCases(suite), Number(process.env['FLOORS_SAMPLE'] ?? 8), 1, suite.report.categoryAxis);
    const figures: Record<string, Record<string, number | null>> = {};
    const runs: Array<[string, string, ((m: Model) => Model) | undefined]> = [
      ['oracle', 'oracle', undefined],
      ['floor:noop', 'floor:noop', undefined],
      ...Object.entries(HELD_OUT).map(([k, v]): [string, string, (m: Model) => Model] => [k, v.model, v.wrap]),
    ];
    for (const [name, model, wrap] of runs) {
      const rows: ResultRecord[] = [];
      for (const c of sample) {
        const r = await runCase({
          suite,
          case: c,
          trial: 1,
          workflow: suite.defaultWorkflow,
          ...typedModel(model),
          seed: 1,
          pool,
          traceDir,
          ...(wrap ? { wrapModel: wrap } : {}),
        });
        rows.push({ ...r.record, labels: c.labels, metrics: r.record.metrics ?? {} } as unknown as ResultRecord);
      }
      const f: Record<string, number | null> = { headline: headline(suite.report, rows).value };
      if (suite.id === 'raider') for (const k of ['expl', 'grnd'] as const) f[k] = aggregate(rows, suite.report.metrics[k]!).value ?? 0;
      f['errors'] = rows.filter((r) => r.status !== 'ok').length;
      figures[name] = f;
    }
    console.log(`${suite.id} held-out: ${JSON.stringify(figures)}`);
    expect(figures['oracle']!['headline']).toBe(1);
    const noop = figures['floor:noop']!;
    const over: string[] = [];
    for (const name of Object.keys(HELD_OUT)) {
      const f = figures[name]!;
      expect(f['errors'], `${name} crashed`).toBe(0);
      for (const k of Object.keys(f).filter((x) => x !== 'errors'))
        if ((f[k] ?? 0) > (noop[k] ?? 0) + 0.1) over.push(`${name} ${k} ${f[k]} vs noop ${noop[k]}`);
    }
    expect(over).toEqual([]);
  }, 1_800_000);
});
