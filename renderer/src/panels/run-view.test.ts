// The same run reads the same live and in replay: approval prompts before the
// line they gate (and kept in replay), one count of tool calls, and the answer
// and errors said once.
import { describe, expect, it } from 'vitest';
import type { ImportedTrace, RunEvent } from '../../../contract/schemas';
import { fromTrace } from './run-from-trace';
import { applyEvent, newRun } from './run-view';

const run = 'r1';
const live: RunEvent[] = [
  { kind: 'started', runId: run, message: 'x', workflow: 'flat', model: 'scripted:s.json', tracePath: null },
  { kind: 'tool_call', runId: run, callId: 'c1', iteration: 0, name: 'pick', args: { object_name: 'lemon' } },
  { kind: 'approval_request', runId: run, id: 'approval-1', callId: 'c1', tool: 'pick', args: { object_name: 'lemon' }, reason: 'ask' },
  { kind: 'approval', runId: run, callId: 'c1', tool: 'pick', decision: 'approved' },
  { kind: 'tool_result', runId: run, callId: 'c1', name: 'pick', ok: true, status: 'ok', content: 'picked', durationMs: 5 },
  { kind: 'tool_call', runId: run, callId: 'c2', iteration: 0, name: 'place', args: { target: 'bowl' } },
  { kind: 'tool_result', runId: run, callId: 'c2', name: 'place', ok: false, status: 'skipped', content: 'Not run', durationMs: 0 },
  { kind: 'assistant', runId: run, iteration: 1, text: 'done', usage: null },
  {
    kind: 'final',
    runId: run,
    text: 'done',
    reason: 'done',
    detail: 'final',
    tracePath: null,
    iterations: 2,
    toolCalls: 1,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    durationMs: 10,
  },
];

const t = (ms: number) => new Date(1_700_000_000_000 + ms).toISOString();
const trace: ImportedTrace = {
  header: { type: 'header', runId: run, scene: 'tabletop/fruits', workflow: 'flat', model: 'scripted:s.json', startedAt: t(0) },
  records: [
    { type: 'message', role: 'user', content: 'x', t: t(1) },
    { type: 'tool_call', id: 'c1', name: 'pick', arguments: '{"object_name":"lemon"}', iteration: 0, t: t(2) },
    { type: 'approval', id: 'c1', tool: 'pick', args: { object_name: 'lemon' }, decision: 'approved', t: t(3) },
    { type: 'tool_result', id: 'c1', name: 'pick', ok: true, status: 'ok', result: 'picked', durationMs: 5, t: t(4) },
    { type: 'tool_call', id: 'c2', name: 'place', arguments: '{"target":"bowl"}', iteration: 0, t: t(5) },
    { type: 'tool_result', id: 'c2', name: 'place', ok: false, status: 'skipped', error: 'Not run', durationMs: 0, t: t(6) },
    { type: 'message', role: 'assistant', content: 'done', iteration: 1, t: t(7) },
    { type: 'final', answer: 'done', t: t(8) },
    {
      type: 'end',
      reason: 'final',
      iterations: 2,
      toolCalls: 2,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      durationMs: 10,
      t: t(9),
    },
  ],
  truncated: false,
};

describe('run views, live and replayed', () => {
  const v = live.reduce(applyEvent, newRun(run, 'x'));
  const r = fromTrace(trace);
  const kinds = (entries: typeof v.entries) =>
    entries.map((e) => (e.k === 'tool' || e.k === 'approval' ? `${e.k}:${e.k === 'tool' ? e.name : e.tool}` : e.k));

  it('put the approval prompt before the call it gates, marked answered, live and in replay', () => {
    expect(kinds(v.entries).slice(0, 4)).toEqual(['user', 'approval:pick', 'tool:pick', 'tool:place']);
    expect(v.entries[1]).toMatchObject({ k: 'approval', answered: 'approve' });
    expect(kinds(r.entries).slice(0, 4)).toEqual(['user', 'approval:pick', 'tool:pick', 'tool:place']);
    expect(r.entries[1]).toMatchObject({ k: 'approval', answered: 'approve' });
  });

  it('count the tool calls the same way: made, and ran', () => {
    const end = (entries: typeof v.entries) => entries.find((e) => e.k === 'end');
    expect(end(v.entries)).toMatchObject({ toolCalls: 2, ran: 1 });
    expect(end(r.entries)).toMatchObject({ toolCalls: 2, ran: 1 });
  });
});

describe("a run's end mark comes from its records, not from the model's words", () => {
  const start = newRun('r', 'Put the lemon in the bowl.');
  const call = { kind: 'tool_call' as const, runId: 'r', callId: 'c1', iteration: 0, name: 'pick', args: {} };
  const result = (ok: boolean, status: string) => ({
    kind: 'tool_result' as const,
    runId: 'r',
    callId: 'c1',
    name: 'pick',
    ok,
    status,
    content: '',
    durationMs: 1,
  });
  const final = (reason: 'done' | 'stopped' | 'error' | 'limit' = 'done') => ({
    kind: 'final' as const,
    runId: 'r',
    text: 'The lemon is in the bowl.',
    reason,
    detail: '',
    tracePath: null,
    iterations: 2,
    toolCalls: 1,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    durationMs: 1,
  });
  const goal = (ok: boolean) => ({
    kind: 'note' as const,
    runId: 'r',
    text: 'goal check',
    data: { goalCheck: { title: 'Lemon in the bowl', ok, detail: ok ? 'the world agrees' : 'lemon_1 is in bowl_1: held' } },
  });
  const outcome = (events: RunEvent[]) => {
    const v = events.reduce(applyEvent, start);
    const end = v.entries.at(-1);
    return end?.k === 'end' ? end.outcome : undefined;
  };

  it('marks each ending on its own; green (met) only with a goal check that passed', () => {
    expect(outcome([call, result(true, 'ok'), goal(true), final()])).toBe('met');
    expect(outcome([call, result(true, 'ok'), goal(false), final()])).toBe('contradicted');
    expect(outcome([call, result(true, 'ok'), final()])).toBe('answered');
    expect(outcome([call, result(false, 'rejected'), goal(true), final()])).toBe('rejected');
    expect(outcome([call, result(false, 'denied'), final()])).toBe('refused');
    expect(outcome([call, result(false, 'failed'), final()])).toBe('failed');
    expect(outcome([call, result(true, 'ok'), goal(true), final('stopped')])).toBe('stopped');
    expect(outcome([call, final('error')])).toBe('error');
  });
});
