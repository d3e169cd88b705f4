// A case's outcome is known (a score) or unknown (an error naming its kind): a
// scorer that decides nothing or throws, a workflow that throws and a time limit
// that ran out while the model's server was failing are errors, never a 0.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FlowEvent } from '../../agents/runtime/events';
import type { AnySuite } from '../core/suite';
import { WorldPool } from '../core/world';
import { loadSuiteFile } from '../suites/file/index';
import { generateCases } from './cases';
import { runCase } from './run-case';
import { caseScore, modelErrorKind, modelFailure } from './verdict';
import { genericSpec } from '../report/spec';
import { TERMINAL, typedModel } from '../../test/support/host-refs';

const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'skillbridge-verdict-'));
const script = join(dir, 'done.json');
writeFileSync(script, JSON.stringify([{ content: 'Done.' }, { content: 'Done.' }]));
const pool = new WorldPool({ seed: 1 });
afterAll(() => pool.dispose());

async function runWith(score: AnySuite['score']) {
  const file = loadSuiteFile(TERMINAL.suiteFile(join(root, 'examples/suites/fruits.json')));
  const suite = { ...file, score } as AnySuite;
  const [c] = await generateCases(suite);
  return runCase({ suite, case: c!, trial: 1, workflow: 'flat', ...typedModel(`scripted:${script}`), seed: 1, pool, traceDir: dir });
}

describe('a scorer that does not decide', () => {
  it('gives no headline value: an error "scorer-undecided" naming the metric, its metrics kept, no score', async () => {
    const r = await runWith(() => ({ metrics: { score: null, other: 1 } }));
    expect(r.record).toMatchObject({ status: 'error', errorKind: 'scorer-undecided', metrics: { score: null, other: 1 } });
    expect(r.record.score ?? null).toBeNull();
    expect(r.record.error).toMatch(/the scorer gave no value for score/);
  });

  it('throws: an error "scorer-undecided" with its message', async () => {
    const r = await runWith(() => {
      throw new Error('gold has no object lemon_9');
    });
    expect(r.record).toMatchObject({
      status: 'error',
      errorKind: 'scorer-undecided',
      error: 'the scorer failed: gold has no object lemon_9',
    });
  });

  it('a scorer that decides gives an ok result with its score', async () => {
    const r = await runWith(() => ({ metrics: { score: 1 }, success: true }));
    expect(r.record).toMatchObject({ status: 'ok', score: 1, success: true });
  });
});

const ev = (e: Record<string, unknown>, stage = ''): FlowEvent => ({ stage, ...e }) as unknown as FlowEvent;

describe('modelFailure', () => {
  it('names the kind of each model error, and a workflow that threw as a crash', () => {
    expect(modelFailure([ev({ type: 'error', where: 'model', kind: 'unreachable', message: 'Could not reach x' })])).toEqual({
      kind: 'model-unreachable',
      why: 'Could not reach x',
    });
    expect(modelFailure([ev({ type: 'error', where: 'model', kind: 'auth', message: '401' })])!.kind).toBe('model-auth');
    expect(modelFailure([ev({ type: 'error', where: 'classify', message: 'no kind' })])!.kind).toBe('model-failed');
    expect(modelFailure([ev({ type: 'error', where: 'workflow', message: 'x is undefined' })])).toEqual({
      kind: 'crash',
      why: 'the workflow failed: x is undefined',
    });
    // A listener's error does not end the turn.
    expect(modelFailure([ev({ type: 'error', where: 'listener', message: 'printer broke' })])).toBeUndefined();
    // A workflow that gave up on a failed model call without a flow's error event (DFKI's router).
    expect(modelFailure([], { reason: 'model_error', error: { message: 'router: 500', kind: 'server' } })).toEqual({
      kind: 'model-server',
      why: 'router: 500',
    });
    expect(modelFailure([], { reason: 'final' })).toBeUndefined();
    expect(modelErrorKind('something new')).toBe('model-failed');
  });

  it('a time limit that ran out while the adapter retried a failing server is an error; one after an answer is the model being slow', () => {
    const retrying = [
      ev({ type: 'assistant', iteration: 1, message: { role: 'assistant', content: '' } }, 'planner'),
      ev({ type: 'retry', iteration: 2, attempt: 1, delayMs: 30000, reason: '429 rate limited' }, 'planner'),
      ev({ type: 'end', reason: 'time_limit', iterations: 2, toolCalls: 0, usage: {}, durationMs: 20000 }, 'planner'),
    ];
    expect(modelFailure(retrying)).toEqual({
      kind: 'model-rate-limit',
      why: "the time limit ran out while the model's server was failing (retry 1: 429 rate limited)",
    });
    const answeredAfterRetry = [
      retrying[1]!,
      ev({ type: 'assistant', iteration: 2, message: { role: 'assistant' } }, 'planner'),
      retrying[2]!,
    ];
    expect(modelFailure(answeredAfterRetry)).toBeUndefined();
    // The retry was in another flow, which finished: not this flow's time limit.
    expect(
      modelFailure([{ ...retrying[1]!, stage: 'router' } as FlowEvent, ev({ type: 'end', reason: 'final' }, 'router'), retrying[2]!]),
    ).toBeUndefined();
  });
});

describe('caseScore', () => {
  it('is the headline value, or why the scorer did not decide', () => {
    const spec = genericSpec('x');
    expect(caseScore(spec, { score: 0.5 })).toBe(0.5);
    expect(caseScore(spec, { score: 0 })).toBe(0);
    expect(caseScore(spec, {})).toEqual({ kind: 'scorer-undecided', why: 'the scorer gave no value for score' });
    expect(caseScore(spec, { score: Number.NaN })).toMatchObject({ kind: 'scorer-undecided' });
  });
});
