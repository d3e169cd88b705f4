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
    const unusable = (await screen.findByText(/farm \(unavailable\)/)) as HTMLOptionElement;
    expect(unusable.disabled).toBe(true);
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
