// REP 103 at the tool boundary: world (Y up) ↔ the robot's base frame (x forward,
// y left, z up), for a fixed arm and for a mobile robot that has turned.
import { describe, expect, it } from 'vitest';
import { openSimRobot } from '../../robot/sim/open';
import { outcomeInBaseFrame, toBase, toWorld, yawToBase } from './frames';
import { findToolSet } from './sets';

describe('base frame conversion', () => {
  it('is the inverse of itself, for any heading', () => {
    for (const yawDeg of [0, 90, -135, 180]) {
      const base = { position: [1, 0.2, -2] as [number, number, number], yawDeg };
      const p = { x: 0.4, y: -0.25, z: 0.9 };
      const back = toBase(toWorld(p, base), base);
      expect(back.x).toBeCloseTo(p.x, 6);
      expect(back.y).toBeCloseTo(p.y, 6);
      expect(back.z).toBeCloseTo(p.z, 6);
    }
    // Facing +x (yaw 0): world -z is the robot's left; up is up.
    expect(toBase([1, 1, -1], { position: [0, 0, 0], yawDeg: 0 })).toEqual({ x: 1, y: 1, z: 1 });
    // Turned left by 90°: world -z is ahead, +x on its right.
    expect(toBase([1, 0, -2], { position: [0, 0, 0], yawDeg: 90 })).toEqual({ x: 2, y: -1, z: 0 });
    expect(yawToBase(-170, { position: [0, 0, 0], yawDeg: 30 })).toBe(160);
  });

  it('restates a skill summary’s world points, but not a relative move', () => {
    const o = outcomeInBaseFrame(
      { ok: true, summary: 'moved the gripper by (0, 0.05, 0) m to (0.3, 0.95, -0.05)', data: { position: [0.3, 0.95, -0.05] } },
      { position: [-0.05, 0.75, 0], yawDeg: 0 },
    );
    expect(o.summary).toBe('moved the gripper by (0, 0.05, 0) m to (x 0.35, y 0.05, z 0.2)');
    expect(o.data).toEqual({ position: { x: 0.35, y: 0.05, z: 0.2 }, frame: 'base' });
  });

  it('a mobile robot’s world-model poses follow its heading: what is ahead has x > 0, wherever it faces', async () => {
    const robot = await openSimRobot('kitchen');
    const poses = (await findToolSet('world-model')!.build(robot)).find((t) => t.name === 'get_object_poses')!;
    const ctx = { robot, signal: new AbortController().signal, state: new Map() };
    // At the counter, facing +x: the toaster on the counter is ahead, at counter height.
    const toaster = (await poses.call({ object_name: 'toaster' }, ctx)).data as { position: { x: number; y: number; z: number } };
    expect(toaster.position.x).toBeGreaterThan(0.5);
    expect(toaster.position.z).toBeGreaterThan(0.8);
    // At the cabinet the robot faces -z (yaw 90): world -z is ahead (x), world -x is its left (y).
    expect((await robot.base!.navigate('cabinet_1')).ok).toBe(true);
    const base = await robot.perception.basePose();
    expect(base.yawDeg).toBeCloseTo(90, 0);
    const node = (await robot.worldModel!.node('fridge_1'))!.position!;
    const r = await poses.call({ object_name: 'fridge' }, ctx);
    const p = (r.data as { position: { x: number; y: number; z: number } }).position;
    expect(p.x).toBeCloseTo(-(node[2] - base.position[2]), 2);
    expect(p.y).toBeCloseTo(-(node[0] - base.position[0]), 2);
    expect(p.z).toBeCloseTo(node[1] - base.position[1], 2);
    expect(r.content).toContain('(base frame)');
  });
});
