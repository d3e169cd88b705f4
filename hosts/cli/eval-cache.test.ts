// eval --cache DIR against the local OpenAI-compatible server: the first run asks
// the server and records each answer by its request; the same run again (a new
// run id, a new results folder) sends it no request and records the same rows.
// A request that differs in any part the key covers is a miss.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Completion, CompletionRequest, Model } from '../../agents/models/model';
import { openResults } from '../../eval/results/index';
import { main } from './main';
import { type OracleServer, recordOracleReplies, startOracleServer } from '../../test/support/oracle-server';
import { requestKey, withResponseCache } from '../../eval/scale/response-cache';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const CASES = { suite: 'alrm', workflow: 'flat', offProtocol: true, filter: 'boxes/3' } as const;
const SMALL = ['--suite', 'alrm', '--workflow', 'flat', '--off-protocol', '--filter', 'boxes/3'];

/** A row without what differs between two runs of the same answers: the run, the clock and the files. */
function comparable(db: string): unknown[] {
  const store = openResults(db, { mode: 'read' });
  try {
    const run = store.runs()[0]!;
    return store
      .results(run.runId)
      .map(({ runId: _r, recordedAt: _t, durationMs: _d, modelMs: _m, tracePath: _p, ...rest }) => rest)
      .sort((a, b) => a.caseId.localeCompare(b.caseId) || a.trial - b.trial);
  } finally {
    store.close();
  }
}

describe('response cache', () => {
  let oracle: OracleServer;
  beforeAll(async () => {
    oracle = await startOracleServer(await recordOracleReplies(CASES), 0);
  }, 120_000);
  afterAll(() => oracle?.close());

  it('a second run with the same --cache sends the model no request and records identical rows', async () => {
    const cache = mkdtempSync(path.join(tmpdir(), 'skillbridge-cache-'));
    const first = mkdtempSync(path.join(tmpdir(), 'skillbridge-cache-run1-'));
    const second = mkdtempSync(path.join(tmpdir(), 'skillbridge-cache-run2-'));
    const a = await cli('eval', ...SMALL, '--model', oracle.spec, '--cache', cache, '--out', first, '--json');
    expect(a.code, a.err).toBe(0);
    const asked = oracle.calls();
    expect(asked).toBeGreaterThan(0);
    expect(oracle.misses()).toBe(0);
    const b = await cli('eval', ...SMALL, '--model', oracle.spec, '--cache', cache, '--out', second, '--json');
    expect(b.code, b.err).toBe(0);
    expect(oracle.calls()).toBe(asked);
    expect(JSON.parse(b.out)).toMatchObject({ score: 1, errors: 0 });
    expect(comparable(second)).toEqual(comparable(first));
  }, 300_000);

  it('keys every part that decides the answer, and caches no failed call', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skillbridge-cache-keys-'));
    const base: CompletionRequest = { messages: [{ role: 'user', content: 'hi' }], temperature: 0 };
    const variants: CompletionRequest[] = [
      { ...base, messages: [{ role: 'user', content: 'hi!' }] },
      { ...base, temperature: 0.7 },
      { ...base, toolChoice: 'required' },
      { ...base, tools: [{ type: 'function', function: { name: 'pick', description: 'pick', parameters: {} } }] },
    ];
    const keys = new Set([requestKey('m', base), requestKey('other', base), ...variants.map((v) => requestKey('m', v))]);
    expect(keys.size).toBe(2 + variants.length);
    // Callbacks and the signal are not part of it.
    expect(requestKey('m', { ...base, onText: () => undefined, signal: new AbortController().signal })).toBe(requestKey('m', base));

    let calls = 0;
    let fail = true;
    const answer: Completion = {
      message: { role: 'assistant', content: 'hello' },
      toolCalls: [],
      usage: { promptTokens: 3, completionTokens: 1, totalTokens: 4 },
    };
    const model: Model = {
      id: 'm',
      complete: async () => {
        calls++;
        if (fail) throw new Error('server down');
        return answer;
      },
    };
    const counts = { hits: 0, misses: 0 };
    const cached = withResponseCache(model, dir, counts);
    await expect(cached.complete(base)).rejects.toThrow('server down');
    fail = false;
    expect(await cached.complete(base)).toEqual(answer);
    let streamed = '';
    expect(await cached.complete({ ...base, onText: (t) => (streamed += t) })).toEqual(answer);
    expect(streamed).toBe('hello');
    expect({ calls, ...counts }).toEqual({ calls: 2, hits: 1, misses: 2 });
  });
});
