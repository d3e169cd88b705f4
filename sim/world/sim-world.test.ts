import { describe, expect, it } from 'vitest';
import { layoutWorld, sceneWorld, tableLayout } from '../../test/fixtures/worlds';
import { pick, place } from '../skills/manipulation';
import type { SimWorld } from './sim-world';

function state(sim: SimWorld): string {
  const poses = [...sim.entities.keys()].map((id) => {
    const p = sim.pose(id);
    return [id, p.p.x, p.p.y, p.p.z, p.q.x, p.q.y, p.q.z, p.q.w].join(',');
  });
  return JSON.stringify({ poses, q: sim.body.q, t: sim.time, held: sim.grasp?.objectId ?? null });
}

describe('SimWorld', () => {
  it('is deterministic: the same scene, seed and calls give bit-identical poses', async () => {
    const run = async () => {
      const sim = await sceneWorld('tabletop/fruits', { seed: 7 });
      await pick(sim, 'plum_1');
      await place(sim, { kind: 'object', id: 'bowl_1' });
      await pick(sim, 'strawberry_1');
      const s = state(sim);
      sim.dispose();
      return s;
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
  });

  it('restores a snapshot exactly: replaying the same calls after restore gives the same state', async () => {
    const sim = await sceneWorld('tabletop/fruits');
    const snap = sim.snapshot();
    await pick(sim, 'lemon_1');
    await place(sim, { kind: 'object', id: 'trash_1' });
    const first = state(sim);
    sim.restore(snap);
    expect(sim.time).toBe(0);
    expect(sim.grasp).toBeUndefined();
    await pick(sim, 'lemon_1');
    await place(sim, { kind: 'object', id: 'trash_1' });
    expect(state(sim)).toEqual(first);
  });

  it('stops a skill mid-motion when its AbortSignal fires, and says so', async () => {
    const sim = await sceneWorld('tabletop/fruits');
    const ctrl = new AbortController();
    const t0 = sim.time;
    // Abort once the arm has started moving (after the first yield to the event loop).
    setImmediate(() => ctrl.abort());
    const r = await pick(sim, 'peach_1', { signal: ctrl.signal });
    expect(r).toMatchObject({ ok: false, code: 'aborted' });
    expect(sim.time - t0).toBeLessThan(1.0);
    expect(sim.armBusy).toBe(false);
    // The arm stays where it stopped: stepping on does not move it.
    const q = [...sim.body.q!];
    for (let i = 0; i < 100; i++) sim.step();
    expect(sim.body.q).toEqual(q);
  });

  it('halts on the emergency stop mid-pick, refuses motion until released, then works again', async () => {
    const sim = await sceneWorld('tabletop/fruits');
    setImmediate(() => sim.inject({ type: 'estop_pressed' }));
    const r = await pick(sim, 'peach_1');
    expect(r).toMatchObject({ ok: false, code: 'estop' });
    expect(r.summary).toContain('emergency stop');
    expect(await pick(sim, 'peach_1')).toMatchObject({ ok: false, code: 'estop' });
    const events = sim.events.since(0).map((e) => e.type);
    expect(events).toContain('estop_pressed');
    sim.inject({ type: 'estop_released' });
    expect(await pick(sim, 'peach_1')).toMatchObject({ ok: true });
  });

  it('runs scheduled scene events at their time', async () => {
    const sim = await layoutWorld(
      tableLayout([{ id: 'plum_1', type: 'plum', on: 'table_1', position: [0.3, 0, 0] }], {
        events: [
          { at: 1, event: { type: 'person_said', person: 'operator', text: 'use the bowl' } },
          { at: 2, event: { type: 'object_moved', object: 'plum_1', to: [0.3, 0.8, 0.2], by: 'operator' } },
        ],
      }),
    );
    await sim.idle(3);
    const evs = sim.events.since(0);
    expect(evs.map((e) => e.type)).toEqual(['person_said', 'object_moved']);
    expect(evs[0]!.time).toBeCloseTo(1, 1);
    expect(sim.pose('plum_1').p.z).toBeCloseTo(0.2, 1);
  });

  it('drains the battery with time and posts threshold crossings', async () => {
    const sim = await layoutWorld(
      tableLayout([], {
        robot: {
          config: 'mobipick',
          pose: { position: [-0.6, 0, 0], yaw: 0 },
          battery: { percent: 31, low: 30, critical: 10, drainScale: 50 },
        },
      }),
    );
    const before = sim.battery.percent;
    await sim.idle(60);
    expect(sim.battery.percent).toBeLessThan(before);
    const levels = sim.events.since(0).filter((e) => e.type === 'battery_threshold');
    expect(levels[0]).toMatchObject({ type: 'battery_threshold', level: 'low' });
  });
});
