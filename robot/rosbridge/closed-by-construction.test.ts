// The rosbridge source reads nothing it does not know as a default: a mapped
// path that names no field, a latched e-stop replayed on subscribing, null
// (NaN) in a pose, an old stamp; and a goal in flight is cancelled when the
// e-stop is pressed or its reading goes stale, or the link drops.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GOAL, GOAL1, type RosbridgeTestServer, runFor, startRosbridgeServer } from '../../test/support/rosbridge-server';
import { openRobot } from '../sources';
import type { OpenedRosRobot } from './source';

const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/rosbridge/nav2-moveit.json');
const dir = mkdtempSync(path.join(tmpdir(), 'sb-closed-'));
let n = 0;
function mappingFile(patch: Record<string, unknown>): string {
  const file = path.join(dir, `m${++n}.json`);
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(EXAMPLE, 'utf8')), ...patch }));
  return file;
}
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, ms = 5000): Promise<void> {
  for (let t = 0; t < ms && !cond(); t += 20) await settle(20);
  expect(cond()).toBe(true);
}
/** A ROS time `agoS` seconds before now. */
const stamp = (agoS: number, ros: 1 | 2 = 2) => {
  const ms = Date.now() - agoS * 1000;
  return ros === 1 ? { secs: Math.floor(ms / 1000), nsecs: (ms % 1000) * 1e6 } : { sec: Math.floor(ms / 1000), nanosec: (ms % 1000) * 1e6 };
};

let server: RosbridgeTestServer | undefined;
let opened: OpenedRosRobot | undefined;
afterEach(async () => {
  await opened?.close();
  await server?.close();
  opened = server = undefined;
});

async function open(mapping: string, firstMessagesMs = 2000): Promise<OpenedRosRobot> {
  opened = (await openRobot({ kind: 'rosbridge', url: server!.url, mapping, firstMessagesMs })) as OpenedRosRobot;
  return opened;
}

const sent = (s: RosbridgeTestServer) =>
  s.received.filter((m) => m['op'] === 'send_action_goal' || (m['op'] === 'call_service' && !String(m['service']).startsWith('/rosapi/')));

describe('a mapped path that names no field of the message', () => {
  it('is a start-up error naming the mapping field (e-stop `pressed` on std_msgs/Bool)', async () => {
    server = await startRosbridgeServer();
    server.repeat('/emergency_stop', { data: true }, 100, { type: 'std_msgs/msg/Bool' });
    const file = mappingFile({ estop: { topic: '/emergency_stop', type: 'std_msgs/msg/Bool', path: 'pressed' }, battery: undefined });
    await expect(open(file)).rejects.toThrow(/mapping\.estop\.path: "pressed": std_msgs\/Bool has no field `pressed`; its fields: data/);
    await expect(open(mappingFile({ estop: { topic: '/emergency_stop', type: 'std_msgs/msg/Int32', path: 'data' } }))).rejects.toThrow(
      /mapping\.estop\.path: "data": `data` is a int32, not a bool/,
    );
    await expect(
      open(mappingFile({ pose: { topic: '/amcl_pose', type: 'geometry_msgs/msg/PoseWithCovarianceStamped', path: 'pose' } })),
    ).rejects.toThrow(/mapping\.pose\.path: "pose": `pose` is a geometry_msgs\/PoseWithCovariance, not a pose/);
  });

  it('is found through the definition text when message_details fails (rosapi 2.x on Iron and later)', async () => {
    server = await startRosbridgeServer({ messageDetails: false });
    server.repeat('/emergency_stop', { data: false }, 100, { type: 'std_msgs/msg/Bool' });
    const file = mappingFile({
      estop: { topic: '/emergency_stop', type: 'std_msgs/msg/Bool', path: 'pressed' },
      battery: undefined,
      pose: undefined,
      detections: undefined,
    });
    await expect(open(file)).rejects.toThrow(/mapping\.estop\.path: "pressed": std_msgs\/Bool has no field `pressed`; its fields: data/);
    // A mapped topic nobody publishes cannot be described that way: a start-up error, not a guess.
    const unpublished = mappingFile({
      estop: { topic: '/nobody', type: 'std_msgs/msg/Bool', path: 'data' },
      battery: undefined,
      pose: undefined,
      detections: undefined,
    });
    await expect(open(unpublished)).rejects.toThrow(
      /mapping\.estop\.type: "std_msgs\/msg\/Bool" could not be checked: .*\/nobody is not published now/,
    );
  });

  it('unchecked ("rosapi": false), it reads as unknown: with the e-stop pressed no posture motion runs and no pick goal is sent', async () => {
    server = await startRosbridgeServer();
    server.repeat('/emergency_stop', { data: true }, 100, { type: 'std_msgs/msg/Bool' });
    server.repeat('/battery_state', { percentage: 0.8, power_supply_status: 2 }, 100, { type: 'sensor_msgs/msg/BatteryState' });
    server.services.set('/set_named_posture', () => ({ success: true }));
    server.actions.set('/pick', async () => ({ status: GOAL.SUCCEEDED, values: { success: true } }));
    const r = await open(mappingFile({ rosapi: false, estop: { topic: '/emergency_stop', type: 'std_msgs/msg/Bool', path: 'pressed' } }));
    expect(r.notes[0]).toMatch(/"rosapi": false/);
    const posture = await r.robot.arm!.moveToPosture('home');
    expect(posture).toMatchObject({ ok: false, code: 'estop' });
    expect(posture.summary).toMatch(
      /e-stop state unknown: the last message on \/emergency_stop is unreadable: the message has no field `pressed`/,
    );
    expect(await r.robot.arm!.pick('cup_1')).toMatchObject({ ok: false, code: 'estop' });
    expect(sent(server)).toEqual([]);
  });
});

describe('a latched e-stop replayed on subscribing', () => {
  it('is not current: a one-shot call right after connecting sends nothing, saying why', async () => {
    server = await startRosbridgeServer();
    // The robot published "released" once, latched, and stopped; the call comes later.
    server.publish('/emergency_stop', { data: false }, { type: 'std_msgs/msg/Bool', latch: true });
    server.actions.set('/navigate_to_pose', async () => ({ status: GOAL.SUCCEEDED, values: { error_code: 0 } }));
    await settle(600);
    const r = await open(mappingFile({ maxAgeS: 0.5, battery: undefined, pose: undefined, detections: undefined }), 3000);
    const out = await r.robot.base!.navigate('dock');
    expect(out).toMatchObject({ ok: false, code: 'estop' });
    expect(out.summary).toBe(
      'base.navigate(place=dock) was not sent: e-stop state unknown: the only messages on /emergency_stop (it said released) came on subscribing and may be a latched replay of an old one (unstamped); no live message since',
    );
    expect(sent(server)).toEqual([]);
  });

  it('counts once a live message follows, or at once when its own stamp proves it young', async () => {
    server = await startRosbridgeServer();
    server.topics.set('/estop_state', 'my_msgs/msg/EStop');
    server.types.set('my_msgs/EStop', 'std_msgs/Header header\nbool pressed');
    server.publish('/estop_state', { header: { stamp: stamp(0.05), frame_id: '' }, pressed: false }, { latch: true });
    const file = mappingFile({
      estop: { topic: '/estop_state', type: 'my_msgs/msg/EStop', path: 'pressed' },
      battery: undefined,
      pose: undefined,
      detections: undefined,
      maxAgeS: 1,
    });
    const r = await open(file, 300);
    expect((await r.robot.safety()).estop).toMatchObject({ state: 'released', freshness: 'fresh' });
  });
});

describe('null (NaN, Inf) and stamps', () => {
  it('a pose with null (NaN) or a zero quaternion is unknown, never the map origin', async () => {
    server = await startRosbridgeServer();
    const pose = (position: Record<string, number>, orientation = { x: 0, y: 0, z: 0, w: 1 }) => ({
      header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'map' },
      pose: { pose: { position, orientation } },
    });
    let now = pose({ x: Number.NaN, y: 1, z: 0 });
    const t = setInterval(() => server?.publish('/amcl_pose', now), 100);
    server.topics.set('/amcl_pose', 'geometry_msgs/msg/PoseWithCovarianceStamped');
    try {
      const r = await open(mappingFile({ battery: undefined, detections: undefined }), 1500);
      await expect(r.robot.perception.basePose()).rejects.toThrow(
        "the robot's position is unknown: the last message on /amcl_pose is unreadable: `pose.pose.position.x` is null (NaN or ±Inf on the robot: rosbridge sends them as null)",
      );
      await expect(r.robot.perception.distanceTo('dock')).rejects.toThrow(/position is unknown/);
      now = pose({ x: Number.POSITIVE_INFINITY, y: 1, z: 0 });
      await settle(300);
      await expect(r.robot.perception.basePose()).rejects.toThrow(/`pose\.pose\.position\.x` is null/);
      now = pose({ x: 2, y: 1, z: 0 }, { x: 0, y: 0, z: 0, w: 0 });
      await settle(300);
      await expect(r.robot.perception.basePose()).rejects.toThrow(/`pose\.pose\.orientation` is not a unit quaternion \(its length is 0\)/);
      now = pose({ x: 2, y: 1, z: 0 });
      await settle(300);
      expect(await r.robot.perception.basePose()).toEqual({ position: [2, 0, -1], yawDeg: 0 });
    } finally {
      clearInterval(t);
    }
  });

  it('a message stamped 61 s ago is stale, however recently it arrived: pose unknown, motion refused', async () => {
    server = await startRosbridgeServer();
    server.repeat('/emergency_stop', { data: false }, 100, { type: 'std_msgs/msg/Bool' });
    server.topics.set('/amcl_pose', 'geometry_msgs/msg/PoseWithCovarianceStamped');
    server.topics.set('/battery_state', 'sensor_msgs/msg/BatteryState');
    const t = setInterval(() => {
      server?.publish('/amcl_pose', {
        header: { stamp: stamp(61), frame_id: 'map' },
        pose: { pose: { position: { x: 1, y: 1, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } } },
      });
      server?.publish('/battery_state', { header: { stamp: stamp(61), frame_id: '' }, percentage: 0.9, power_supply_status: 2 });
    }, 100);
    server.actions.set('/navigate_to_pose', async () => ({ status: GOAL.SUCCEEDED, values: { error_code: 0 } }));
    try {
      const r = await open(mappingFile({ detections: undefined }), 1500);
      await expect(r.robot.perception.basePose()).rejects.toThrow(
        /^the robot's position is stale: last received 0(\.\d)? s ago, stamped 6[01](\.\d)? s before it arrived, max 2 s$/,
      );
      const out = await r.robot.base!.navigate('dock');
      expect(out).toMatchObject({ ok: false, code: 'battery_empty' });
      expect(out.summary).toMatch(
        /battery state stale: last received .* stamped 6[01](\.\d)? s before it arrived, max 2 s \(it said 90%\)/,
      );
      expect(sent(server)).toEqual([]);
    } finally {
      clearInterval(t);
    }
  });

  it('a stamp ahead of this clock by more than maxAgeS is unknown (the clocks differ); a zero stamp is judged by arrival', async () => {
    server = await startRosbridgeServer();
    server.repeat('/emergency_stop', { data: false }, 100, { type: 'std_msgs/msg/Bool' });
    server.topics.set('/battery_state', 'sensor_msgs/msg/BatteryState');
    let ahead = -30;
    const t = setInterval(
      () =>
        server?.publish('/battery_state', {
          header: { stamp: ahead ? stamp(ahead) : { sec: 0, nanosec: 0 } },
          percentage: 0.9,
          power_supply_status: 2,
        }),
      100,
    );
    try {
      const r = await open(mappingFile({ pose: undefined, detections: undefined }), 1500);
      expect((await r.robot.safety()).battery).toEqual({ ageS: expect.any(Number), freshness: 'unknown' });
      await expect(r.robot.battery()).rejects.toThrow(/stamped 30(\.\d)? s ahead of this computer's clock, so its age is unknown/);
      ahead = 0;
      await settle(300);
      expect(await r.robot.battery()).toMatchObject({ percent: 90 });
    } finally {
      clearInterval(t);
    }
  });
});

describe('a goal in flight is cancelled, and its result says why', () => {
  const long = (s: RosbridgeTestServer) =>
    s.actions.set('/navigate_to_pose', async (g) =>
      (await runFor(20_000, g)) === 'cancelled'
        ? { status: GOAL.CANCELED, values: {} }
        : { status: GOAL.SUCCEEDED, values: { error_code: 0 } },
    );

  it('when the e-stop is pressed (ROS 2: cancel_action_goal)', async () => {
    server = await startRosbridgeServer();
    let pressed = false;
    const t = setInterval(() => server?.publish('/emergency_stop', { data: pressed }), 100);
    server.topics.set('/emergency_stop', 'std_msgs/msg/Bool');
    long(server);
    try {
      const r = await open(mappingFile({ battery: undefined, pose: undefined, detections: undefined }));
      const going = r.robot.base!.navigate('dock');
      await until(() => server!.received.some((m) => m['op'] === 'send_action_goal'));
      pressed = true;
      const out = await going;
      expect(out).toEqual({
        ok: false,
        code: 'estop',
        summary:
          'base.navigate(place=dock) was cancelled: the emergency stop is pressed; the robot confirmed the cancel (/navigate_to_pose)',
      });
      const goal = server.received.find((m) => m['op'] === 'send_action_goal')!;
      expect(server.received).toContainEqual({ op: 'cancel_action_goal', id: goal['id'], action: '/navigate_to_pose' });
    } finally {
      clearInterval(t);
    }
  }, 15_000);

  it('when the e-stop reading goes stale (ROS 1: the cancel topic)', async () => {
    server = await startRosbridgeServer({ ros: 1 });
    const stop = server.repeat('/emergency_stop', { data: false }, 100, { type: 'std_msgs/Bool' });
    server.actionlib('/move_base', 'move_base_msgs/MoveBaseAction', async (g) =>
      (await runFor(20_000, g)) === 'cancelled' ? { status: GOAL1.PREEMPTED, values: {} } : { status: GOAL1.SUCCEEDED, values: {} },
    );
    const file = mappingFile({
      ros: 1,
      maxAgeS: 0.5,
      battery: undefined,
      pose: undefined,
      detections: undefined,
      skills: { 'base.navigate': { action: '/move_base', type: 'move_base_msgs/MoveBaseAction', goal: { target_pose: '$pose' } } },
    });
    const r = await open(file);
    const going = r.robot.base!.navigate('dock');
    await until(() => server!.received.some((m) => m['op'] === 'publish' && m['topic'] === '/move_base/goal'));
    stop();
    const out = await going;
    expect(out).toMatchObject({ ok: false, code: 'estop' });
    expect(out.summary).toMatch(
      /^base\.navigate\(place=dock\) was cancelled: e-stop state stale: last received 0\.[5-9] s ago, max 0\.5 s \(it said released\); the robot confirmed the cancel \(\/move_base\)$/,
    );
    const id = (
      server.received.find((m) => m['op'] === 'publish' && m['topic'] === '/move_base/goal')!['msg'] as { goal_id: { id: string } }
    ).goal_id.id;
    expect(server.received).toContainEqual(
      expect.objectContaining({ op: 'publish', topic: '/move_base/cancel', msg: expect.objectContaining({ id }) }),
    );
  }, 15_000);

  it('when the link drops: the result says so at once, and the cancel is the first thing sent on the new connection', async () => {
    server = await startRosbridgeServer();
    server.repeat('/emergency_stop', { data: false }, 100, { type: 'std_msgs/msg/Bool' });
    let cancelled = false;
    server.actions.set('/navigate_to_pose', async (g) => {
      const how = await runFor(20_000, g);
      cancelled = how === 'cancelled';
      return { status: cancelled ? GOAL.CANCELED : GOAL.SUCCEEDED, values: {} };
    });
    const r = await open(mappingFile({ battery: undefined, pose: undefined, detections: undefined }));
    const going = r.robot.base!.navigate('dock');
    await until(() => server!.received.some((m) => m['op'] === 'send_action_goal'));
    const goal = server.received.find((m) => m['op'] === 'send_action_goal')!;
    const before = server.received.length;
    server.dropAll();
    expect(await going).toMatchObject({
      ok: false,
      code: 'skill_failure',
      summary: expect.stringMatching(/dropped while .* its cancel is sent first when the link is back/),
    });
    await until(() => cancelled, 8000);
    expect(server.received[before]).toEqual({ op: 'cancel_action_goal', id: goal['id'], action: '/navigate_to_pose' });
  }, 15_000);
  it('when the link flaps (connections accepted and dropped at once), the cancel is said again on the connection that lasts', async () => {
    server = await startRosbridgeServer();
    server.repeat('/emergency_stop', { data: false }, 100, { type: 'std_msgs/msg/Bool' });
    let cancelled = false;
    server.actions.set('/navigate_to_pose', async (g) => {
      cancelled = (await runFor(20_000, g)) === 'cancelled';
      return { status: cancelled ? GOAL.CANCELED : GOAL.SUCCEEDED, values: {} };
    });
    const r = await open(mappingFile({ battery: undefined, pose: undefined, detections: undefined }));
    const going = r.robot.base!.navigate('dock');
    await until(() => server!.received.some((m) => m['op'] === 'send_action_goal'));
    server.refuse(true); // the stand-in accepts each connection, then drops it
    server.dropAll();
    await going;
    await settle(700);
    server.refuse(false);
    await until(() => cancelled, 8000);
  }, 15_000);
  it('when an e-stop message is not an object at all (false, null): unknown, not ignored', async () => {
    server = await startRosbridgeServer();
    let msg: unknown = { data: false };
    const t = setInterval(() => server?.publish('/emergency_stop', msg as Record<string, unknown>), 100);
    server.topics.set('/emergency_stop', 'std_msgs/msg/Bool');
    long(server);
    try {
      const r = await open(mappingFile({ battery: undefined, pose: undefined, detections: undefined }));
      const going = r.robot.base!.navigate('dock');
      await until(() => server!.received.some((m) => m['op'] === 'send_action_goal'));
      msg = false;
      const out = await going;
      expect(out).toMatchObject({ ok: false, code: 'estop' });
      expect(out.summary).toMatch(
        /was cancelled: e-stop state unknown: the last message on \/emergency_stop is unreadable: the message has no field `data`/,
      );
    } finally {
      clearInterval(t);
    }
  }, 15_000);
});
