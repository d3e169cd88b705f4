// Shadow mode compares the real robot's /joint_states with the twin's joints, by
// name: one beyond the tolerance is a divergence; a joint the message lacks, or a
// position that is not a number, is unknown (never taken as agreeing).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RosbridgeTestServer, startRosbridgeServer } from './support/rosbridge-server';
import { openRobot } from '../robot/sources';
import type { OpenedRosRobot } from '../robot/rosbridge/source';
import { openSim } from '../robot/sim/open';
import { Shadow } from '../robot/shadow/shadow';

const NAV2 = path.resolve(import.meta.dirname, '../examples/rosbridge/nav2-moveit.json');
const TYPE = 'sensor_msgs/msg/JointState';

function mappingWithJoints(): string {
  const m = JSON.parse(readFileSync(NAV2, 'utf8')) as Record<string, unknown>;
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'sb-shadow-')), 'mapping.json');
  writeFileSync(file, JSON.stringify({ ...m, jointStates: { topic: '/joint_states' } }));
  return file;
}

async function until(cond: () => Promise<boolean>): Promise<void> {
  for (let t = 0; t < 200 && !(await cond()); t++) await new Promise((r) => setTimeout(r, 20));
}

describe('shadow mode: the robot joint states against the twin', () => {
  let server: RosbridgeTestServer | undefined;
  let opened: OpenedRosRobot | undefined;
  let shadow: Shadow | undefined;
  afterEach(async () => {
    shadow?.dispose();
    await opened?.close();
    await server?.close();
  });

  async function open(): Promise<{ names: readonly string[]; q: readonly number[] }> {
    server = await startRosbridgeServer();
    server.repeat('/emergency_stop', { data: false }, 200, { type: 'std_msgs/msg/Bool', latch: true });
    server.repeat('/battery_state', { percentage: 0.8, power_supply_status: 2 }, 200, {
      type: 'sensor_msgs/msg/BatteryState',
      latch: true,
    });
    server.repeat('/detections', { detections: [] }, 200, { type: 'vision_msgs/msg/Detection3DArray', latch: true });
    opened = (await openRobot({ kind: 'rosbridge', url: server.url, mapping: mappingWithJoints() })) as OpenedRosRobot;
    const sim = await openSim('tabletop/fruits');
    shadow = new Shadow(opened.robot, sim, { jointTolerance: 0.05 });
    const w = sim.control.world;
    return { names: w.kinematics!.jointNames, q: w.body.q! };
  }

  // Published as a robot does, periodically (a message only on subscribing may be a latched replay).
  let stop: (() => void) | undefined;
  const send = (name: readonly string[], position: ReadonlyArray<number | null>) => {
    stop?.();
    stop = server!.repeat('/joint_states', { header: { stamp: { sec: 0, nanosec: 0 } }, name, position, velocity: [], effort: [] }, 100, {
      type: TYPE,
    });
  };

  it('reports the joint beyond the tolerance, with both values, and no other', async () => {
    const { names, q } = await open();
    const moved = q.map((v, i) => (i === 1 ? v + 0.3 : v + 0.01));
    send(names, moved);
    await until(async () => (await opened!.robot.jointStates!()).known);
    const joints = (await shadow!.sync()).filter((d) => d.kind === 'joint');
    expect(joints).toEqual([
      { kind: 'joint', subject: names[1], predicted: `at ${q[1]!.toFixed(3)}`, actual: `at ${moved[1]!.toFixed(3)}` },
    ]);
  }, 30_000);

  it('a joint the message lacks is unknown, and a position that is not a number makes the reading unknown', async () => {
    const { names, q } = await open();
    send(names.slice(1), q.slice(1));
    await until(async () => (await opened!.robot.jointStates!()).known);
    expect((await shadow!.sync()).filter((d) => d.kind === 'joint')).toEqual([
      { kind: 'joint', subject: names[0], predicted: `at ${q[0]!.toFixed(3)}`, actual: `unknown: the joint states have no ${names[0]}` },
    ]);
    send(names, [null, ...q.slice(1)]);
    await until(async () => !(await opened!.robot.jointStates!()).known);
    const joints = (await shadow!.sync()).filter((d) => d.kind === 'joint');
    expect(joints).toHaveLength(names.length);
    expect(joints[0]!.actual).toMatch(/^unknown: .*position\[0\]/);
  }, 30_000);

  it('before any joint states came, every joint is unknown, not agreeing', async () => {
    const { names } = await open();
    const joints = (await shadow!.sync()).filter((d) => d.kind === 'joint');
    expect(joints.map((d) => d.subject)).toEqual([...names]);
    expect(joints.every((d) => d.actual.startsWith('unknown: '))).toBe(true);
  }, 30_000);
});
