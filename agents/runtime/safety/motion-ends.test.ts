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
