// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { META, fakeApi } from '../test/fake-api';
import { ToolConsole } from './tool-console';

afterEach(cleanup);

describe('ToolConsole', () => {
  it('lists the tools of the scene default set, grouped, and marks unusable sets', async () => {
    render(<ToolConsole api={fakeApi()} meta={META} />);
    expect(await screen.findByRole('option', { name: 'pick' })).toBeTruthy();
    expect(screen.getByText('Information')).toBeTruthy();
    expect(screen.getByText('Actions')).toBeTruthy();
    // Plain words first, the paper second.
    const unusable = (await screen.findByText(/Field rover: drive, scan, dock \(Valdemar\) \(unavailable\)/)) as HTMLOptionElement;
    expect(unusable.disabled).toBe(true);
    expect(screen.getByText('Tabletop arm actions (ALRM) (scene default)')).toBeTruthy();
  });

  it('a new scene or a reset clears the last result; a refetched tool list keeps what was typed', async () => {
    const api = fakeApi();
    const { rerender } = render(<ToolConsole api={api} meta={META} />);
    fireEvent.click(await screen.findByRole('option', { name: 'pick' }));
    fireEvent.change(await screen.findByLabelText(/object_name/), { target: { value: 'lemon' } });
    fireEvent.click(screen.getByRole('button', { name: 'Call pick' }));
    await screen.findByText('called pick');
    rerender(<ToolConsole api={api} meta={{ ...META, generation: META.generation + 1 }} />);
    await waitFor(() => expect(screen.queryByText('called pick')).toBeNull());
    expect(screen.queryByTestId('tool-result')).toBeNull();
    fireEvent.change(await screen.findByLabelText(/object_name/), { target: { value: 'peach' } });
    // The list is fetched again for the new scene: the same tool keeps the typed value.
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'listTools').length).toBeGreaterThanOrEqual(2));
    await new Promise((r) => setTimeout(r, 50));
    expect((screen.getByLabelText(/object_name/) as HTMLInputElement).value).toBe('peach');
  });

  it('builds a form from the JSON schema and sends typed arguments', async () => {
    const api = fakeApi();
    render(<ToolConsole api={api} meta={META} />);
    fireEvent.click(await screen.findByRole('option', { name: 'pick' }));
    fireEvent.change(await screen.findByLabelText(/object_name/), { target: { value: 'lemon' } });
    fireEvent.change(screen.getByLabelText(/speed/), { target: { value: '0.25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Call pick' }));
    await screen.findByText('called pick');
    const call = api.calls.find((c) => c.method === 'callTool');
    expect(call?.request).toEqual({ name: 'pick', args: { object_name: 'lemon', speed: 0.25 }, set: 'alrm' });
  });

  it('shows exactly the text a model reads, including validation messages', async () => {
    const message =
      'Invalid arguments for pick:\n- object_name: missing (required: what to pick)\nCall pick again with arguments matching its schema.';
    const api = fakeApi({
      callTool: (r) => ({
        callId: 2,
        tool: r.name,
        set: 'alrm',
        ok: false,
        content: message,
        data: undefined,
        elapsedMs: 1,
        simSeconds: 0,
      }),
    });
    render(<ToolConsole api={api} meta={META} />);
    fireEvent.click(await screen.findByRole('option', { name: 'pick' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Call pick' }));
    const result = await screen.findByTestId('tool-result');
    expect(result.querySelector('.result-content')?.textContent).toBe(message);
    expect(result.textContent).toContain('✗ failed');
  });

  it('sends raw JSON text as a model would, in JSON mode', async () => {
    const api = fakeApi();
    render(<ToolConsole api={api} meta={META} />);
    fireEvent.click(await screen.findByRole('option', { name: 'pick' }));
    fireEvent.click(await screen.findByLabelText(/Edit arguments as JSON/));
    fireEvent.change(screen.getByLabelText('Arguments (JSON)'), { target: { value: '{"object_name": ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Call pick' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'callTool')).toBe(true));
    expect(api.calls.find((c) => c.method === 'callTool')?.request).toMatchObject({ args: '{"object_name": ' });
  });
});
