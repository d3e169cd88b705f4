// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { META, fakeApi } from '../test/fake-api';
import { SceneView } from '../view/scene-view';
import { BatteryGauge } from './battery-gauge';
import { EventInjector } from './event-injector';
import { FactsPanel } from './facts-panel';
import { SceneBar } from './scene-bar';

afterEach(cleanup);

describe('BatteryGauge', () => {
  it('shows the level, the percentage and charging', () => {
    render(<BatteryGauge battery={{ percent: 9.6, level: 'critical', charging: true, docked: true }} />);
    const meter = screen.getByRole('meter', { name: 'Battery' });
    expect(meter.getAttribute('aria-valuenow')).toBe('10');
    expect(meter.className).toContain('level-critical');
    expect(meter.textContent).toContain('10% ⚡ charging · critical');
  });
});

describe('SceneBar', () => {
  it('loads the chosen scene and resets', () => {
    const onLoad = vi.fn();
    const onReset = vi.fn();
    const scenes = [
      {
        id: 'a',
        title: 'A',
        description: '',
        robot: 'r',
        robotKind: 'fixed_arm' as const,
        toolSet: 't',
        toolSets: [],
        objects: 1,
        paper: null,
      },
      {
        id: 'b',
        title: 'B',
        description: '',
        robot: 'r',
        robotKind: 'rover' as const,
        toolSet: 't',
        toolSets: [],
        objects: 1,
        paper: null,
      },
    ];
    render(<SceneBar scenes={scenes} current="a" loading={false} onLoad={onLoad} onReset={onReset} />);
    fireEvent.change(screen.getByLabelText('Scene'), { target: { value: 'b' } });
    expect(onLoad).toHaveBeenCalledWith('b');
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(onReset).toHaveBeenCalled();
  });
});

const BASE = () => ({ position: [0, 0.75, 0] as [number, number, number], yawDeg: 90 });

describe('EventInjector', () => {
  it('presses the emergency stop, makes a person speak, moves an object and sets the battery', async () => {
    const api = fakeApi();
    const { rerender } = render(<EventInjector api={api} meta={META} estop={false} positionOf={() => [0.3, 0.8, 0]} />);
    fireEvent.click(screen.getByRole('button', { name: 'EMERGENCY STOP' }));
    await screen.findByText('injected estop_pressed');
    rerender(<EventInjector api={api} meta={META} estop positionOf={() => [0.3, 0.8, 0]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Release emergency stop' }));
    fireEvent.change(screen.getByLabelText('Who speaks'), { target: { value: 'anna' } });
    fireEvent.change(screen.getByLabelText('What they say'), { target: { value: 'stop please' } });
    fireEvent.click(screen.getByRole('button', { name: 'Say' }));
    // The robot stands at (0, 0.75, 0) facing -z (yaw 90°): its x forward is the world's -z, its y left the world's -x.
    rerender(<EventInjector api={api} meta={META} estop positionOf={() => [0.3, 0.8, 0]} basePose={BASE} />);
    fireEvent.change(screen.getByLabelText('Object to move'), { target: { value: 'lemon_1' } });
    // Pre-filled where it rests now (its underside), in the robot's frame: not lifted.
    expect(['x forward', 'y left', 'z up'].map((a) => (screen.getByLabelText(`to ${a} (m)`) as HTMLInputElement).value)).toEqual([
      '0.000',
      '-0.300',
      '0.025',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    // A blank coordinate keeps the object's own: it is not sent as 0.
    fireEvent.change(screen.getByLabelText('to x forward (m)'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('to y left (m)'), { target: { value: ' ' } });
    fireEvent.change(screen.getByLabelText('to z up (m)'), { target: { value: '0.1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    // The slider starts at the robot's current level, and keeps the person's choice once moved.
    rerender(<EventInjector api={api} meta={META} estop positionOf={() => [0.3, 0.8, 0]} batteryPercent={72.4} />);
    expect((screen.getByLabelText('Battery percent') as HTMLInputElement).value).toBe('72');
    fireEvent.change(screen.getByLabelText('Battery percent'), { target: { value: '15' } });
    rerender(<EventInjector api={api} meta={META} estop positionOf={() => [0.3, 0.8, 0]} batteryPercent={71} />);
    fireEvent.click(screen.getByRole('button', { name: 'Set' }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'injectEvent')).toHaveLength(6));
    expect(api.calls.filter((c) => c.method === 'injectEvent').map((c) => c.request)).toEqual([
      { type: 'estop_pressed' },
      { type: 'estop_released' },
      { type: 'person_said', text: 'stop please', person: 'anna' },
      { type: 'object_moved', object: 'lemon_1', to: expect.any(Array), by: 'operator' },
      { type: 'object_moved', object: 'lemon_1', to: expect.any(Array), by: 'operator' },
      { type: 'set_battery', percent: 15 },
    ]);
    const moves = api.calls.filter((c) => c.method === 'injectEvent').map((c) => (c.request as { to?: number[] }).to);
    const near = (a: number[] | undefined, b: number[]) => a !== undefined && a.every((v, i) => Math.abs(v - b[i]!) < 1e-6);
    expect(near(moves[3], [0.3, 0.775, 0])).toBe(true);
    expect(near(moves[4], [0.3, 0.85, 0])).toBe(true);
  });
});

describe('FactsPanel', () => {
  it('lists facts and filters them', () => {
    const snap = {
      sceneId: 'x',
      time: 2,
      facts: ['on(lemon_1, table_1)', 'holding(robot, cup_1)'],
      battery: { percent: 50, level: 'okay' as const, charging: false, docked: false },
      estop: true,
      holding: 'cup_1',
      at: null,
      posture: 'home',
      busy: false,
      events: [],
    };
    render(<FactsPanel snapshot={snap} onRefresh={() => undefined} />);
    expect(screen.getByText('PRESSED')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Filter facts'), { target: { value: 'lemon' } });
    expect(screen.getByText('on(lemon_1, table_1)')).toBeTruthy();
    expect(screen.queryByText('holding(robot, cup_1)')).toBeNull();
  });
});

describe('SceneView', () => {
  it('says clearly when WebGL is unavailable, instead of a blank canvas', () => {
    render(<SceneView api={fakeApi()} meta={META} highlight={[]} detectWebgl={() => null} />);
    expect(screen.getByRole('alert').textContent).toMatch(/no WebGL/);
    expect(screen.getByText(/--use-angle=swiftshader/)).toBeTruthy();
  });
});
