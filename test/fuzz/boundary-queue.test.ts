// The queue as a door, attacked from its job schema: every string field of a
// job (run id, suite, model, judge, case, keys) given hostile paths, model
// specs naming a listener and odd values. A worker admits a job through its
// host policy (hosts/service/queue-door.ts); what it admits is then built as a
// case builds its model and asked once. Invariants: a job is refused or admitted
// with a run id that is one folder name; building and asking its model opens
// nothing outside the worker's folders, and the worker's key reaches no server
// but the one it is for; nothing crashes.
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createModel } from '../../agents/models/spec';
import { CaseJob } from '../../eval/scale/queue-protocol';
import { HostPolicy } from '../../hosts/service/host-policy';
import { queueDoor } from '../../hosts/service/queue-door';
import { type OpenAIServer, startOpenAIServer } from '../support/openai-server';
import { fuzzRuns, fuzzSeed } from './support/budget';
import { type JsonSchema, fromSchema, stringLeaves, withLeaf } from './support/from-schema';
import { type HostileContext, canonicalHostile, hostileString } from './support/hostile';
import { type OpenWatch, type Outside, makeOutside, watchOpens } from './support/outside';

const KEY = `sk-fuzz-queue-canary-${process.pid}-0123456789`;
let outside: Outside;
let watch: OpenWatch;
let listener: OpenAIServer;
let ctx: HostileContext;
let admit: ReturnType<typeof queueDoor>;

beforeAll(async () => {
  outside = makeOutside();
  watch = await watchOpens([outside.dir]);
  listener = await startOpenAIServer([], { whenEmpty: { content: 'ok' } });
  ctx = { outside, listener: listener.url };
  // The worker's own key, for the base URL it is for (not the listener).
  const env = { SKILLBRIDGE_API_KEY: KEY, SKILLBRIDGE_API_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: KEY };
  admit = queueDoor(new HostPolicy({ env, scriptFiles: { dir: outside.allowed.scripts }, modelsDir: outside.allowed.models }));
});
afterAll(async () => {
  await listener?.close();
  watch?.close();
  outside?.close();
});

const SCHEMA = z.toJSONSchema(CaseJob, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** Problems with one job; empty when the worker refused it or admitted only what its policy allows. */
async function tryJob(raw: unknown): Promise<string[]> {
  listener.requests.length = 0;
  const out: string[] = [];
  const job = CaseJob.safeParse(raw);
  if (job.success) {
    let admitted;
    try {
      admitted = await admit(job.data);
    } catch (e) {
      if (!(e instanceof Error)) out.push(`refused with a non-error: ${String(e)}`);
    }
    if (admitted) {
      if (path.basename(admitted.runId) !== admitted.runId || admitted.runId.startsWith('.'))
        out.push(`admitted the run id "${admitted.runId}", not one folder name`);
      for (const [spec, env] of [
        [admitted.model, admitted.env],
        ...(admitted.judge ? [[admitted.judge.spec, admitted.judge.env] as const] : []),
      ] as const) {
        try {
          const m = createModel(spec, { env, scriptFiles: admitted.files.scripts, localModels: admitted.files.localModels });
          await Promise.race([
            m.complete({ messages: [{ role: 'user', content: 'hi' }], signal: AbortSignal.timeout(5000) }).catch(() => undefined),
            new Promise((r) => setTimeout(r, 6000)),
          ]);
        } catch {
          // a model that cannot be built is the worker's answer too
        }
      }
    }
  }
  const opened = await watch.take();
  if (opened.length) out.push(`touched outside files: ${opened.slice(0, 3).join('; ')}`);
  if (listener.requests.some((r) => JSON.stringify(r.headers).includes(KEY))) out.push("the worker's key went to a server the job named");
  return out.map((p) => `${JSON.stringify(raw).slice(0, 300)}: ${p}`);
}

describe('the queue door, fuzzed from the job schema', () => {
  it('admits only what the worker policy allows: no outside read, no key to a named server, no crash', async () => {
    const found: string[] = [];
    let tried = 0;
    const shapes = canonicalHostile(ctx);
    const [base] = fc.sample(fromSchema(SCHEMA, { hostile: fc.constant('x'), hostileShare: 0, allKeys: true }), {
      seed: fuzzSeed(34),
      numRuns: 1,
    });
    // A job a coordinator of this code would write, so the hostile field is the only odd one.
    const plausible = { ...(base as object), runId: 'run-1', suite: 'alrm', model: 'oracle', workflow: 'flat' };
    delete (plausible as { judge?: string }).judge;
    let k = 0;
    for (const leaf of stringLeaves(plausible))
      for (let i = 0; i < Math.min(shapes.length, fuzzRuns(shapes.length)); i++, k++) {
        tried++;
        found.push(...(await tryJob(withLeaf(plausible, leaf, shapes[k % shapes.length]!))));
      }
    await fc.assert(
      fc.asyncProperty(fromSchema(SCHEMA, { hostile: hostileString(ctx) }), async (job) => {
        tried++;
        found.push(...(await tryJob(job)));
      }),
      { numRuns: fuzzRuns(100), seed: fuzzSeed(34) },
    );
    expect(tried).toBeGreaterThan(100);
    expect(found.slice(0, 10)).toEqual([]);
  }, 600_000);
});
