// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from './app';
import { fakeApi } from './test/fake-api';

afterEach(cleanup);

describe('App', () => {
  it('opens the host scene, shows the battery and how to connect a model, and logs robot events', async () => {
    const api = fakeApi();
    render(<App api={api} desktop={false} detectWebgl={() => null} />);
    expect(((await screen.findByLabelText('Scene')) as HTMLSelectElement).value).toBe('tabletop/fruits');
    expect((await screen.findByRole('meter', { name: 'Battery' })).getAttribute('aria-valuenow')).toBe('80');
    expect(screen.getByText('No model connected')).toBeTruthy();
    act(() => api.emitEvent({ type: 'robot_event', event: { id: 1, time: 2.5, type: 'person_said', text: 't=2.5s Anna said: "hello"' } }));
    fireEvent.click(screen.getByRole('tab', { name: /Log/ }));
    expect(await screen.findByText(/Anna said: "hello"/)).toBeTruthy();
  });

  it('loads a scene when the host has none', async () => {
    const api = fakeApi({ currentScene: () => null });
    render(<App api={api} desktop detectWebgl={() => null} />);
    await waitFor(() => expect(api.calls.some((c) => c.method === 'loadScene')).toBe(true));
  });
});
