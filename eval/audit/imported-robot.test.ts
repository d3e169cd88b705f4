// The truth audit with a robot from its description in place of the scene's own
// (audit --urdf). Found by `skillbridge audit --urdf …/ur5e_like.urdf --calls 10000`:
// the checker read the named postures from the scene's robot config, where an
// imported robot keeps only their names (the values are the description's, one
// per joint, behind the kinematics seam), so every snapshot saying the arm is at
// home was counted a lie. The checker now reads a chain's postures from its
// kinematics.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadRobot } from '../../scenes/urdf/load';
import { robotFiles as terminalRobotFiles } from '../../test/support/robot-files';
import { replay, runAudit } from './run';

const ROBOTS = join(import.meta.dirname, '../../test/fixtures/robots');
const ur5e = () => loadRobot(terminalRobotFiles(join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf')));
const panda = () => loadRobot(terminalRobotFiles(join(ROBOTS, 'panda_like/panda_like.urdf')));

describe('the truth audit with an imported robot', () => {
  it('a snapshot saying the imported arm is at home is judged by its own postures (no lie)', async () => {
    const robot = ur5e();
    for (const [scene, set, seed] of [
      ['tabletop/fruits', 'dfki', 1028],
      ['tabletop/fruits', 'chatbot', 1035],
    ] as const) {
      const findings = await replay({ scene, set, seed, robot }, [
        { tool: 'get_available_locations', args: {} },
        { tool: 'get_semantic_environment_representation_snapshot', args: {} },
      ]);
      expect(findings).toEqual([]);
    }
  });

  it('a short audit of the 6-DoF and the 7-DoF arm on a tabletop finds nothing, and ran the imported robot', async () => {
    for (const robot of [ur5e(), panda()]) {
      const report = await runAudit({ calls: 60, seed: 3, scenes: ['tabletop/fruits'], robot, shrinkBudget: 0 });
      expect(report.violations.map((v) => `[${v.class}] ${v.set}: ${v.detail}`)).toEqual([]);
      expect(report.calls).toBe(60);
    }
  });
});
