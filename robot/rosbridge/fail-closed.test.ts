// The rosbridge source fails closed: rosbridge's status errors, a mapping for
// the wrong ROS version, stale and unknown readings, unconfirmed cancels, and
// the messages a place onto an object sends.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GOAL, type RosbridgeTestServer, startRosbridgeServer } from '../../test/support/rosbridge-server';
import { openRobot } from '../sources';
import type { OpenedRosRobot } from './source';

const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/rosbridge/nav2-moveit.json');
const dir = mkdtempSync(path.join(tmpdir(), 'sb-failclosed-'));
let n = 0;
function mappingFile(patch: Record<string, unknown>): string {
  const file = path.join(dir, `m${++n}.json`);
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(EXAMPLE, 'utf8')), ...patch }));
  return file;
}
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: RosbridgeTestServer | undefined;
let opened: OpenedRosRobot | undefined;
afterEach(async () => {
  await opened?.close();
  await server?.close();
  opened = server = undefined;
});

async function open(mapping = EXAMPLE, firstMessagesMs = 2000): Promise<OpenedRosRobot> {
  opened = (await openRobot({ kind: 'rosbridge', url: server!.url, mapping, firstMessagesMs })) as OpenedRosRobot;
  return opened;
}

function released(s: RosbridgeTestServer, everyMs = 200): void {
  s.repeat('/emergency_stop', { data: false }, everyMs, { type: 'std_msgs/msg/Bool', latch: true });
  s.repeat('/battery_state', { percentage: 0.8, power_supply_status: 2 }, everyMs, { type: 'sensor_msgs/msg/BatteryState', latch: true });
}

describe('rosbridge errors are read', () => {
  it('without rosapi the mapping cannot be checked: a start-up error naming the way out', async () => {
    server = await startRosbridgeServer({ ros: 1, rosapi: false });
    await expect(open()).rejects.toThrow(
      /mapping\.rosapi: the robot's rosapi did not answer \(\/rosapi\/topics\), so the mapping cannot be checked against the robot; .*set "rosapi": false in the mapping to connect unchecked/,
    );
  });

  it('a subscription rosbridge rejects in a status message is a start-up error naming the mapping field', async () => {
    // A ROS 1 rosbridge without rosapi, opted out: the ROS 2 spelling cannot be corrected, and rosbridge says why.
    server = await startRosbridgeServer({ ros: 1, rosapi: false, statusMessages: true });
    await expect(open(mappingFile({ rosapi: false }))).rejects.toThrow(
      'mapping.estop.type: rosbridge rejected the subscription of /emergency_stop (type "std_msgs/msg/Bool"): subscribe: std_msgs/msg/Bool is not a valid type string',
    );
  });

  it('a mapping for the other ROS version is a start-up error; ROS 2 spellings are respelled for ROS 1', async () => {
    server = await startRosbridgeServer({ ros: 1 });
    server.topics.set('/rosout', 'rosgraph_msgs/Log');
    await expect(open()).rejects.toThrow(
      /mapping\.ros: 2, but the robot runs ROS 1 \(rosapi has no get_ros_version; topic types are spelled as on ROS 1\); set "ros": 1/,
    );
    server.repeat('/emergency_stop', { data: false }, 200, { type: 'std_msgs/Bool', latch: true });
    const ros1 = mappingFile({ ros: 1, skills: {}, battery: undefined, pose: undefined, detections: undefined });
    const r = await open(ros1);
    expect(server.received).toContainEqual(expect.objectContaining({ op: 'subscribe', topic: '/emergency_stop', type: 'std_msgs/Bool' }));
    expect((await r.robot.safety()).estop.state).toBe('released');
    expect(server.log.filter((l) => !l.msg.includes('/rosapi/get_ros_version'))).toEqual([]);
  });
});

describe('unknown is never fine', () => {
  it('an e-stop older than maxAgeS is stale: motion refused with its age, nothing sent', async () => {
    server = await startRosbridgeServer();
    const stop = server.repeat('/emergency_stop', { data: false }, 100, { type: 'std_msgs/msg/Bool', latch: true });
    const r = await open(mappingFile({ maxAgeS: 0.3, battery: undefined }));
    expect((await r.robot.safety()).estop).toMatchObject({ state: 'released', freshness: 'fresh' });
    stop();
    await settle(600);
    const s = await r.robot.safety();
    expect(s.estop).toMatchObject({ state: 'unknown', freshness: 'stale' });
    const out = await r.robot.base!.navigate('dock');
    expect(out).toMatchObject({ ok: false, code: 'estop' });
    expect(out.summary).toMatch(
      /^base\.navigate\(place=dock\) was not sent: e-stop state stale: last received [\d.]+ s ago, max 0\.3 s \(it said released\)$/,
    );
    expect(server.received.filter((m) => m['op'] === 'send_action_goal')).toEqual([]);
  });

  it('a robot that declares no e-stop reports not_reported (the gate asks the person); info says so', async () => {
    server = await startRosbridgeServer();
    const r = await open(mappingFile({ estop: { none: true, why: 'a research base without a stop button' }, battery: undefined }));
    expect(r.robot.info.estop).toBe('not_reported');
    expect((await r.robot.safety()).estop).toEqual({
      state: 'not_reported',
      freshness: 'unknown',
      detail: 'the mapping declares this robot reports no e-stop state (a research base without a stop button)',
    });
  });

  it('a pressed e-stop at connect refuses motion; only changes after the first known state are events', async () => {
    server = await startRosbridgeServer();
    const pressed = server.repeat('/emergency_stop', { data: true }, 200, { type: 'std_msgs/msg/Bool', latch: true });
    server.repeat('/battery_state', { percentage: 0.8, power_supply_status: 2 }, 200, {
      type: 'sensor_msgs/msg/BatteryState',
      latch: true,
    });
    const r = await open();
    expect(await r.robot.base!.navigate('dock')).toMatchObject({
      ok: false,
      code: 'estop',
      summary: expect.stringMatching(/emergency stop is pressed/),
    });
    pressed();
    server.repeat('/emergency_stop', { data: false }, 200);
    await settle(300);
    const types = (await r.robot.events.since(0)).map((e) => e.type);
    expect(types.filter((t) => t.startsWith('estop'))).toEqual(['estop_pressed', 'estop_released']);
  });

  it('while the link is down, snapshot and detections say they are stale and how old; a reconnect reads them again', async () => {
    server = await startRosbridgeServer();
    released(server);
    server.repeat('/amcl_pose', { pose: { pose: { position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } } } }, 200, {
      latch: true,
    });
    server.repeat(
      '/detections',
      {
        detections: [
          { id: 'cup_1', results: [{ hypothesis: { class_id: 'cup' } }], bbox: { center: { position: { x: 1, y: 0, z: 0.8 } } } },
        ],
      },
      200,
      {
        latch: true,
      },
    );
    const r = await open();
    expect(await r.robot.perception.snapshot()).toEqual(['visible(cup_1)']);
    server.refuse(true);
    server.dropAll();
    await settle(100);
    const facts = await r.robot.perception.snapshot();
    expect(facts[0]).toMatch(/^stale\(detections\): last received [\d.]+ s ago; the link to rosbridge is down \(reconnecting\)$/);
    await expect(r.robot.perception.detect()).rejects.toThrow(/detections are stale: last received [\d.]+ s ago/);
    expect((await r.robot.safety()).estop).toMatchObject({ state: 'unknown', freshness: 'stale' });
    server.refuse(false);
    for (let t = 0; t < 80 && (await r.robot.safety()).estop.state !== 'released'; t++) await settle(100);
    expect((await r.robot.safety()).estop).toMatchObject({ state: 'released', freshness: 'fresh' });
    for (let t = 0; t < 20 && (await r.robot.perception.snapshot().catch(() => []))[0] !== 'visible(cup_1)'; t++) await settle(100);
    expect(await r.robot.perception.snapshot()).toEqual(['visible(cup_1)']);
  }, 20_000);
});

describe('goals end, and say what is known after', () => {
  it('ROS 1: a goal for an action server that is not there is not sent, and says why (no hang)', async () => {
    server = await startRosbridgeServer({ ros: 1 });
    server.repeat('/emergency_stop', { data: false }, 200, { type: 'std_msgs/Bool', latch: true });
    const ros1 = mappingFile({
      ros: 1,
      battery: undefined,
      pose: undefined,
      detections: undefined,
      skills: { 'base.navigate': { action: '/move_base', type: 'move_base_msgs/MoveBaseAction', goal: { target_pose: '$pose' } } },
    });
    const r = await open(ros1);
    expect(r.notes).toContain(
      'mapping.skills.base.navigate.action: no action server /move_base on the robot now (no /move_base/goal topic)',
    );
    const out = await r.robot.base!.navigate('dock');
    expect(out).toMatchObject({
      ok: false,
      code: 'skill_failure',
      summary:
        'base.navigate(place=dock) was not sent: no action server answers on /move_base (no message on /move_base/status within 3 s)',
    });
    expect(server.received.filter((m) => m['op'] === 'publish' && m['topic'] === '/move_base/goal')).toEqual([]);
  }, 15_000);

  it('a cancel the robot never confirms ends the goal after the grace, with the state unknown', async () => {
    server = await startRosbridgeServer();
    released(server);
    server.actions.set('/pick', () => new Promise(() => undefined)); // ignores the cancel, never answers
    const r = await open();
    const ctl = new AbortController();
    const t0 = performance.now();
    const picking = r.robot.arm!.pick('cup_1', ctl.signal);
    setTimeout(() => ctl.abort(), 100);
    const out = await picking;
    expect((performance.now() - t0) / 1000).toBeLessThan(8);
    expect(out).toMatchObject({ ok: false, code: 'aborted' });
    expect(out.summary).toMatch(/was cancelled, but the robot did not confirm it stopped within 5 s; the robot's state is now unknown/);
    expect(server.received.some((m) => m['op'] === 'cancel_action_goal')).toBe(true);
    await expect(r.robot.perception.holding()).rejects.toThrow(/what the hand holds is unknown/);
    await expect(r.robot.perception.basePose()).rejects.toThrow(
      /position is unknown: it is unknown since a goal ended without confirmation/,
    );
  }, 15_000);

  it('place onto an object sends a full PoseStamped at the object with a unit quaternion; a point sends no label as target_id', async () => {
    server = await startRosbridgeServer();
    released(server);
    server.repeat(
      '/detections',
      {
        detections: [
          { id: 'tray_1', results: [{ hypothesis: { class_id: 'tray' } }], bbox: { center: { position: { x: 1.5, y: -0.5, z: 0.7 } } } },
        ],
      },
      200,
      {
        latch: true,
      },
    );
    const goals: Array<Record<string, unknown>> = [];
    server.actions.set('/place', async (g) => (goals.push(g.args), { status: GOAL.SUCCEEDED, values: { success: true } }));
    const r = await open();
    expect((await r.robot.arm!.place({ kind: 'object', id: 'tray_1', relation: 'on' })).ok).toBe(true);
    expect(goals[0]).toEqual({
      target_id: 'tray_1',
      pose: {
        header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'map' },
        pose: { position: { x: 1.5, y: -0.5, z: 0.7 }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
      },
    });
    expect((await r.robot.arm!.place({ kind: 'point', position: [1, 0.8, -2], label: '(x 1, y 2, z 0.8)' })).ok).toBe(true);
    expect(goals[1]!['target_id']).toBe('');
    expect(await r.robot.arm!.place({ kind: 'object', id: 'ghost_1' })).toMatchObject({ ok: false, code: 'not_perceived' });
    expect(goals).toHaveLength(2);
  });
});
