// @vitest-environment happy-dom
// The ask-the-person dialog: a run's question appears, the typed answer goes back
// with answerAsk, and the question goes away when answered or when its run ends.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { AgentPanel } from './agent-panel';
import { AskDialog } from './ask-dialog';

afterEach(cleanup);

const ask = {
  type: 'run' as const,
  event: { kind: 'ask' as const, runId: 'r1', id: 'r1/ask_1', question: 'Which mug should I pick?', stage: 'recovery' },
};

describe('AskDialog', () => {
  it('shows the question, sends the answer and closes', async () => {
    const api = fakeApi({ answerAsk: () => ({ ok: true, message: 'answered' }) });
    render(<AskDialog api={api} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => api.emitEvent(ask));
    const dialog = screen.getByRole('dialog', { name: 'The robot asks you' });
    expect(dialog.textContent).toContain('Which mug should I pick?');
    expect((screen.getByRole('button', { name: 'Answer' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Your answer'), { target: { value: ' the blue one ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Answer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.find((c) => c.method === 'answerAsk')?.request).toEqual({ id: 'r1/ask_1', answer: 'the blue one' });
  });

  it('keeps the question and says why when the host refuses the answer; goes away when the run ends', async () => {
    const api = fakeApi({ answerAsk: () => ({ ok: false, message: 'no open question "r1/ask_1"' }) });
    render(<AskDialog api={api} />);
    act(() => api.emitEvent(ask));
    fireEvent.change(screen.getByLabelText('Your answer'), { target: { value: 'blue' } });
    fireEvent.click(screen.getByRole('button', { name: 'Answer' }));
    expect((await screen.findByRole('alert')).textContent).toContain('no open question');
    act(() =>
      api.emitEvent({
        type: 'run',
        event: {
          kind: 'final',
          runId: 'r1',
          text: '',
          reason: 'stopped',
          detail: 'stopped by the user',
          tracePath: null,
          iterations: 1,
          toolCalls: 1,
          usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
          durationMs: 5,
        },
      }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is part of the agent panel', () => {
    const api = fakeApi();
    render(<AgentPanel api={api} desktop={false} />);
    act(() => api.emitEvent(ask));
    expect(screen.getByRole('dialog', { name: 'The robot asks you' })).toBeTruthy();
    act(() => api.emitEvent({ type: 'run', event: { kind: 'answer', runId: 'r1', id: 'r1/ask_1', answer: 'blue', by: 'person' } }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
