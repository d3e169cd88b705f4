// The queue path treats an unknown outcome as the runner does: with the model's
// server unreachable a worker tries each case JOB_ATTEMPTS times and then returns
// it as an error (no score) naming the endpoint; resuming the run puts exactly
// those jobs back on the queue with all their tries, and once the server answers
// they are scored. Needs `redis-server` (CI installs it); skips where it is absent.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../../test/support/openai-server';
import { smallCasesCacheDir } from '../../test/support/shared-cases';
import { TERMINAL, typedModel } from '../../test/support/host-refs';
import { openResults } from '../../eval/results/index';
import { runEval } from '../../eval/runner/runner';
import { findSuite } from '../../eval/suites/index';
import { JOB_ATTEMPTS, queueSlots } from '../../eval/scale/queue';
import { queueSecret } from '../../eval/scale/queue-protocol';
import { runQueueWorker } from '../../eval/scale/queue-worker';
import { HostPolicy } from './host-policy';
import { queueDoor } from './queue-door';

const SECRET = queueSecret({ SKILLBRIDGE_QUEUE_SECRET: 'queue-unknown-secret-0123456789' });
const PASSWORD = 'queue-unknown-redis-password';

function hasRedis(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const available = hasRedis();
if (!available) console.warn('queue-unknown.test.ts skipped: no redis-server on PATH (apt-get install redis-server; CI installs it)');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe.skipIf(!available)('eval --queue with a model that cannot be reached', () => {
  let redis: ChildProcess | undefined;
  let url = '';
  beforeAll(async () => {
    const port = await freePort();
    redis = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--requirepass', PASSWORD],
      { stdio: 'ignore' },
    );
    url = `redis://:${PASSWORD}@127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const s = connect(port, '127.0.0.1');
        s.once('connect', () => (s.end(), resolve(true)));
        s.once('error', () => resolve(false));
      });
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(() => {
    redis?.kill('SIGKILL');
  });

  it('records the cases as errors after their tries, and a resumed run puts exactly those back on the queue', async () => {
    const modelPort = await freePort();
    const model = `openai-compatible:test-model@http://127.0.0.1:${modelPort}/v1`;
    const cacheDir = await smallCasesCacheDir(findSuite('rtw')!);
    const out = mkdtempSync(join(tmpdir(), 'skillbridge-queue-unknown-'));
    const log: string[] = [];
    const stop = new AbortController();
    const worker = runQueueWorker({
      url,
      concurrency: 2,
      signal: stop.signal,
      cacheDir,
      onLog: (l) => log.push(l),
      secret: SECRET,
      admit: queueDoor(new HostPolicy({})),
    });
    try {
      const scale = { slots: (init: Parameters<typeof queueSlots>[1], runId: string) => queueSlots(url, init, runId, SECRET) };
      const first = await runEval({
        suite: TERMINAL.suite('rtw'),
        ...typedModel(model),
        filter: 'toro/step-10cm',
        outDir: out,
        cacheDir,
        scale,
      });
      expect(first.counts).toEqual({ planned: 1, scored: 0, errors: 1, stopped: 0, missing: 0 });
      expect(first.summary.score).toBeNull();
      expect(first.summary.errorReasons).toEqual([
        { kind: 'model-unreachable', count: 1, example: expect.stringContaining(`127.0.0.1:${modelPort}`) },
      ]);
      expect(log.filter((l) => l.startsWith('start toro/step-10cm#1'))).toHaveLength(JOB_ATTEMPTS);

      // The server answers now: the resumed run sends the errored job round again, and it is scored.
      const server = await startOpenAIServer([], { port: modelPort, whenEmpty: { content: 'I cannot do that.' } });
      try {
        const again = await runEval({
          resume: TERMINAL.runId(first.run.runId),
          files: TERMINAL.files(),
          reopen: TERMINAL,
          outDir: out,
          cacheDir,
          scale,
        });
        expect(again.counts).toEqual({ planned: 1, scored: 1, errors: 0, stopped: 0, missing: 0 });
        expect(server.chatRequests().length).toBeGreaterThan(0);
      } finally {
        await server.close();
      }
      expect(log.filter((l) => l.startsWith('start toro/step-10cm#1'))).toHaveLength(JOB_ATTEMPTS + 1);
      const db = openResults(out, { mode: 'read' });
      const [row] = db.results(first.run.runId);
      db.close();
      expect(row).toMatchObject({ status: 'ok', errorKind: null });
    } finally {
      stop.abort();
      await worker;
    }
  }, 300_000);
});
