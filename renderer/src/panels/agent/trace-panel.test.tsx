// @vitest-environment happy-dom
// The trace panel nests a multi-agent run by stage, in the order it ran (router,
// planner with its executor inside, critic, the planner's second round), and shows
// a sandboxed program's code with each API call's result under the call that ran it.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../../contract/schemas';
import { fromTrace } from '../run-from-trace';
import { type RunView, applyEvent, newRun } from '../run-view';
import { stageTree } from './stage-tree';
import { TracePanel } from './trace-panel';

afterEach(cleanup);

const R = 'run-1';
const usage = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };
const program = {
  id: 'program_1',
  language: 'javascript' as const,
  code: 'pick("lemon");\nplace({ target: "bowl" });',
  ok: false,
  error: { kind: 'api_error', message: 'place failed: the bowl is full', line: 2 },
  output: '',
  calls: [
    { seq: 1, name: 'pick', args: ['lemon'], ok: true, result: 'Success: picked lemon_1.', durationMs: 420 },
    { seq: 2, name: 'place', args: { target: 'bowl' }, ok: false, error: 'Failed (receptacle_full): the bowl is full', durationMs: 90 },
  ],
  durationMs: 530,
};

const events: RunEvent[] = [
  { kind: 'note', runId: R, stage: 'router', text: 'router: task' },
  { kind: 'assistant', runId: R, stage: 'planner', iteration: 0, text: null, usage },
  {
    kind: 'tool_call',
    runId: R,
    stage: 'planner',
    callId: 'p1',
    iteration: 0,
    name: 'executor',
    args: { task: 'put the lemon in the bowl' },
  },
  { kind: 'tool_call', runId: R, stage: 'planner/executor', callId: 'e1', iteration: 0, name: 'run_program', args: { code: '…' } },
  { kind: 'code_run', runId: R, stage: 'planner/executor', callId: 'e1', ...program },
  {
    kind: 'tool_result',
    runId: R,
    stage: 'planner/executor',
    callId: 'e1',
    name: 'run_program',
    ok: false,
    status: 'failed',
    content: 'the bowl is full',
    durationMs: 600,
  },
  {
    kind: 'tool_result',
    runId: R,
    stage: 'planner',
    callId: 'p1',
    name: 'executor',
    ok: true,
    status: 'ok',
    content: 'The bowl was full.',
    durationMs: 900,
  },
  { kind: 'note', runId: R, stage: 'critic', text: 'round 1: continue — the lemon is not in the bowl yet' },
  { kind: 'tool_call', runId: R, stage: 'planner', callId: 'p2', iteration: 1, name: 'act', args: { action: 'place', params: ['plate'] } },
  {
    kind: 'tool_result',
    runId: R,
    stage: 'planner',
    callId: 'p2',
    name: 'act',
    ok: true,
    status: 'ok',
    content: 'Success: placed.',
    durationMs: 300,
  },
  { kind: 'note', runId: R, stage: 'critic', text: 'round 2: achieved' },
];

function live(): RunView {
  return events.reduce(applyEvent, newRun(R, 'put the lemon in the bowl'));
}

function stagesShown(): string[] {
  return screen.getAllByTestId('trace-stage').map((s) => s.getAttribute('data-stage')!);
}

describe('trace panel stage nesting', () => {
  it('groups records by stage in run order, a nested stage inside its parent, a repeated stage as a new group', () => {
    render(<TracePanel runs={[live()]} />);
    expect(stagesShown()).toEqual(['router', 'planner', 'planner/executor', 'critic', 'planner', 'critic']);
    const [, planner, executor] = screen.getAllByTestId('trace-stage');
    // The executor's group sits inside the planner's, after the hand-off call.
    expect(planner!.contains(executor!)).toBe(true);
    expect(
      within(planner!)
        .getAllByTestId('trace-row')
        .map((r) => r.getAttribute('data-tool')),
    ).toEqual(['executor', 'run_program']);
    expect(
      within(executor!)
        .getAllByTestId('trace-row')
        .map((r) => r.getAttribute('data-tool')),
    ).toEqual(['run_program']);
    expect(screen.getAllByTestId('trace-note').map((n) => n.textContent)).toEqual([
      'router: task',
      'round 1: continue — the lemon is not in the bowl yet',
      'round 2: achieved',
    ]);
    // Tokens come from the assistant turn of the same stage and iteration.
    expect(within(planner!).getAllByTestId('trace-row')[0]!.textContent).toMatch(/5 tokens/);
  });

  it('shows a sandboxed program inside the call that ran it: its code, each API call with its result, how it ended', () => {
    render(<TracePanel runs={[live()]} />);
    const row = screen.getAllByTestId('trace-row').find((r) => r.getAttribute('data-tool') === 'run_program')!;
    const prog = within(row).getByTestId('code-run');
    expect(prog.getAttribute('data-ok')).toBe('false');
    expect(prog.querySelector('pre.code')!.textContent).toBe(program.code);
    expect(
      within(prog)
        .getAllByTestId('code-call')
        .map((c) => c.textContent),
    ).toEqual([
      expect.stringMatching(/^pick\(\["lemon"\]\) → Success: picked lemon_1\. · 420 ms$/),
      expect.stringMatching(/^place\(\{"target":"bowl"\}\) ✗ Failed \(receptacle_full\): the bowl is full · 90 ms$/),
    ]);
    expect(prog.textContent).toMatch(/ended: api_error at line 2 — place failed: the bowl is full/);
    // Shown once, under its call, not again on its own.
    expect(screen.getAllByTestId('code-run')).toHaveLength(1);
  });

  it('an imported trace nests the same way', () => {
    const records = [
      { type: 'message', role: 'user', content: 'put the lemon in the bowl' },
      { type: 'note', stage: 'router', text: 'router: task' },
      { type: 'tool_call', stage: 'planner', id: 'p1', name: 'executor', arguments: '{"task":"x"}', iteration: 0 },
      { type: 'message', stage: 'planner/executor', role: 'user', content: 'x' },
      { type: 'tool_call', stage: 'planner/executor', id: 'e1', name: 'run_program', arguments: '{}', iteration: 0 },
      { type: 'code_run', stage: 'planner/executor', toolCallId: 'e1', ...program },
      {
        type: 'tool_result',
        stage: 'planner/executor',
        id: 'e1',
        name: 'run_program',
        ok: false,
        status: 'failed',
        error: 'full',
        durationMs: 1,
      },
      { type: 'final', stage: 'planner/executor', answer: 'The bowl was full.' },
      { type: 'end', stage: 'planner/executor', reason: 'final', iterations: 2, toolCalls: 1, usage, durationMs: 600 },
      {
        type: 'tool_result',
        stage: 'planner',
        id: 'p1',
        name: 'executor',
        ok: true,
        status: 'ok',
        result: 'The bowl was full.',
        durationMs: 700,
      },
      { type: 'final', stage: 'planner', answer: 'The bowl is full, so I stopped.' },
      { type: 'end', stage: 'planner', reason: 'final', iterations: 2, toolCalls: 1, usage, durationMs: 800 },
      { type: 'final', stage: 'critic', answer: '{"verdict":"stop","reason":"blocked: the bowl is full"}' },
      { type: 'end', stage: 'critic', reason: 'final', iterations: 1, toolCalls: 0, usage, durationMs: 50 },
    ];
    const view = fromTrace({ header: { type: 'header', runId: 'old' }, records, truncated: false });
    render(<TracePanel runs={[view]} />);
    expect(stagesShown()).toEqual(['router', 'planner', 'planner/executor']);
    expect(screen.getByTestId('code-run').textContent).toMatch(/pick/);
    // The run's answer is the planner's, not the critic's verdict; the totals add up every flow.
    expect(view.entries.at(-1)).toMatchObject({ k: 'end', text: 'The bowl is full, so I stopped.', iterations: 5, toolCalls: 2 });
    // The task handed to the executor is not shown as a second message from the person.
    expect(view.entries.filter((e) => e.k === 'user')).toHaveLength(1);
  });

  it('stageTree keeps run order across stages', () => {
    const t = stageTree([{ stage: 'a' }, { stage: 'a/b' }, { stage: 'a' }, { stage: 'c' }, { stage: '' }]);
    expect(JSON.stringify(t)).toBe(
      JSON.stringify({
        stage: '',
        name: '',
        parts: [
          {
            group: {
              stage: 'a',
              name: 'a',
              parts: [
                { item: { stage: 'a' } },
                { group: { stage: 'a/b', name: 'b', parts: [{ item: { stage: 'a/b' } }] } },
                { item: { stage: 'a' } },
              ],
            },
          },
          { group: { stage: 'c', name: 'c', parts: [{ item: { stage: 'c' } }] } },
          { item: { stage: '' } },
        ],
      }),
    );
  });
});
