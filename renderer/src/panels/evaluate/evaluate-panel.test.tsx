// @vitest-environment happy-dom
// The Evaluate view: starts a run of the chosen suite with the sample size and
// the Agent tab's model, shows progress from the host's events, lists the run
// and its cases when it ends, and replays a clicked case.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { EvaluatePanel, currentModelSpec } from './evaluate-panel';

const SUITES = [
  { id: 'raider', title: 'RAIDER', paper: '001 §4', defaultWorkflow: 'raider', workflows: ['raider', 'raider/basic', 'flat'] },
  { id: 'alrm', title: 'ALRM', paper: '002 §IV', defaultWorkflow: 'alrm/tap', workflows: ['alrm/tap', 'alrm/cap', 'flat'] },
];
const RUN = {
  runId: 'alrm-1',
  suite: 'alrm',
  model: 'ollama:qwen3:8b',
  workflow: 'alrm/cap',
  status: 'finished' as const,
  startedAt: '',
  cases: 2,
  errors: 0,
  score: 0.75,
};
const CASES = [
  { caseId: 'fruits/1/CAN', trial: 1, status: 'ok' as const, score: 1, labels: {}, error: null, failureClass: null, durationMs: 900 },
  {
    caseId: 'fruits/1/LEX',
    trial: 1,
    status: 'ok' as const,
    score: 0.5,
    labels: {},
    error: null,
    failureClass: 'partial',
    durationMs: 800,
  },
];

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('EvaluatePanel', () => {
  it("starts with the Agent tab's model, or the oracle when none is set", () => {
    expect(currentModelSpec()).toBe('oracle');
    localStorage.setItem('skillbridge.agent.settings', JSON.stringify({ preset: 'ollama', model: 'qwen3:8b', baseURL: '', file: '' }));
    expect(currentModelSpec()).toBe('ollama:qwen3:8b');
  });

  it('runs the chosen suite, shows progress, then the run, its cases, and opens a clicked case as a replay of its recorded trace', async () => {
    localStorage.setItem('skillbridge.agent.settings', JSON.stringify({ preset: 'ollama', model: 'qwen3:8b', baseURL: '', file: '' }));
    let runs: (typeof RUN)[] = [];
    const api = fakeApi({
      listSuites: () => SUITES,
      listEvalRuns: () => runs,
      startEval: () => ({ runId: 'alrm-1' }),
      evalCases: () => CASES,
      caseReplay: (r) => ({
        run: {
          runId: 'alrm-1-case',
          message: r.caseId,
          workflow: 'flat',
          model: 'x',
          scene: null,
          startedAt: '2026-11-25T10:00:00.000Z',
          running: false,
          reason: 'done',
          toolCalls: 4,
          durationMs: 900,
          poses: false,
        },
        trace: { header: { type: 'header' }, records: [], truncated: false },
        poses: null,
      }),
    });
    const watched: string[] = [];
    render(<EvaluatePanel api={api} onWatch={(r) => watched.push(r.run.message)} />);
    await waitFor(() => expect((screen.getByLabelText('Suite') as HTMLSelectElement).value).toBe('raider'));
    fireEvent.change(screen.getByLabelText('Suite'), { target: { value: 'alrm' } });
    expect((screen.getByLabelText('Workflow') as HTMLSelectElement).value).toBe('alrm/tap');
    fireEvent.change(screen.getByLabelText('Workflow'), { target: { value: 'alrm/cap' } });
    fireEvent.change(screen.getByLabelText('Sample size'), { target: { value: '6' } });
    fireEvent.click(screen.getByText('Start'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'startEval')).toBe(true));
    expect(api.calls.find((c) => c.method === 'startEval')!.request).toEqual({
      suite: 'alrm',
      model: 'ollama:qwen3:8b',
      workflow: 'alrm/cap',
      sample: 6,
    });
    api.emitEvent({
      type: 'eval',
      event: {
        kind: 'progress',
        runId: 'alrm-1',
        suite: 'alrm',
        total: 6,
        done: 2,
        errors: 1,
        score: 0.5,
        etaMs: 65_000,
        last: { caseId: 'fruits/1/LEX', status: 'ok', score: 0.5 },
      },
    });
    const status = await screen.findByRole('status', { name: 'Progress' });
    expect(status.textContent).toContain('2/6 cases · score 50.0 % · 1 errors · ETA 1 min 5 s');
    expect((status.querySelector('progress') as HTMLProgressElement).value).toBe(2);
    expect((screen.getByText('Start') as HTMLButtonElement).disabled).toBe(true);
    runs = [RUN];
    api.emitEvent({ type: 'eval', event: { kind: 'ended', run: RUN, error: null } });
    await screen.findByText(/alrm · alrm\/cap · ollama:qwen3:8b/);
    expect(screen.getByText(/alrm-1 finished: score 75.0 % over 2 cases/)).toBeTruthy();
    fireEvent.click(await screen.findByText('fruits/1/LEX'));
    await screen.findByText('watching fruits/1/LEX as recorded (4 calls)');
    expect(api.calls.find((c) => c.method === 'caseReplay')!.request).toEqual({ runId: 'alrm-1', caseId: 'fruits/1/LEX', trial: 1 });
    // Watched as recorded: nothing re-runs in the live world.
    expect(watched).toEqual(['fruits/1/LEX']);
    expect(api.calls.some((c) => c.method === 'replayCase' || c.method === 'loadScene')).toBe(false);
  });

  it('says why a run cannot start', async () => {
    const api = fakeApi({
      listSuites: () => SUITES,
      listEvalRuns: () => [],
      startEval: () => {
        throw new Error('unknown workflow "x"; workflows: …');
      },
    });
    render(<EvaluatePanel api={api} />);
    await waitFor(() => expect((screen.getByLabelText('Suite') as HTMLSelectElement).value).toBe('raider'));
    fireEvent.click(screen.getByText('Start'));
    await screen.findByText(/unknown workflow "x"/);
  });
});
