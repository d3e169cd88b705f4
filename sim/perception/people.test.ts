// RAIDER's human queries (paper 001 Fig. 16) on a room with four people: one
// known and looking at the robot, one unknown, one turned away, one behind it.
import { beforeAll, describe, expect, it } from 'vitest';
import { layoutWorld, tableLayout } from '../../test/fixtures/worlds';
import type { SceneInput } from '../../scenes/schema';
import type { SimWorld } from '../world/sim-world';
import { robotHumanDistance } from './distance';
import { faceVisible, freePath, gazeAtRobot, handsFree, humansAround, recogniseHumans } from './people';

/** Degrees of yaw that turn someone at `from` to face `to` (0 faces +X, 90 faces -Z). */
const yawToward = (from: [number, number], to: [number, number]): number =>
  (Math.atan2(-(to[1] - from[1]), to[0] - from[0]) * 180) / Math.PI;

const ROBOT: [number, number] = [-1.2, 0];
// The robot's head camera, for a gaze point on it.
const HEAD: [number, number, number] = [-1.15, 1.45, 0];

const room = (objects: SceneInput['objects'] = []): SceneInput =>
  tableLayout(objects, {
    robot: { config: 'household_manipulator', pose: { position: [ROBOT[0], 0, ROBOT[1]], yaw: 0 } },
    people: [
      {
        id: 'person_1',
        name: 'Adriana',
        position: [0, 0, -1.2],
        yaw: yawToward([0, -1.2], ROBOT),
        gaze: 'robot',
        handsFree: false,
        known: true,
      },
      {
        id: 'person_2',
        name: 'Bob',
        position: [0.4, 0, 1.1],
        yaw: yawToward([0.4, 1.1], ROBOT),
        gaze: HEAD,
        handsFree: true,
        known: false,
      },
      { id: 'person_3', name: 'Carla', position: [1.6, 0, -0.3], yaw: 0, gaze: 'away', handsFree: true, known: true },
      { id: 'person_4', name: 'Dan', position: [-3, 0, 0], yaw: 0, gaze: 'robot', handsFree: true, known: true },
    ],
  });

let sim: SimWorld;
beforeAll(async () => {
  sim = await layoutWorld(room([{ id: 'crate_1', type: 'storage_container', position: [-0.9, 0.05, -0.3] }]));
});

describe('people', () => {
  it('humans around: everyone in view, recognised or not; not the person behind the robot', () => {
    expect(humansAround(sim).sort()).toEqual(['person_1', 'person_2', 'person_3']);
  });

  it('recognises only known people whose face it can see', () => {
    expect(faceVisible(sim, 'person_1')).toBe(true);
    expect(faceVisible(sim, 'person_3')).toBe(false);
    // Bob faces the robot but is not on record; Carla is turned away; Dan is behind the camera.
    expect(recogniseHumans(sim)).toEqual([{ id: 'person_1', name: 'Adriana' }]);
  });

  it('gaze at the robot: "robot", or a gaze point on its head; not "away"', () => {
    expect(gazeAtRobot(sim, 'person_1')).toBe(true);
    expect(gazeAtRobot(sim, 'person_2')).toBe(true);
    expect(gazeAtRobot(sim, 'person_3')).toBe(false);
    sim.people.get('person_2')!.gaze = { x: 0.3, y: 0.75, z: 0 };
    expect(gazeAtRobot(sim, 'person_2')).toBe(false);
    sim.people.get('person_2')!.gaze = { x: HEAD[0], y: HEAD[1], z: HEAD[2] };
  });

  it('hands free and distance', () => {
    expect(handsFree(sim, 'person_1')).toBe(false);
    expect(handsFree(sim, 'person_2')).toBe(true);
    // Footprint half 0.275 m; 0.925 m clear on both axes, minus the 0.22 m body radius.
    expect(Math.abs(robotHumanDistance(sim, 'person_1') - (Math.hypot(0.925, 0.925) - 0.22))).toBeLessThan(0.001);
  });

  it('free path: a crate on the floor blocks the way to Adriana; moved away, the way is free', () => {
    expect(freePath(sim, 'person_1')).toMatchObject({ free: false, obstacle: 'crate_1' });
    expect(freePath(sim, 'person_4')).toMatchObject({ free: true });
    sim.inject({ type: 'object_moved', object: 'crate_1', to: [-2.2, 0.05, 1.5], by: 'person_1' });
    for (let i = 0; i < 60; i++) sim.step();
    expect(freePath(sim, 'person_1')).toMatchObject({ free: true });
  });

  it('free path to an object goes where the approach would: with no place that serves it, there is none', async () => {
    const s = await layoutWorld(room([{ id: 'plum_1', type: 'plum', on: 'table_1', position: [0.0, 0, 0] }]));
    // The room has no named place serving the table: the approach skill has nowhere to drive, and the path says so.
    expect(freePath(s, 'plum_1')).toMatchObject({ free: false, reason: 'no known place to approach plum_1 from' });
  });
});
