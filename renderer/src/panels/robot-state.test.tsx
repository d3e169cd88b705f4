// @vitest-environment happy-dom
// A real robot's e-stop and battery on the page: current readings as values,
// stale ones as "stale (N s old)" and missing ones as "unknown" — in the header,
// the battery readout, the side panel's note and the facts panel — never the
// last value drawn as if it were current.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RobotSafety } from '../../../contract/robot-safety';
import { App } from '../app';
import { fakeApi } from '../test/fake-api';
import { batteryReadout, estopReadout } from './robot-readout';

afterEach(cleanup);

const base = { source: 'http', url: 'http://127.0.0.1:8765', maxAgeS: 2, link: 'up' } as const;
const FRESH: RobotSafety = {
  ...base,
  estop: { state: 'released', ageS: 0.3, freshness: 'fresh' },
  battery: { percent: 63, ageS: 0.3, freshness: 'fresh' },
};
const STALE: RobotSafety = {
  ...base,
  link: 'reconnecting',
  estop: { state: 'released', ageS: 12.4, freshness: 'stale' },
  battery: { percent: 63, ageS: 12.4, freshness: 'stale' },
};
const UNKNOWN: RobotSafety = {
  ...base,
  estop: { state: 'unknown', freshness: 'unknown', detail: 'no message received yet on /estop' },
  battery: { freshness: 'unknown' },
};

describe('readouts of a real robot', () => {
  it('say the value only when it is fresh', () => {
    expect(estopReadout(FRESH)).toMatchObject({ text: 'released', kind: 'fresh' });
    expect(estopReadout({ ...FRESH, estop: { state: 'pressed', ageS: 0.1, freshness: 'fresh' } })).toMatchObject({ text: 'PRESSED' });
    expect(estopReadout(STALE)).toMatchObject({ text: 'stale (12.4 s old)', kind: 'stale' });
    expect(estopReadout(STALE).title).toMatch(/it said released.*link to the robot is reconnecting/);
    // rosbridge turns a stale e-stop into 'unknown' with its age: still drawn as stale.
    expect(estopReadout({ ...base, estop: { state: 'unknown', ageS: 95, freshness: 'stale', detail: 'it was pressed' } }).text).toBe(
      'stale (1 min old)',
    );
    expect(estopReadout(UNKNOWN)).toMatchObject({ text: 'unknown', kind: 'unknown' });
    expect(estopReadout({ ...base, estop: { state: 'not_reported', freshness: 'unknown' } }).text).toBe('not reported');
    expect(batteryReadout(FRESH)).toMatchObject({ text: '63%', kind: 'fresh' });
    expect(batteryReadout(STALE)).toMatchObject({ text: 'stale (12.4 s old)', kind: 'stale' });
    expect(batteryReadout(STALE).title).toContain('63%');
    expect(batteryReadout(UNKNOWN)).toMatchObject({ text: 'unknown', kind: 'unknown' });
    expect(batteryReadout({ ...FRESH, battery: undefined }).text).toBe('not reported');
  });
});

describe('the page driving a real robot', () => {
  it('draws stale and unknown readings as such in the header, the battery, the side panel and the facts', async () => {
    let state: RobotSafety | null | 'host gone' = FRESH;
    const api = fakeApi({
      getRobotSafety: () => {
        if (state === 'host gone') throw new Error('the connection to the host closed');
        return state;
      },
    });
    render(<App api={api} desktop={false} detectWebgl={() => null} />);
    const estop = await screen.findByTestId('robot-estop');
    await waitFor(() => expect(estop.textContent).toBe('robot e-stop released'));
    // The robot's own battery replaces the simulator's 80 %.
    const battery = screen.getByRole('meter', { name: 'Robot battery' });
    expect(battery.getAttribute('aria-valuenow')).toBe('63');
    expect(screen.queryByRole('meter', { name: 'Battery' })).toBeNull();
    expect(screen.queryByTestId('robot-state-note')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'World' }));
    expect((await screen.findByTestId('facts-robot-estop')).textContent).toBe('released');

    // The readings age past the robot's 2 s: nothing says "released" or "63%" as if current.
    state = STALE;
    await act(async () => {
      await new Promise((r) => setTimeout(r, 1200));
    });
    await waitFor(() => expect(screen.getByTestId('robot-estop').textContent).toBe('robot e-stop stale (12.4 s old)'));
    expect(screen.getByTestId('robot-estop').className).toContain('kind-stale');
    const staleBattery = screen.getByTestId('robot-battery');
    expect(staleBattery.getAttribute('role')).toBe('status');
    expect(staleBattery.textContent).toBe('battery stale (12.4 s old)');
    expect(screen.queryByRole('meter', { name: 'Robot battery' })).toBeNull();
    expect(screen.getByTestId('robot-state-note').textContent).toMatch(/e-stop stale \(12\.4 s old\) and battery stale.*link reconnecting/);
    expect(screen.getByTestId('facts-robot-estop').textContent).toBe('stale (12.4 s old)');
    expect(screen.getByTestId('facts-robot-battery').textContent).toBe('stale (12.4 s old)');

    // Nothing received: unknown everywhere.
    state = UNKNOWN;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.getByTestId('robot-estop').textContent).toBe('robot e-stop unknown'));
    expect(screen.getByTestId('robot-battery').textContent).toBe('battery unknown');
    expect(screen.getByTestId('robot-state-note').textContent).toMatch(/e-stop unknown and battery unknown/);
    expect(screen.getByTestId('facts-robot-estop').title).toContain('no message received yet on /estop');

    // Fresh again, then the host stops answering: the last "released" is not kept as current.
    state = FRESH;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.getByTestId('robot-estop').textContent).toBe('robot e-stop released'));
    state = 'host gone';
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.getByTestId('robot-estop').textContent).toBe('robot e-stop unknown'));
    expect(screen.getByTestId('robot-battery').textContent).toBe('battery unknown');
    expect(screen.getByTestId('robot-estop').title).toMatch(/could not read it from the host.*link to the robot is down/);
  });

  it('shows none of it when the session drives only the simulator', async () => {
    const api = fakeApi();
    render(<App api={api} desktop={false} detectWebgl={() => null} />);
    expect((await screen.findByRole('meter', { name: 'Battery' })).getAttribute('aria-valuenow')).toBe('80');
    expect(screen.queryByTestId('robot-estop')).toBeNull();
  });
});
