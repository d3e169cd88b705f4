// An arm from a robot description names its posture from the sidecar's
// postures by joint value, and between them says "none" (no named posture),
// never "unknown": its joints are known. The truth audit judges these labels
// by the same postures, so a true label is no lie and a false one is.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSim } from '../../robot/sim/open';
import { loadRobot } from '../../scenes/urdf/load';
import { robotFiles } from '../../test/support/robot-files';
import { snapshotFacts } from '../../sim/perception/snapshot';
import { pick } from '../../sim/skills/pick';
import { moveArm } from '../../sim/skills/posture';
import type { SimWorld } from '../../sim/world/sim-world';
import { checkFacts } from './check-facts';
import type { CallUnderCheck } from './check-core';
import { readWorld } from './truth';

const UR5E = join(import.meta.dirname, '../../test/fixtures/robots/ur5e_like/urdf/ur5e_like.urdf');

/** The audit's judgement of one snapshot line, read from the world as it stands. */
function judged(w: SimWorld, line: string): string[] {
  const r = readWorld(w);
  const c = { world: w, before: r, after: r } as unknown as CallUnderCheck;
  return checkFacts(c, line).map((f) => f.detail);
}

const posture = (w: SimWorld) => snapshotFacts(w).find((f) => f.startsWith('robot_has_arm_posture('));

describe('postures of an arm from a robot description', () => {
  it('named by value in a posture, "none" between postures; the audit agrees with both and calls the others lies', async () => {
    const w = (await openSim('tabletop/fruits', { robot: loadRobot(robotFiles(UR5E)) })).control.world;
    expect(posture(w)).toBe('robot_has_arm_posture(robot, home)');
    expect(judged(w, 'robot_has_arm_posture(robot, home)')).toEqual([]);
    expect(judged(w, 'robot_has_arm_posture(robot, transport)')).toEqual([
      'reported robot_has_arm_posture(robot, transport) but the joints are in home',
    ]);

    expect(await pick(w, 'lemon_1')).toMatchObject({ ok: true });
    expect(posture(w)).toBe('robot_has_arm_posture(robot, none)');
    expect(judged(w, 'robot_has_arm_posture(robot, none)')).toEqual([]);
    expect(judged(w, 'robot_has_arm_posture(robot, unknown)')).toEqual([
      'reported robot_has_arm_posture(robot, unknown) but the joints are in no named posture',
    ]);

    expect(await moveArm(w, 'transport')).toMatchObject({ ok: true });
    expect(posture(w)).toBe('robot_has_arm_posture(robot, transport)');
    expect(judged(w, 'robot_has_arm_posture(robot, transport)')).toEqual([]);
  });
});
