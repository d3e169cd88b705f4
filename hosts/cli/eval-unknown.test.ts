// A case whose outcome is unknown is an error, never a 0: with the model's server
// unreachable (a closed loopback port) every case is recorded as an error naming
// the endpoint, the summary counts them and names the commonest reason, the exit
// code is 3 (under --json too), and --resume runs exactly the errored ones again
// once the server answers (the local OpenAI-compatible test server on that port).
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openResults } from '../../eval/results/index';
import { type RecordedRequest, type ScriptStep, startOpenAIServer } from '../../test/support/openai-server';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

/** A loopback port nothing listens on (found free, then closed). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const root = join(import.meta.dirname, '../..');
/** Two cases on the fruits table: "put the lemon in the bowl" and "pick up the lemon and keep holding it". */
const SUITE = join(root, 'examples/suites/fruits.json');

interface Body {
  runId: string;
  errors: number;
  score: number | null;
  cases: number;
  errorReasons: Array<{ kind: string; count: number; example: string }>;
  counts: { planned: number; scored: number; errors: number; stopped: number; missing: number };
}

const lastUserText = (req: RecordedRequest) => {
  const msgs = (req.body as { messages: Array<{ role: string; content?: string | null }> }).messages;
  return [...msgs].reverse().find((m) => m.role === 'user')?.content ?? '';
};
const answered = (req: RecordedRequest) => (req.body as { messages: Array<{ role: string }> }).messages.some((m) => m.role === 'tool');

/** The model picks the lemon, then says it is done: "keep holding it" is reached (1), "in the bowl" is not (0). */
const picker = (req: RecordedRequest): ScriptStep =>
  answered(req) ? { content: 'Done.' } : { toolCalls: [{ name: 'pick', arguments: { object_name: 'lemon' } }] };

describe('eval with a model that cannot be reached', () => {
  it('records each case as an error naming the endpoint (no 0), counts them, exits 3, and --resume runs exactly those', async () => {
    const port = await closedPort();
    const model = `openai-compatible:test-model@http://127.0.0.1:${port}/v1`;
    const out = mkdtempSync(join(tmpdir(), 'skillbridge-cli-eval-unknown-'));

    const first = await cli('eval', '--suite', SUITE, '--model', model, '--out', out, '--json');
    expect(first.code, first.err).toBe(3);
    const body = JSON.parse(first.out) as Body;
    expect(body).toMatchObject({ cases: 2, errors: 2, score: null });
    expect(body.counts).toEqual({ planned: 2, scored: 0, errors: 2, stopped: 0, missing: 0 });
    expect(body.errorReasons).toHaveLength(1);
    expect(body.errorReasons[0]).toMatchObject({ kind: 'model-unreachable', count: 2 });
    expect(body.errorReasons[0]!.example).toContain(`http://127.0.0.1:${port}/v1`);
    let db = openResults(out, { mode: 'read' });
    const rows = db.results(body.runId);
    db.close();
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'error', score: null, success: null, errorKind: 'model-unreachable' });
      expect(r.error).toMatch(/Could not reach/);
    }

    // Still down: resumed, the same two run again and still have no score; the line names the reason.
    const still = await cli('eval', '--resume', body.runId, '--out', out);
    expect(still.code).toBe(3);
    expect(still.out).toMatch(/score – .*over 0 scored of 2 case × trials, 2 errors \(commonest: model-unreachable ×2: Could not reach/);
    expect(still.out).toMatch(/not scored: 2 errored, 0 not run of 2 \(exit 3\); run them again with "skillbridge eval --resume/);

    // The server is back on that port but fails for the "keep holding" case (503 after the adapter's retries).
    const flaky = await startOpenAIServer([], {
      port,
      whenEmpty: (req) => (/keep holding/.test(lastUserText(req)) ? { status: 503, error: 'overloaded' } : picker(req)),
    });
    let partly;
    try {
      partly = await cli('eval', '--resume', body.runId, '--out', out, '--json');
    } finally {
      await flaky.close();
    }
    expect(partly.code).toBe(3);
    const b2 = JSON.parse(partly.out) as Body;
    expect(b2.counts).toEqual({ planned: 2, scored: 1, errors: 1, stopped: 0, missing: 0 });
    // Over the one scored case only: the lemon is held, not in the bowl.
    expect(b2.score).toBe(0);
    expect(b2.errorReasons).toEqual([{ kind: 'model-server', count: 1, example: expect.stringMatching(/503/) }]);
    db = openResults(out, { mode: 'read' });
    const kept = db.results(body.runId).find((r) => r.caseId === 'lemon-bowl')!;
    db.close();
    expect(kept).toMatchObject({ status: 'ok', score: 0 });

    // Now it answers every case: only the errored one runs (two requests), the scored one is kept as it was.
    const up = await startOpenAIServer([], { port, whenEmpty: picker });
    let last;
    try {
      last = await cli('eval', '--resume', body.runId, '--out', out, '--json');
      expect(up.chatRequests().map(lastUserText)).toEqual([expect.stringMatching(/keep holding/), expect.stringMatching(/keep holding/)]);
    } finally {
      await up.close();
    }
    expect(last.code, last.err).toBe(0);
    const b3 = JSON.parse(last.out) as Body;
    expect(b3).toMatchObject({ errors: 0, errorReasons: [], score: 0.5 });
    expect(b3.counts).toEqual({ planned: 2, scored: 2, errors: 0, stopped: 0, missing: 0 });
    db = openResults(out, { mode: 'read' });
    const after = db.results(body.runId);
    db.close();
    expect(after.find((r) => r.caseId === 'lemon-bowl')!.recordedAt).toBe(kept.recordedAt);
    expect(after.map((r) => [r.caseId, r.status, r.score])).toEqual([
      ['lemon-bowl', 'ok', 0],
      ['lemon-held', 'ok', 1],
    ]);
  }, 300_000);

  it('a server that refuses the key: each case an error "model-auth", exit 3', async () => {
    const server = await startOpenAIServer([], { apiKey: 'the-right-key', whenEmpty: picker });
    const out = mkdtempSync(join(tmpdir(), 'skillbridge-cli-eval-auth-'));
    try {
      const r = await cli('eval', '--suite', SUITE, '--model', `openai-compatible:test-model@${server.url}`, '--out', out, '--json');
      expect(r.code, r.err).toBe(3);
      const body = JSON.parse(r.out) as Body;
      expect(body).toMatchObject({ errors: 2, score: null, errorReasons: [{ kind: 'model-auth', count: 2 }] });
    } finally {
      await server.close();
    }
  }, 120_000);
});
