// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../contract/schemas';
import { fakeApi } from '../test/fake-api';
import { AgentPanel, specOf } from './agent-panel';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const R = 'run-1';
const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };

const SCRIPT = '[{"content": "done"}]';

/** Chooses a scripted model with an uploaded script (a page cannot name files on the host). */
async function chooseScripted(name = 'turns.json') {
  fireEvent.change(screen.getByLabelText('Model provider'), { target: { value: 'scripted' } });
  fireEvent.change(screen.getByLabelText('Script file'), { target: { files: [new File([SCRIPT], name, { type: 'application/json' })] } });
  await screen.findByText(new RegExp(`Script file \\(${name.replace('.', '\\.')}\\)`));
}

describe('AgentPanel', () => {
  it('builds model specs from the presets', () => {
    expect(specOf({ preset: 'ollama', model: 'qwen3:8b', baseURL: '', file: '' })).toBe('ollama:qwen3:8b');
    expect(specOf({ preset: 'custom', model: 'm', baseURL: 'http://127.0.0.1:8080/v1', file: '' })).toBe(
      'openai-compatible:m@http://127.0.0.1:8080/v1',
    );
    expect(specOf({ preset: 'scripted', model: '', baseURL: '', file: 'a.json' })).toBe('scripted:a.json');
    expect(specOf({ preset: 'openai', model: '', baseURL: '', file: '' })).toBe('');
    // "Reads images" says +images once; a model run in the app reads none.
    expect(specOf({ preset: 'scripted', model: '', baseURL: '', file: 'a.json', images: true })).toBe('scripted:a.json+images');
    expect(specOf({ preset: 'ollama', model: 'qwen2.5vl:7b+images', baseURL: '', file: '', images: true })).toBe(
      'ollama:qwen2.5vl:7b+images',
    );
    expect(specOf({ preset: 'local', model: 'qwen', baseURL: '', file: '', images: true })).toBe('local:qwen');
    expect(specOf({ preset: 'openai', model: '', baseURL: '', file: '', images: true })).toBe('');
  });

  it('explains how to connect a model when none is chosen, and shows the workflow prompt', async () => {
    render(<AgentPanel api={fakeApi()} desktop={false} />);
    expect(screen.getByText('No model connected')).toBeTruthy();
    expect(screen.getAllByText(/OPENAI_API_KEY/).length).toBeGreaterThan(0);
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    expect(((await screen.findByTestId('system-prompt')) as HTMLTextAreaElement).value).toBe('You control a robot arm.');
  });

  it('edits the system prompt, sends it with the run, and saves it as a preset', async () => {
    const api = fakeApi({ run: () => ({ runId: R, tracePath: null }) });
    render(<AgentPanel api={api} desktop={false} />);
    await chooseScripted();
    const prompt = (await screen.findByTestId('system-prompt')) as HTMLTextAreaElement;
    fireEvent.change(prompt, { target: { value: 'You control a robot arm. Be brief.' } });
    fireEvent.change(screen.getByLabelText('Preset name'), { target: { value: 'brief' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save as preset' }));
    expect(JSON.parse(localStorage.getItem('skillbridge.promptPresets') ?? '[]')).toEqual([
      { name: 'brief', workflow: 'rtw/basic', prompt: 'You control a robot arm. Be brief.' },
    ]);
    fireEvent.change(screen.getByLabelText('Message to the agent'), { target: { value: 'hi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'run')?.request).toMatchObject({ systemPrompt: 'You control a robot arm. Be brief.' }),
    );
    fireEvent.click(screen.getByRole('button', { name: "Use the workflow's prompt" }));
    expect(prompt.value).toBe('You control a robot arm.');
    fireEvent.change(screen.getByLabelText('Prompt preset'), { target: { value: 'brief' } });
    expect(prompt.value).toBe('You control a robot arm. Be brief.');
  });

  it('tests the connection and reports reachability, tool calls and the fix', async () => {
    const api = fakeApi({
      probeModel: (r) => ({
        spec: r.spec,
        baseURL: 'http://127.0.0.1:11434/v1',
        reachable: false,
        models: [],
        nativeToolCalls: false,
        textToolCalls: false,
        latencyMs: 0,
        notes: [],
        error: { kind: 'unreachable', message: 'connection refused', fix: 'Start it with `ollama serve`.' },
        imageInput: { known: false, why: 'the spec does not end with "+images"' },
      }),
    });
    render(<AgentPanel api={api} desktop={false} />);
    fireEvent.change(screen.getByLabelText('Model name'), { target: { value: 'qwen3:8b' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const r = await screen.findByTestId('probe-result');
    expect(r.textContent).toMatch(/Not reachable: connection refused/);
    expect(r.textContent).toMatch(/ollama serve/);
    expect(screen.getByTestId('probe-images').textContent).toBe('Sees images: not probed (the spec does not end with "+images")');
    expect(api.calls.find((c) => c.method === 'probeModel')?.request).toEqual({ spec: 'ollama:qwen3:8b' });
  });

  it('streams a run: model text, tool calls in the trace with result, timing and tokens; Stop is enabled while it runs', async () => {
    const api = fakeApi({
      run: () => ({ runId: R, tracePath: '/tmp/traces/run-1.jsonl' }),
      stop: () => ({ ok: true, message: 'stopping' }),
    });
    render(<AgentPanel api={api} desktop={false} />);
    await chooseScripted();
    fireEvent.change(screen.getByLabelText('Message to the agent'), { target: { value: 'pick the lemon' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'run')).toBe(true));
    expect(api.calls.find((c) => c.method === 'run')?.request).toMatchObject({
      message: 'pick the lemon',
      model: 'scripted:turns.json',
      workflow: 'rtw/basic',
      approval: 'auto',
      script: SCRIPT,
    });
    const emit = (event: RunEvent) => act(() => api.emitEvent({ type: 'run', event }));
    await screen.findByText('you: pick the lemon');
    emit({
      kind: 'started',
      runId: R,
      message: 'pick the lemon',
      workflow: 'rtw/basic',
      model: 'scripted:/tmp/turns.json',
      tracePath: '/tmp/traces/run-1.jsonl',
    });
    emit({ kind: 'reasoning_delta', runId: R, iteration: 0, text: 'The lemon is ' });
    emit({ kind: 'reasoning_delta', runId: R, iteration: 0, text: 'in reach.' });
    expect(screen.queryByTestId('assistant-text')).toBeNull();
    expect(screen.getByTestId('assistant-thinking').textContent).toMatch(/thinking….*The lemon is in reach\./);
    emit({ kind: 'text_delta', runId: R, iteration: 0, text: 'I will ' });
    emit({ kind: 'text_delta', runId: R, iteration: 0, text: 'pick it.' });
    expect(screen.getByTestId('assistant-text').textContent).toMatch(/I will pick it\./);
    expect(screen.getByTestId('assistant-text').textContent).not.toMatch(/in reach/);
    emit({ kind: 'assistant', runId: R, iteration: 0, text: 'I will pick it.', usage });
    emit({ kind: 'tool_call', runId: R, callId: 'c1', iteration: 0, name: 'pick', args: { object_name: 'lemon' } });
    expect((screen.getByRole('button', { name: 'Stop' }) as HTMLButtonElement).disabled).toBe(false);
    emit({ kind: 'warning', runId: R, code: 'made_up_tool_response', message: 'answer discarded', callId: 'c1' });
    emit({
      kind: 'tool_result',
      runId: R,
      callId: 'c1',
      name: 'pick',
      ok: true,
      status: 'ok',
      content: 'picked up lemon_1',
      durationMs: 1234,
    });
    // Shadow mode: a divergence between the simulator's prediction and the robot is a line of its own.
    emit({
      kind: 'divergence',
      runId: R,
      subject: 'lemon_1',
      predicted: 'at [0.25, 0.78, 0.10]',
      actual: 'at [0.15, 0.78, 0.05]',
      callId: 'c1',
    });
    expect(screen.getByText(/≠ shadow: lemon_1 — predicted at \[0\.25, 0\.78, 0\.10\]; the robot reports at \[0\.15/)).toBeTruthy();
    const row = screen.getByTestId('trace-row');
    expect(row.textContent).toMatch(/pick/);
    expect(row.textContent).toMatch(/object_name/);
    expect(row.textContent).toMatch(/picked up lemon_1/);
    expect(row.textContent).toMatch(/1234 ms/);
    expect(row.textContent).toMatch(/15 tokens/);
    expect(row.textContent).toMatch(/made_up_tool_response/);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'stop')).toBe(true));
    emit({ kind: 'stop', runId: R, message: 'stopped by the user' });
    emit({
      kind: 'final',
      runId: R,
      text: '',
      reason: 'stopped',
      detail: 'stopped by the user',
      tracePath: '/tmp/traces/run-1.jsonl',
      iterations: 1,
      toolCalls: 1,
      usage,
      durationMs: 2000,
    });
    expect(screen.getByTestId('run-end').getAttribute('data-reason')).toBe('stopped');
    expect((screen.getByRole('button', { name: 'Stop' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/file: \/tmp\/traces\/run-1.jsonl/)).toBeTruthy();
  });

  it('New conversation clears the chat and makes only the next run start fresh', async () => {
    let n = 0;
    const api = fakeApi({ run: () => ({ runId: `run-${++n}`, tracePath: null }) });
    render(<AgentPanel api={api} desktop={false} />);
    await chooseScripted();
    const say = async (text: string) => {
      fireEvent.change(screen.getByLabelText('Message to the agent'), { target: { value: text } });
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
      await screen.findByText(`you: ${text}`);
      act(() =>
        api.emitEvent({
          type: 'run',
          event: {
            kind: 'final',
            runId: `run-${n}`,
            text: 'ok',
            reason: 'done',
            detail: '',
            tracePath: null,
            iterations: 1,
            toolCalls: 0,
            usage,
            durationMs: 5,
          },
        }),
      );
    };
    await say('first');
    fireEvent.click(screen.getByRole('button', { name: 'New conversation' }));
    expect(screen.queryByText('you: first')).toBeNull();
    expect((screen.getByRole('button', { name: 'New conversation' }) as HTMLButtonElement).disabled).toBe(true);
    await say('second');
    await say('third');
    const runs = api.calls.filter((c) => c.method === 'run').map((c) => (c.request as { fresh?: boolean }).fresh);
    expect(runs).toEqual([undefined, true, undefined]);
  });

  it('asks for approval and sends the decision with a note', async () => {
    const api = fakeApi({ run: () => ({ runId: R, tracePath: null }), answerApproval: () => ({ ok: true, message: 'rejected' }) });
    render(<AgentPanel api={api} desktop={false} />);
    await chooseScripted();
    fireEvent.change(screen.getByLabelText('Approval'), { target: { value: 'ask' } });
    fireEvent.change(screen.getByLabelText('Message to the agent'), { target: { value: 'pick' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText('you: pick');
    act(() =>
      api.emitEvent({
        type: 'run',
        event: {
          kind: 'approval_request',
          runId: R,
          id: 'approval-1',
          tool: 'pick',
          args: { object_name: 'lemon' },
          reason: 'pick is an action tool',
        },
      }),
    );
    const box = screen.getByRole('group', { name: 'Approve pick' });
    fireEvent.change(within(box).getByLabelText('Approval note'), { target: { value: 'not now' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Reject' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'answerApproval')?.request).toEqual({
        id: 'approval-1',
        decision: 'reject',
        note: 'not now',
      }),
    );
    expect(api.calls.find((c) => c.method === 'run')?.request).toMatchObject({ approval: 'ask' });
    await screen.findByText('rejected');
  });

  it('imports a trace and replays it read-only in the same panel', async () => {
    const api = fakeApi({
      importTrace: () => ({
        header: { type: 'header', runId: 'old-run', workflow: 'flat', model: 'scripted:x.json' },
        records: [
          { type: 'message', role: 'system', content: 'sys', prior: true },
          { type: 'message', role: 'user', content: 'pick the lemon' },
          { type: 'message', role: 'assistant', content: null, iteration: 0, usage },
          { type: 'tool_call', id: 'c1', name: 'pick', arguments: '{"object_name":"lemon"}', iteration: 0 },
          { type: 'tool_result', id: 'c1', name: 'pick', ok: true, status: 'ok', result: 'picked up lemon_1', durationMs: 80 },
          { type: 'final', answer: 'Done.' },
          { type: 'end', reason: 'final', iterations: 2, toolCalls: 1, usage, durationMs: 900 },
        ],
        truncated: false,
      }),
    });
    render(<AgentPanel api={api} desktop={false} />);
    const file = new File(['{"type":"header"}\n'], 't.jsonl');
    fireEvent.change(screen.getByLabelText('Import trace'), { target: { files: [file] } });
    expect(await screen.findByText(/Replay of run old-run/)).toBeTruthy();
    expect(screen.getByText('you: pick the lemon')).toBeTruthy();
    expect(screen.getByTestId('trace-row').textContent).toMatch(/picked up lemon_1/);
    // No goal check in the trace: the answer is shown as answered, not as done.
    expect(screen.getByTestId('run-end').textContent).toMatch(/^○ answered, not checked against a goal \(answer: “Done\.”\)/);
  });
});

describe('the conversation says the answer and an error once', () => {
  it('the run summary does not repeat the answer or the model error', async () => {
    const { ConversationView } = await import('./agent/conversation-view');
    const { applyEvent: apply, newRun: fresh } = await import('./run-view');
    const ok = [
      { kind: 'assistant' as const, runId: 'a', iteration: 0, text: 'The lemon is in the bowl.', usage: null },
      {
        kind: 'final' as const,
        runId: 'a',
        text: 'The lemon is in the bowl.',
        reason: 'done' as const,
        detail: 'final',
        tracePath: null,
        iterations: 1,
        toolCalls: 0,
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        durationMs: 1,
      },
    ].reduce(apply, fresh('a', 'x'));
    const failed = [
      { kind: 'error' as const, runId: 'b', message: 'the model server is down' },
      {
        kind: 'final' as const,
        runId: 'b',
        text: '',
        reason: 'error' as const,
        detail: 'the model server is down',
        tracePath: null,
        iterations: 0,
        toolCalls: 0,
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        durationMs: 1,
      },
    ].reduce(apply, fresh('b', 'y'));
    const props = { note: '', setNote: () => undefined, onAnswer: () => undefined };
    const { container } = render(
      <>
        <ConversationView run={ok} {...props} />
        <ConversationView run={failed} {...props} />
      </>,
    );
    const text = container.textContent ?? '';
    expect(text.split('The lemon is in the bowl.').length - 1).toBe(1);
    expect(text.split('the model server is down').length - 1).toBe(1);
    // Nothing checked the answer against a goal: no green "✓".
    expect(text).toContain('○ answered, not checked against a goal');
    expect(text).not.toContain('✓');
    expect(text).toContain('run ended (error)');
  });
});
