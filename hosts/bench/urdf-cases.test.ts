// bench robot's URDF cases: the test robots load from their files (the xacro one
// with its package), each chain is cut, and the load time is reported as the
// first load and p50/p99 over the loads; a missing file is a problem line, not a
// crash and not another robot. Figures are printed, never asserted.
import { describe, expect, it } from 'vitest';
import { benchRobot, robotBenchLines } from './robot-bench';
import { URDF_CASES, fixturesDir } from './urdf-cases';

describe('bench robot: the URDF cases', () => {
  it('load the UR5e-class and Panda-class URDFs and the xacro mobile manipulator, and report their load time', async () => {
    expect(fixturesDir()).toMatch(/test\/fixtures\/robots$/);
    const r = await benchRobot({ cases: URDF_CASES, poses: 3, loadRuns: 3 });
    expect(r.problems).toEqual([]);
    expect(r.chains.map((c) => [c.label, c.joints, c.load?.runs])).toEqual([
      ['UR5e-class URDF, meshes', 6, 3],
      ['Panda-class URDF', 7, 3],
      ['mobile manip. xacro', 6, 3],
    ]);
    for (const c of r.chains) {
      expect(c.loadMs).toBeGreaterThan(0);
      expect(c.load!.p99Ms).toBeGreaterThanOrEqual(c.load!.p50Ms);
    }
    const lines = robotBenchLines(r);
    expect(lines).toContain('URDF load (ms per load: the first, then p50/p99 over 3 loads):');
    expect(lines.some((l) => /^ {2}mobile manip\. xacro +first [\d.]+ ms, p50 [\d.]+ ms, p99 [\d.]+ ms$/.test(l))).toBe(true);
  });

  it('a robot that does not load is a problem line naming it', async () => {
    const r = await benchRobot({
      cases: [{ ...URDF_CASES[0]!, label: 'gone', description: () => Promise.reject(new Error('no such file')) }],
      poses: 3,
    });
    expect(r.chains).toEqual([]);
    expect(robotBenchLines(r)).toContain('  gone: not measured: no such file');
  });
});
