// The page door, attacked from its own schemas: every AppApi method, each
// string field given paths that lead outside the host's folders, model specs
// naming a listener, and odd values, sent raw over web mode's socket to a
// session in a worker (as `serve` runs it). Invariants, checked per request:
// nothing outside the allowed folders is opened (inotify sees every thread and
// child), no answer or event quotes an outside file or the host's key, the
// host's key never reaches a server it was not stored for, no request crashes
// the host ("internal") or names a host folder in its error, every request is
// answered in bounded time, and a path that exists gets the same answer as one
// that does not (no existence oracle).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { METHODS, METHOD_NAMES, type MethodName } from '../../contract/api';
import { startWorkerSession } from '../../hosts/service/worker-session';
import { type WebServer, startWebServer } from '../../hosts/web/server';
import { type OpenAIServer, startOpenAIServer } from '../support/openai-server';
import { fuzzRuns, fuzzSeed } from './support/budget';
import { type JsonSchema, fromSchema, stringLeaves, withLeaf } from './support/from-schema';
import { type HostileContext, canonicalHostile, hostileString } from './support/hostile';
import { HOST_SECRETS, type OpenWatch, type Outside, makeOutside, watchOpens } from './support/outside';
import { type RawPage, type RawReply, openRawPage } from './support/raw-page';

const KEY = `sk-fuzz-canary-${process.pid}-0123456789abcdef`;
const ANSWER_MS = 20_000;

let outside: Outside;
let watch: OpenWatch;
let listener: OpenAIServer;
let server: WebServer;
let page: RawPage;
let ctx: HostileContext;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  outside = makeOutside();
  watch = await watchOpens([outside.dir]);
  listener = await startOpenAIServer([], { whenEmpty: { content: 'ok' } });
  ctx = { outside, listener: listener.url };
  for (const k of ['SKILLBRIDGE_API_KEY', 'OPENAI_API_KEY']) {
    saved[k] = process.env[k];
    process.env[k] = KEY;
  }
  const staticDir = mkdtempSync(path.join(tmpdir(), 'sb-fuzz-static-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  const a = outside.allowed;
  server = await startWebServer({
    staticDir,
    port: 0,
    openSession: async () => {
      const s = await startWorkerSession({
        paced: false,
        evalDir: a.evalDir,
        traceDir: a.traceDir,
        scriptFiles: { dir: a.scripts },
        modelsDir: a.models,
        exercisesDir: a.exercises,
      });
      await s.loadScene({ id: 'tabletop/fruits' });
      return s;
    },
  });
  page = await openRawPage(`ws://127.0.0.1:${server.port}/api?token=${server.token}`);
  await page.call('listScenes', {}, ANSWER_MS);
  const atStart = await watch.take();
  if (atStart.length) throw new Error(`the session touched outside files as it started: ${atStart.join('; ')}`);
}, 60_000);

afterAll(async () => {
  page?.close();
  await server?.close();
  await listener?.close();
  watch?.close();
  outside?.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const REQUEST_SCHEMAS = Object.fromEntries(
  METHOD_NAMES.map((m) => [m, z.toJSONSchema(METHODS[m].request as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema]),
) as Record<MethodName, JsonSchema>;

/** Folders of the host a page must not learn about from an error. */
function hostFolders(): string[] {
  return [process.cwd(), homedir(), ...Object.values(outside.allowed), path.dirname(outside.dir)].filter((p) => p.length > 4);
}

interface Answer {
  reply: RawReply | 'timeout';
  texts: string[];
}

async function ask(method: string, request: unknown): Promise<Answer> {
  page.texts();
  const reply = await page.call(method, request, ANSWER_MS);
  // Whatever the request started ends before the next one: a run, an evaluation.
  await page.call('stop', {}, ANSWER_MS);
  await page.call('stopEval', {}, ANSWER_MS);
  return { reply, texts: page.texts() };
}

/** Problems with one answer; empty when the request was handled as the policy says. */
function problems(method: string, request: unknown, a: Answer, opened: string[]): string[] {
  const out: string[] = [];
  const asked = JSON.stringify(request);
  if (a.reply === 'timeout') out.push(`no answer within ${ANSWER_MS / 1000} s`);
  if (opened.length) out.push(`touched outside files: ${[...new Set(opened)].slice(0, 4).join('; ')}`);
  for (const t of a.texts) {
    if (t.includes(outside.canary)) out.push(`an answer quotes an outside file: ${t.slice(0, 200)}`);
    if (t.includes(KEY)) out.push("an answer quotes the host's key");
    for (const s of HOST_SECRETS) if (s.test(t)) out.push(`an answer quotes a host file (${s}): ${t.slice(0, 200)}`);
  }
  if (a.reply !== 'timeout' && !a.reply.ok) {
    const e = a.reply.error;
    if (e?.code === 'internal') out.push(`internal error: ${e.message.slice(0, 300)}`);
    for (const f of hostFolders())
      if (e?.message.includes(f) && !asked.includes(f)) out.push(`the error names the host folder ${f}: ${e.message.slice(0, 300)}`);
  }
  const leaked = listener.requests.filter((r) => JSON.stringify(r.headers).includes(KEY));
  if (leaked.length) out.push(`the host's key went to a server a page named (${leaked[0]!.method} ${leaked[0]!.path})`);
  return out.map((p) => `${method} ${asked.slice(0, 300)}: ${p}`);
}

/** The outside paths a request names, longest first (a file's path before its folder's). */
function outsideIn(request: unknown): string[] {
  const text = JSON.stringify(request);
  const all = [...Object.values(outside.files), outside.dir, ...outside.escapes].sort((a, b) => b.length - a.length);
  return all.filter((p) => text.includes(p));
}

/** What a page can tell apart between two answers: success, the error's code, its words (numbers and the path aside). */
function shape(a: Answer, paths: string[]): string {
  if (a.reply === 'timeout') return 'timeout';
  if (a.reply.ok) return 'ok';
  let m = a.reply.error?.message ?? '';
  // The request's own path echoed back, whole or cut to its last part, is not a difference.
  for (const p of paths)
    for (const x of [outside.missing(p), p, path.basename(outside.missing(p)), path.basename(p)]) m = m.split(x).join('<PATH>');
  return `${a.reply.error?.code}: ${m.replace(/\d+/g, '#')}`;
}

/** One line per method and kind of problem, with its first example. */
export function summarize(found: string[]): string[] {
  const first = new Map<string, string>();
  for (const f of found) {
    const [method] = f.split(' ', 1);
    const kind = f
      .replace(/^.*?\}: /, '')
      .split(':', 1)[0]!
      .replace(/[/][^ "]*/g, '<path>');
    const key = `${method} | ${kind}`;
    if (!first.has(key)) first.set(key, f.slice(0, 500));
  }
  return [...first.values()];
}

/** Every problem with one request, the path-swapped twin included. */
async function tryRequest(m: string, r: unknown): Promise<string[]> {
  listener.requests.length = 0;
  const a = await ask(m, r);
  const p = problems(m, r, a, await watch.take());
  // The same request naming a path that does not exist must get the same answer.
  const paths = outsideIn(r).slice(0, 1);
  if (paths.length && !p.length) {
    const text = JSON.stringify(r).split(paths[0]!).join(outside.missing(paths[0]!));
    const b = await ask(m, JSON.parse(text));
    p.push(...problems(m, JSON.parse(text), b, await watch.take()));
    if (shape(a, paths) !== shape(b, paths))
      p.push(`${m}: an outside path that exists is answered "${shape(a, paths)}", one that does not "${shape(b, paths)}"`);
  }
  return p;
}

describe('the page door, fuzzed from the AppApi schemas', () => {
  it('sweep: every string field of every method, given each hostile shape in turn', async () => {
    const shapes = canonicalHostile(ctx);
    // CI tries a rotating share of the shapes per field (all of them across fields); FUZZ_RUNS tries each.
    const perField = Math.min(shapes.length, fuzzRuns(5));
    const found: string[] = [];
    let tried = 0;
    let k = 0;
    for (const m of METHOD_NAMES) {
      // Two bases: every optional field given (an upload beside a file name, say), and only the required ones.
      const bases = [true, false].map(
        (allKeys) =>
          fc.sample(fromSchema(REQUEST_SCHEMAS[m], { hostile: fc.constant('x'), hostileShare: 0, allKeys }), {
            seed: fuzzSeed(34),
            numRuns: 1,
          })[0],
      );
      for (const base of bases)
        for (const leaf of stringLeaves(base)) {
          for (let i = 0; i < perField; i++, k++) {
            tried++;
            found.push(...(await tryRequest(m, withLeaf(base, leaf, shapes[k % shapes.length]!))));
          }
        }
    }
    expect(tried).toBeGreaterThan(100);
    expect(summarize(found)).toEqual([]);
  }, 900_000);

  it('random: requests generated from each schema, hostile strings mixed with plausible ones', async () => {
    const found: string[] = [];
    const request = fc
      .constantFrom(...METHOD_NAMES)
      .chain((m) => fromSchema(REQUEST_SCHEMAS[m], { hostile: hostileString(ctx) }).map((r) => ({ m, r })));
    let tried = 0;
    // Every request is tried and every problem kept (not only the first): the report groups them by method and kind.
    await fc.assert(
      fc.asyncProperty(request, async ({ m, r }) => {
        tried++;
        found.push(...(await tryRequest(m, r)));
      }),
      { numRuns: fuzzRuns(150), seed: fuzzSeed(34) },
    );
    expect(tried).toBeGreaterThan(0);
    expect(summarize(found)).toEqual([]);
  }, 900_000);
});
