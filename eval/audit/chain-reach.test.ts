// A chain arm's "cannot reach" sentences, judged by the audit's own reach check.
// Found by `skillbridge audit --urdf …/ur5e_like.urdf --calls 10000 --seed 1`: about
// 190 outputs a run ("reaching X: the target is 1.3 m from the first joint; …",
// "…: no joint values reach the pose from 32 starts: …") were unread, so unjudged.
// Each now carries the tool pose it was asked for, and the audit tries to reach it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { loadRobot } from '../../scenes/urdf/load';
import { robotFiles } from '../../test/support/robot-files';
import { openSim } from '../../robot/sim/open';
import { rotate } from '../../sim/math';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { REACHED, reachCheck } from './reach-check';
import { replay, runAudit } from './run';

const ROBOTS = join(import.meta.dirname, '../../test/fixtures/robots');
const ur5e = () => loadRobot(robotFiles(join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf')));

describe("the audit's reach check over a chain", () => {
  it('reaches every pose the arm itself can take (joints drawn within its limits)', async () => {
    const { control } = await openSim('tabletop/fruits', { robot: ur5e() });
    try {
      const kin = control.world.kinematics!;
      const joint = ([lo, hi]: readonly [number, number]) => fc.double({ min: Math.max(lo, -3), max: Math.min(hi, 3), noNaN: true });
      fc.assert(
        fc.property(fc.tuple(...kin.limits.map(joint)), (q) => {
          const t = kin.tool(q);
          const goal = { position: t.p, approach: rotate(t.q, { x: 0, y: 1, z: 0 }), closing: rotate(t.q, { x: 0, y: 0, z: 1 }) };
          expect(reachCheck(kin, goal, control.world.body.q).reached).toBe(true);
        }),
        { numRuns: fuzzRuns(20), seed: fuzzSeed(7) },
      );
      // Beyond the chain's reach, nothing.
      const far = reachCheck(kin, { position: { x: kin.shoulder.x + kin.reach + 0.05, y: kin.shoulder.y, z: kin.shoulder.z } }, undefined);
      expect(far.reached).toBe(false);
      expect(far.metres).toBeGreaterThan(REACHED.metres);
    } finally {
      control.dispose();
    }
  }, 60_000);
});

describe("a chain arm's reach failures in the audit", () => {
  it('are read and judged: episodes of the 10,000-call ur5e_like audit with every kind leave nothing unjudged', async () => {
    // Episode 21: move_to beyond the chain's reach, and to poses no joint values reach.
    const report = await runAudit({ calls: 10_000, seed: 1, robot: ur5e(), episodes: [21], shrinkBudget: 0 });
    expect(report.unjudged).toEqual({});
    expect(report.unjudgedOutputs).toBe(0);
    expect(report.violations.map((v) => v.detail)).toEqual([]);
  }, 120_000);

  it('a planted "no joint values reach the pose" for a pose the arm reaches is a lie', async () => {
    const robot = ur5e();
    const ep = { scene: 'tabletop/fruits', set: 'alrm', seed: 1021, robot };
    // Within the arm's reach, hand pointing down: its own solver moves there.
    const summary =
      "reaching the pose (x 0.4, y 0, z 0.3): no joint values reach the pose from 32 starts: the nearest missed by 12.0 mm and 3.0° (the goal in world's frame: the tool's point (0.4000, 0.0000, 0.3000) m, approaching along (0.0000, 0.0000, -1.0000), the fingers closing along (0.0000, 1.0000, 0.0000))";
    const planted = await replay(ep, [{ tool: 'move_to', args: { pose: { position: { x: 0.4, y: 0, z: 0.3 } } } }], {
      said: (r) =>
        r && { ...r, ok: false, content: `Failed (out_of_reach): ${summary}.`, data: { ok: false, code: 'out_of_reach', summary } },
    });
    expect(planted.map((f) => f.detail)).toContainEqual(expect.stringContaining("the audit's solver does"));
  }, 60_000);
});
