// The queue is a door. Whoever can write to the Redis can write jobs and results,
// so a worker runs only a job the coordinator signed, and holds its fields to the
// worker's host policy: a model naming a server gets no key the worker was not
// told to send there, `scripted:FILE` and `local:PATH` read nothing of the
// worker's, a run id cannot leave the worker's folder; the coordinator records
// a result only when it is signed for the job and is the case the job named; a
// worker refuses a Redis anyone can reach unless told it is a private machine.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Job, Queue, QueueEvents, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalCase } from '../../eval/core/case';
import { casesSourceKey } from '../../eval/runner/cases';
import { PACKAGE_VERSION } from '../../eval/results/index';
import { queueSlots } from '../../eval/scale/queue';
import {
  CaseJob,
  type CaseJobResult,
  JOB_REFS,
  QUEUE_NAME,
  canonicalJson,
  jobId,
  parseQueueUrl,
  queueSecret,
  signJob,
  signResult,
  verifyJob,
  verifyResult,
} from '../../eval/scale/queue-protocol';
import { OpenRedisError, runQueueWorker } from '../../eval/scale/queue-worker';
import { TERMINAL } from '../../test/support/host-refs';
import { textFields } from '../../test/support/schema-fields';
import { type OpenAIServer, startOpenAIServer } from '../../test/support/openai-server';
import { type TestRedis, hasRedis, startOpenRedis, startRedis } from '../../test/support/redis-server';
import { HostPolicy } from './host-policy';
import { queueDoor } from './queue-door';

const SECRET = queueSecret({ SKILLBRIDGE_QUEUE_SECRET: 'the-coordinators-secret-0123456789' });
const STRANGER = queueSecret({ SKILLBRIDGE_QUEUE_SECRET: 'someone-elses-secret-9876543210' });
const WORKER_KEY = 'sk-WORKER-KEY-must-stay-home';

function job(over: Partial<CaseJob> = {}): CaseJob {
  return {
    runId: 'run-1',
    identity: '0123456789abcdef',
    suite: 'alrm',
    workflow: 'flat',
    model: 'oracle',
    seed: 1,
    caseId: 'alrm/x',
    trial: 1,
    casesKey: casesSourceKey('alrm'),
    packageVersion: PACKAGE_VERSION,
    ...over,
  };
}

describe('signatures (no Redis needed)', () => {
  it('a job verifies only unchanged and signed with the same secret', () => {
    const j = job();
    expect(verifyJob(signJob(j, SECRET), SECRET)).toMatchObject({ ok: true, job: j });
    expect(verifyJob(j, SECRET)).toMatchObject({ ok: false, why: expect.stringMatching(/not signed/) });
    expect(verifyJob(signJob(j, STRANGER), SECRET)).toMatchObject({ ok: false, why: expect.stringMatching(/signature/) });
    const changed = { ...signJob(j, SECRET), job: { ...j, model: 'scripted:/etc/passwd' } };
    expect(verifyJob(changed, SECRET).ok).toBe(false);
    // Key order is not part of what is signed.
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe(canonicalJson({ a: { c: 3, d: 2 }, b: 1 }));
  });

  it('a result is taken only for the job it was signed for, and only as the case that job named', () => {
    const b = { jobId: 'run-1|alrm/x|1', runId: 'run-1', caseId: 'alrm/x', trial: 1 };
    const result: CaseJobResult = {
      record: { caseId: 'alrm/x', trial: 1, status: 'ok', score: 1 },
      timing: { totalMs: 1, restoreMs: 0, buildMs: 0, modelMs: 0, toolMs: 0, overheadMs: 0 },
      traces: [],
      worker: 'w',
    };
    expect(verifyResult(signResult(b, result, SECRET), b, SECRET).ok).toBe(true);
    expect(verifyResult(result, b, SECRET)).toMatchObject({ ok: false, why: expect.stringMatching(/not signed/) });
    expect(verifyResult(signResult(b, result, STRANGER), b, SECRET).ok).toBe(false);
    // A valid result of another job, replayed for this one.
    const other = { ...b, jobId: 'run-1|alrm/y|1', caseId: 'alrm/y' };
    expect(verifyResult(signResult(other, result, SECRET), b, SECRET).ok).toBe(false);
    // Signed for this job, but the record is another case's.
    const forged = { ...result, record: { ...result.record, caseId: 'alrm/y' } };
    expect(verifyResult(signResult(b, forged, SECRET), b, SECRET)).toMatchObject({
      ok: false,
      why: expect.stringMatching(/result of alrm\/y#1 for the job of alrm\/x#1/),
    });
  });

  it('wants a secret of 16 characters or more, from the environment or a file', () => {
    expect(() => queueSecret({})).toThrow(/SKILLBRIDGE_QUEUE_SECRET/);
    expect(() => queueSecret({ SKILLBRIDGE_QUEUE_SECRET: 'short' })).toThrow(/at least 16/);
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-secret-'));
    writeFileSync(path.join(dir, 'secret'), 'from-a-file-0123456789\n');
    expect(queueSecret({ SKILLBRIDGE_QUEUE_SECRET_FILE: path.join(dir, 'secret') }).bytes.toString()).toBe('from-a-file-0123456789');
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("the worker's policy for a job's fields (no Redis needed)", () => {
  /** Job fields that name nothing of the worker's: looked up in its own tables, or compared. */
  const PLAIN_JOB_FIELDS: Record<string, string> = {
    workflow: 'a workflow id, looked up in the table of workflows',
    caseId: "a case id, looked up in the suite's cases",
    casesKey: "compared with the worker's own cases key",
    packageVersion: "compared with the worker's own version",
    identity: "the run's content hash (16 hex digits), part of the job id the worker checks",
    'suiteFile.name': "a file name (no folder), for the suite file's messages only",
    'suiteFile.text': "a suite file's text, parsed as data (cases, scenes, goals): nothing of the worker's is read",
  };

  it('classifies every string field of the job schema, and parses each host field through the policy', async () => {
    const fields = textFields(CaseJob);
    const unclassified = fields.filter((f) => !(f.path in JOB_REFS) && !PLAIN_JOB_FIELDS[f.path]).map((f) => f.path);
    expect(unclassified).toEqual([]);
    const parsed: Array<[string, string]> = [];
    class Recording extends HostPolicy {
      override runId(id: string, field?: string) {
        parsed.push(['run-id', id]);
        return super.runId(id, field);
      }
      override suite(given: string, field?: string) {
        parsed.push(['suite', given]);
        return super.suite(given, field);
      }
      override async evalModel(spec: string, field?: string) {
        parsed.push(['model', spec]);
        return super.evalModel(spec, field);
      }
    }
    await queueDoor(new Recording({}))(job({ runId: 'r-1', suite: 'alrm', model: 'oracle', judge: 'floor:noop' }));
    for (const [field, kind] of Object.entries(JOB_REFS)) {
      const value = { runId: 'r-1', suite: 'alrm', model: 'oracle', judge: 'floor:noop' }[field]!;
      expect(parsed, field).toContainEqual([kind, value]);
    }
  });

  const admit = queueDoor(new HostPolicy({ env: { SKILLBRIDGE_API_KEY: WORKER_KEY }, scriptFiles: 'none' }));
  it.each([
    ['runId', { runId: '../../escape' }, /job\.runId/],
    ['runId', { runId: 'a/b' }, /job\.runId/],
    ['suite', { suite: '/etc/passwd' }, /job\.suite: unknown suite/],
    ['model', { model: 'scripted:/etc/passwd' }, /job\.model: .*reads no script files/],
    ['model', { model: 'local:/etc/passwd' }, /job\.model: .*not a model name/],
    ['judge', { judge: 'scripted:/etc/passwd' }, /job\.judge: /],
  ])('refuses a job whose %s names something of the worker: %j', async (_f, over, why) => {
    await expect(admit(job(over as Partial<CaseJob>))).rejects.toThrow(why);
  });

  it("gives a model naming another server an environment without the worker's key", async () => {
    const a = await admit(job({ model: 'openai-compatible:m@http://127.0.0.1:9/v1' }));
    expect(Object.values(a.env)).not.toContain(WORKER_KEY);
    const bound = await queueDoor(new HostPolicy({ env: { SKILLBRIDGE_API_KEY: WORKER_KEY }, allowKeyFor: ['http://127.0.0.1:9/v1'] }))(
      job({ model: 'openai-compatible:m@http://127.0.0.1:9/v1' }),
    );
    expect(bound.env['SKILLBRIDGE_API_KEY']).toBe(WORKER_KEY);
    expect(bound.env['SKILLBRIDGE_API_BASE_URL']).toBe('http://127.0.0.1:9/v1');
  });
});

describe.skipIf(!hasRedis())('a worker on a real Redis', () => {
  let redis: TestRedis;
  let server: OpenAIServer;
  let queue: Queue;
  let events: QueueEvents;
  const ac = new AbortController();
  let worker: Promise<unknown>;
  const home = mkdtempSync(path.join(tmpdir(), 'sb-worker-home-'));
  const secretFile = path.join(home, 'secret-script.json');
  const log: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    server = await startOpenAIServer(Array.from({ length: 40 }, () => ({ content: 'done' })));
    // A file of the worker's, shaped like a script a scripted model would replay.
    writeFileSync(secretFile, JSON.stringify([{ content: 'WORKER-SECRET-CONTENT' }]));
    const conn = { ...parseQueueUrl(redis.url), maxRetriesPerRequest: null };
    queue = new Queue(QUEUE_NAME, { connection: conn });
    events = new QueueEvents(QUEUE_NAME, { connection: conn });
    await events.waitUntilReady();
    worker = runQueueWorker({
      url: redis.url,
      secret: SECRET,
      admit: queueDoor(new HostPolicy({ env: { ...process.env, SKILLBRIDGE_API_KEY: WORKER_KEY, SKILLBRIDGE_API_BASE_URL: '' } })),
      signal: ac.signal,
      lockMs: 3000,
      onLog: (l) => log.push(l),
    });
  }, 60_000);

  afterAll(async () => {
    ac.abort();
    await worker?.catch(() => undefined);
    await events?.close();
    await queue?.close();
    await server?.close();
    await redis?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  /** Puts a job on the queue as the coordinator would (signed) or as a stranger (unsigned), and waits for its end. */
  async function enqueue(j: CaseJob, how: 'signed' | 'unsigned' | 'stranger'): Promise<{ ok: boolean; value: string }> {
    const data = how === 'signed' ? signJob(j, SECRET) : how === 'stranger' ? signJob(j, STRANGER) : j;
    const added: Job = await queue.add('case', data, { jobId: jobId(j.runId, j.identity, j.caseId, j.trial), attempts: 1 });
    try {
      return { ok: true, value: JSON.stringify(await added.waitUntilFinished(events, 120_000)) };
    } catch (e) {
      return { ok: false, value: (e as Error).message };
    }
  }

  const realCase = async () => {
    const { loadCases } = await import('../../eval/runner/cases');
    const { findSuite } = await import('../../eval/suites/index');
    return (await loadCases(findSuite('alrm')!, {})).cases.find((c) => c.id.includes('boxes/3'))!;
  };

  it("sends the worker's key to no server a job names, signed or not", async () => {
    const c = await realCase();
    const model = `openai-compatible:m@${server.url}`;
    const stranger = await enqueue(job({ runId: 'stranger-run', caseId: c.id, model }), 'unsigned');
    expect(stranger.ok).toBe(false);
    expect(stranger.value).toMatch(/not signed/);
    const forged = await enqueue(job({ runId: 'forged-run', caseId: c.id, model }), 'stranger');
    expect(forged.value).toMatch(/signature does not match/);
    expect(server.requests).toHaveLength(0);
    const signed = await enqueue(job({ runId: 'signed-run', caseId: c.id, model }), 'signed');
    expect(signed.ok).toBe(true);
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.map((r) => r.headers['authorization'] ?? null).filter((h) => h?.includes(WORKER_KEY))).toEqual([]);
  }, 150_000);

  it('reads no file of the worker for scripted:FILE or local:PATH, and writes nothing outside its folder for a run id', async () => {
    const c = await realCase();
    const script = await enqueue(job({ runId: 'script-run', caseId: c.id, model: `scripted:${secretFile}` }), 'signed');
    expect(script.ok).toBe(false);
    expect(script.value).not.toContain('WORKER-SECRET-CONTENT');
    const local = await enqueue(job({ runId: 'local-run', caseId: c.id, model: 'local:/etc/passwd' }), 'signed');
    expect(local.ok).toBe(false);
    expect(local.value).toMatch(/not a model name/);
    const escape = `escape-${process.pid}`;
    const outside = await enqueue(job({ runId: `../../../../${tmpdir().slice(1)}/${escape}`, caseId: c.id }), 'signed');
    expect(outside.ok).toBe(false);
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith(escape))).toEqual([]);
    expect(existsSync(path.join(tmpdir(), escape))).toBe(false);
  }, 150_000);

  it("records a result only for the case its job named: a result forged for another case is an error, not that case's row", async () => {
    const init = {
      suite: 'alrm',
      identity: '0123456789abcdef',
      workflow: 'flat',
      model: TERMINAL.model('oracle'),
      seed: 1,
      traceDir: path.join(home, 'traces'),
      env: {},
      files: TERMINAL.files(),
    };
    // The coordinator of another run id (its own queue name is shared; a stranger's worker answers it).
    const [slot] = await queueSlots(redis.url, init, 'coord-run', SECRET);
    const conn = { ...parseQueueUrl(redis.url), maxRetriesPerRequest: null };
    // Someone with access to the Redis but not the secret: takes the job and answers with another case's result.
    ac.abort();
    await worker;
    const evil = new Worker(
      QUEUE_NAME,
      async (): Promise<unknown> => {
        const result: CaseJobResult = {
          record: { caseId: 'alrm/other-case', trial: 1, status: 'ok', score: 1 },
          timing: { totalMs: 1, restoreMs: 0, buildMs: 0, modelMs: 0, toolMs: 0, overheadMs: 0 },
          traces: [],
          worker: 'evil',
        };
        return signResult({ jobId: 'x', runId: 'coord-run', caseId: 'alrm/other-case', trial: 1 }, result, STRANGER);
      },
      { connection: conn },
    );
    try {
      const c = { id: 'alrm/the-case', labels: {}, world: { key: 'k' } } as unknown as EvalCase;
      const r = await slot!.run(c, 1);
      expect(r.record.caseId).toBe('alrm/the-case');
      expect(r.record.status).toBe('error');
      expect(r.record.error).toMatch(/signature does not match|not signed/);
    } finally {
      await evil.close();
      await slot!.close();
    }
  }, 60_000);
});

describe.skipIf(!hasRedis())('a Redis anyone can reach', () => {
  it('is refused by a worker unless it is told the machine is private (--private-redis)', async () => {
    const open = await startOpenRedis();
    if (!open) return; // only CI's Redis, which this test does not change
    try {
      const o = { url: open.url, secret: SECRET, admit: queueDoor(new HostPolicy({})) };
      await expect(runQueueWorker(o)).rejects.toBeInstanceOf(OpenRedisError);
      await expect(runQueueWorker(o)).rejects.toThrow(/requirepass.*--private-redis/);
      const ac = new AbortController();
      const lines: string[] = [];
      const running = runQueueWorker({ ...o, privateRedis: true, signal: ac.signal, onLog: (l) => lines.push(l) });
      await expect.poll(() => lines.some((l) => / on redis:/.test(l)), { timeout: 20_000 }).toBe(true);
      ac.abort();
      await running;
    } finally {
      open.stop();
    }
  }, 60_000);
});
