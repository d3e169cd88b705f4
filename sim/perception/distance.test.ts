// Distances against the geometry of the layout, to the millimetre.
import { describe, expect, it } from 'vitest';
import { layoutWorld, tableLayout } from '../../test/fixtures/worlds';
import { centreDistance, distanceBetween, distanceToTarget, robotHumanDistance, shoulderPoint } from './distance';

const MM = 0.001;

describe('distances', () => {
  it('robot to object: from the arm shoulder to the closest point of the box', async () => {
    const sim = await layoutWorld(
      tableLayout([
        { id: 'wood_1', type: 'wooden_box', on: 'table_1', position: [0.3, 0, 0] },
        { id: 'tin_1', type: 'metal_box', on: 'table_1', position: [0.3, 0, 0.2] },
      ]),
    );
    // Base at (-0.05, 0.75, 0), mount 0.06 up, shoulder 0.05 above the mount.
    const s = shoulderPoint(sim)!;
    expect(Math.abs(s.x + 0.05) + Math.abs(s.y - 0.86) + Math.abs(s.z)).toBeLessThan(1e-9);
    // Wooden box: 6.5 cm cube on the 0.75 m table top; closest point (0.2675, 0.815, 0).
    expect(Math.abs(distanceToTarget(sim, 'wood_1') - Math.hypot(0.2675 + 0.05, 0.815 - 0.86))).toBeLessThan(MM);
    // Between the boxes: the gap along z (0.2 - 0.0325 - 0.0275), and the centre distance.
    expect(Math.abs(distanceBetween(sim, 'wood_1', 'tin_1') - (0.2 - 0.0325 - 0.0275))).toBeLessThan(MM);
    expect(Math.abs(centreDistance(sim, 'wood_1', 'tin_1') - Math.hypot(0.2, 0.0325 - 0.025))).toBeLessThan(MM);
    expect(distanceBetween(sim, 'wood_1', 'table_1')).toBeLessThan(MM);
  });

  it('a robot without an arm measures from its base centre on the floor plane', async () => {
    const sim = await layoutWorld(
      tableLayout([{ id: 'block_1', type: 'toy_block', position: [1.5, 0.02, 1.0] }], {
        robot: { config: 'valdemar', pose: { position: [-2, 0, 0], yaw: 0 } },
      }),
    );
    expect(Math.abs(distanceToTarget(sim, 'block_1') - Math.hypot(3.5 - 0.02, 1.0 - 0.02))).toBeLessThan(MM);
  });

  it('robot to person: the gap between the base footprint and the body', async () => {
    const sim = await layoutWorld(
      tableLayout([], {
        robot: { config: 'household_manipulator', pose: { position: [-1.2, 0, 0], yaw: 0 } },
        people: [{ id: 'person_1', name: 'Adriana', position: [-1.2, 0, -1.5], yaw: 0, gaze: 'robot', handsFree: true, known: true }],
      }),
    );
    // Base 0.55 m wide: 1.5 - 0.275 - 0.22 (body radius).
    expect(Math.abs(robotHumanDistance(sim, 'person_1') - 1.005)).toBeLessThan(MM);
  });
});
