// Repeated 1 m base steps cannot walk the kitchen robot out of its declared
// workspace: each step is checked where it ends, from where the robot is.
import { describe, expect, it } from 'vitest';
import { openSim } from '../../../robot/sim/open';
import { SafetyChain } from './chain';

describe('workspace limits where a motion ends', () => {
  it('refuses the step that would leave the workspace, however many allowed steps came before', async () => {
    const { robot, control } = await openSim('kitchen');
    try {
      const ws = robot.info.workspace!;
      expect(ws).toBeDefined();
      const chain = new SafetyChain(robot, { limits: { maxMotions: 1000 } });
      const guarded = chain.guard({ via: 'direct', approval: 'auto' });
      const refusals: string[] = [];
      // Each way out of the room that is not blocked: 1 m at a time, eight times.
      for (const [forward, left] of [
        [0, 1],
        [-1, 0],
        [0, -1],
      ] as const)
        for (let i = 0; i < 8; i++) {
          const r = await guarded.base!.step(forward, left, 0);
          if (!r.ok && /beyond the edge/.test(r.summary)) refusals.push(r.summary);
        }
      const p = (await robot.perception.basePose()).position;
      expect(p[0]).toBeGreaterThanOrEqual(ws.min[0] - 0.06);
      expect(p[0]).toBeLessThanOrEqual(ws.max[0] + 0.06);
      expect(p[2]).toBeGreaterThanOrEqual(ws.min[2] - 0.06);
      expect(p[2]).toBeLessThanOrEqual(ws.max[2] + 0.06);
      expect(refusals.length).toBeGreaterThan(0);
    } finally {
      control.dispose();
    }
  }, 60_000);
});

describe('a nudge of the tool is checked where it ends', () => {
  it('refuses the nudge that would take the gripper out of the workspace, however many came before', async () => {
    const { robot, control } = await openSim('tabletop/fruits');
    try {
      const start = (await robot.perception.toolPosition!())!;
      // A workspace whose ceiling is 0.12 m above the gripper (the chain adds its 5 cm margin).
      const ws = { min: [-10, 0, -10] as [number, number, number], max: [10, start[1] + 0.12, 10] as [number, number, number] };
      const boxed = Object.create(robot, { info: { value: { ...robot.info, workspace: ws } } }) as typeof robot;
      const chain = new SafetyChain(boxed, { limits: { maxMotions: 1000 } });
      const guarded = chain.guard({ via: 'direct', approval: 'auto' });
      const results: Array<{ ok: boolean; summary: string }> = [];
      for (let i = 0; i < 6; i++) results.push(await guarded.arm!.nudge(0, 0, 0.05));
      const refused = results.filter((r) => !r.ok && /nudge would end/.test(r.summary));
      expect(refused.length).toBeGreaterThan(0);
      const end = (await robot.perception.toolPosition!())!;
      expect(end[1]).toBeLessThanOrEqual(ws.max[1] + 0.05 + 1e-3);
    } finally {
      control.dispose();
    }
  }, 60_000);

  it('refuses a nudge when the robot does not report where its gripper is', async () => {
    const { robot, control } = await openSim('tabletop/fruits');
    try {
      const blind = Object.create(robot, {
        perception: { value: { ...robot.perception, toolPosition: undefined } },
      }) as typeof robot;
      const guarded = new SafetyChain(blind).guard({ via: 'direct', approval: 'auto' });
      const r = await guarded.arm!.nudge(0.02, 0, 0);
      expect(r.ok).toBe(false);
      expect(r.summary).toMatch(/where the nudge ends is unknown/);
    } finally {
      control.dispose();
    }
  }, 60_000);
});
