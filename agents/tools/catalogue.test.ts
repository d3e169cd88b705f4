// The Embodied Tool Protocol's registry on real robots (paper 004 §3.1): every set
// the robot can use, each tool once with a full card; discovery by a need in words
// puts the right tool first; monitors run in the background and raise events.
import { describe, expect, it } from 'vitest';
import { openSim } from '../../robot/sim/open';
import { buildCatalogue } from './catalogue';
import { MONITOR_TOOLS, MonitorHost, type RaisedEvent } from './monitors';

describe('the ETP catalogue', () => {
  it('holds 40+ tools across the sets, each with its card; names two sets share are kept apart', async () => {
    const { robot, control } = await openSim('tabletop/workshop');
    const { registry, origin } = await buildCatalogue(robot, [{ source: 'monitors', tools: MONITOR_TOOLS }]);
    expect(registry.size).toBeGreaterThanOrEqual(40);
    expect(new Set(origin.values())).toEqual(expect.objectContaining({ size: expect.any(Number) }));
    expect([...new Set(origin.values())].length).toBeGreaterThanOrEqual(6);
    for (const t of registry.list()) {
      expect(t.card.capability.length, t.name).toBeGreaterThan(5);
      expect(t.card.outputs.length, t.name).toBeGreaterThan(1);
      expect(t.card.whenToUse.length, t.name).toBeGreaterThan(3);
      expect(['on-demand', 'continuous', 'event']).toContain(t.card.mode);
      expect(t.schema().name).toBe(t.name);
    }
    // The scene's own set keeps the plain names; ALRM's pick (a different tool) is renamed, not lost.
    expect(origin.get('act')).toBe('dfki');
    expect(origin.get('pick__alrm')).toBe('alrm');
    expect(registry.list({ mode: 'continuous' }).map((t) => t.name)).toEqual(['battery_monitor', 'person_watcher']);
    // World-generated task tools (MAYA's pick_<x>) would outlive the world they came from: left out.
    expect(registry.names().some((n) => n.startsWith('go_to_'))).toBe(false);
    control.dispose();
  });

  it('ranks by need: a need phrased in words finds the right tool first', async () => {
    const cases: Array<[string, string, string]> = [
      ['farm', 'tell me when the battery runs low during the mission', 'battery_monitor'],
      ['farm', 'drive to the tomato bed', 'navigate'],
      ['farm', 'go back to the charging station and dock', 'dock'],
      ['farm', 'listen in case a person tells the robot to stop', 'person_watcher'],
      ['farm', 'think about the plan before acting', 'reflect'],
      ['farm', 'what is the date today', 'get_today_date'],
      ['kitchen', 'is the mug within reach of the arm', 'dist_to_target'],
      ['kitchen', 'is there a free path to the person', 'check_free_path'],
      ['kitchen', 'does the person have a free hand to take something', 'human_hands_free'],
      ['tabletop/workshop', 'what happened since the last check, any events', 'check_events'],
    ];
    for (const scene of new Set(cases.map((c) => c[0]))) {
      const { robot, control } = await openSim(scene);
      const { registry } = await buildCatalogue(robot, [{ source: 'monitors', tools: MONITOR_TOOLS }]);
      for (const [, need, want] of cases.filter((c) => c[0] === scene)) {
        const found = registry.discover(need, 3);
        expect(found[0]?.tool.name, `${scene}: "${need}" → ${found.map((f) => f.tool.name).join(', ')}`).toBe(want);
        expect(found[0]!.matched.length).toBeGreaterThan(0);
      }
      control.dispose();
    }
  }, 30_000);
});

describe('continuous-mode tools', () => {
  it('run in the background from the call that starts them, raise events (critical ones marked), and stop with the host', async () => {
    const { robot, control } = await openSim('farm');
    const raised: RaisedEvent[] = [];
    const host = new MonitorHost(robot, (e) => raised.push(e));
    const state = new Map<string, unknown>();
    const detach = host.attach(state);
    const ctx = { robot, signal: new AbortController().signal, state };
    const [battery, person] = MONITOR_TOOLS;
    expect(await battery!.call({}, ctx)).toMatchObject({ ok: true, content: expect.stringMatching(/^battery_monitor is running/) });
    expect((await battery!.call({}, ctx)).content).toBe('battery_monitor was already running.');
    expect((await person!.call({}, ctx)).ok).toBe(true);
    // The watcher reports who is around when it starts (the farm is empty).
    expect(raised.map((e) => e.text)).toEqual(['nobody is around']);
    raised.length = 0;

    control.inject({ type: 'set_battery', percent: 25 });
    control.inject({ type: 'person_said', person: 'Ada', text: 'nice weather today' });
    control.inject({ type: 'person_said', person: 'Ada', text: 'Stop, there is a hedgehog!' });
    control.inject({ type: 'set_battery', percent: 8 });
    expect(raised.map((e) => [e.monitor, e.severity, e.text.replace(/^t=\S+ /, '')])).toEqual([
      ['battery_monitor', 'info', 'battery is low (25%)'],
      ['person_watcher', 'info', 'Ada said: "nice weather today"'],
      ['person_watcher', 'critical', 'Ada said: "Stop, there is a hedgehog!"'],
      ['battery_monitor', 'critical', 'battery is critical (8%)'],
    ]);

    host.stopAll();
    detach();
    control.inject({ type: 'set_battery', percent: 50 });
    expect(raised).toHaveLength(4);
    // Without a workflow hosting monitors, the tool says so instead of pretending.
    expect((await battery!.call({}, ctx)).content).toMatch(/runs in the background only in a workflow that hosts monitors/);
    control.dispose();
  });
});
