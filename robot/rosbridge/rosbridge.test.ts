// The rosbridge source against a test server that follows rosbridge v2, with
// the example Nav2 + MoveIt mapping; the connection dropped mid-action.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GOAL, type RosbridgeTestServer, runFor, startRosbridgeServer } from '../../test/support/rosbridge-server';
import type { RobotEvent } from '../robot';
import { openRobot } from '../sources';
import type { OpenedRosRobot } from './source';
import { fromRos, toRos } from './frames';

const MAPPING = path.resolve(import.meta.dirname, '../../examples/rosbridge/nav2-moveit.json');

async function until(cond: () => boolean, ms = 3000): Promise<void> {
  for (let t = 0; t < ms && !cond(); t += 20) await new Promise((r) => setTimeout(r, 20));
  expect(cond()).toBe(true);
}

/** A robot that reports its e-stop released and its battery, as a real one does, periodically. */
export function healthy(server: RosbridgeTestServer, ros: 1 | 2 = 2): void {
  const msg = ros === 1 ? 'std_msgs/Bool' : 'std_msgs/msg/Bool';
  server.repeat('/emergency_stop', { data: false }, 200, { type: msg, latch: true });
  server.repeat('/battery_state', { percentage: 0.8, power_supply_status: 2 }, 200, {
    type: ros === 1 ? 'sensor_msgs/BatteryState' : 'sensor_msgs/msg/BatteryState',
    latch: true,
  });
  server.repeat('/amcl_pose', { pose: { pose: { position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } } } }, 200, {
    type: ros === 1 ? 'geometry_msgs/PoseWithCovarianceStamped' : 'geometry_msgs/msg/PoseWithCovarianceStamped',
    latch: true,
  });
  server.repeat('/detections', { detections: [] }, 200, { type: 'vision_msgs/msg/Detection3DArray', latch: true });
}

describe('the rosbridge robot source (ROS 2, Nav2 + MoveIt mapping)', () => {
  let server: RosbridgeTestServer;
  let opened: OpenedRosRobot;
  beforeEach(async () => {
    server = await startRosbridgeServer();
    healthy(server);
    opened = (await openRobot({ kind: 'rosbridge', url: server.url, mapping: MAPPING })) as OpenedRosRobot;
  });
  afterEach(async () => {
    await opened?.close();
    await server?.close();
  });

  it('converts REP 103 (Z up) to Skillbridge’s Y-up frame once, both ways', () => {
    expect(fromRos({ x: 2, y: 1, z: 0.5 })).toEqual([2, 0.5, -1]);
    expect(toRos(fromRos({ x: 2, y: 1, z: 0.5 }))).toEqual({ x: 2, y: 1, z: 0.5 });
    const table = opened.robot.info.places.find((p) => p.id === 'kitchen_table')!;
    expect(table.position).toEqual([2, 0, -1]);
    expect(opened.robot.info.capabilities).toEqual(expect.arrayContaining(['arm', 'base', 'speech', 'battery']));
    expect(opened.robot.info.workspace).toEqual({ min: [-10, 0, -10], max: [10, 2, 10] });
  });

  it('navigates with NavigateToPose: the goal in the map frame, feedback as progress, the result as an Outcome', async () => {
    let goal: Record<string, unknown> | undefined;
    server.actions.set('/navigate_to_pose', async (g) => {
      goal = g.args;
      g.feedback({ distance_remaining: 1.5, number_of_recoveries: 0 });
      await runFor(60, g);
      return { status: GOAL.SUCCEEDED, values: { error_code: 0, error_msg: '' } };
    });
    const progress: RobotEvent[] = [];
    opened.robot.events.subscribe((e) => e.type === 'skill_progress' && progress.push(e));
    const out = await opened.robot.base!.navigate('kitchen_table');
    expect(out).toEqual({ ok: true, summary: 'arrived' });
    const sent = server.received.find((m) => m['op'] === 'send_action_goal')!;
    expect(sent).toMatchObject({ action: '/navigate_to_pose', action_type: 'nav2_msgs/action/NavigateToPose', feedback: true });
    expect(goal).toMatchObject({ behavior_tree: '', pose: { header: { frame_id: 'map' }, pose: { position: { x: 2, y: 1, z: 0 } } } });
    const q = (goal as { pose: { pose: { orientation: { z: number; w: number } } } }).pose.pose.orientation;
    expect(q.z).toBeCloseTo(Math.SQRT1_2, 5); // yaw 90°
    expect(progress[0]).toMatchObject({ text: 'distance remaining 1.5 m, 0 recoveries', data: { skill: 'base.navigate' } });
  });

  it('gives the robot’s reason when the action fails, and refuses a place the mapping does not know', async () => {
    server.actions.set('/navigate_to_pose', async () => ({
      status: GOAL.ABORTED,
      values: { error_code: 104, error_msg: 'no valid path found' },
    }));
    const out = await opened.robot.base!.navigate('kitchen_table');
    expect(out).toMatchObject({ ok: false, code: 'skill_failure' });
    expect(out.summary).toMatch(/base\.navigate\(place=kitchen_table\) aborted by the robot \(\/navigate_to_pose\): no valid path found/);
    const nowhere = await opened.robot.base!.navigate('mars');
    expect(nowhere).toMatchObject({
      ok: false,
      code: 'invalid_argument',
      summary: expect.stringMatching(/no place "mars".*kitchen_table, dock/),
    });
  });

  it('cancels the goal when the call’s AbortSignal fires', async () => {
    server.actions.set('/pick', async (g) => {
      const r = await runFor(5000, g, (f) => g.feedback({ stage: 'approach', progress: f }));
      return r === 'cancelled' ? { status: GOAL.CANCELED, values: {} } : { status: GOAL.SUCCEEDED, values: { success: true } };
    });
    const ctl = new AbortController();
    const picking = opened.robot.arm!.pick('cup_1', ctl.signal);
    setTimeout(() => ctl.abort(), 150);
    const out = await picking;
    expect(out).toMatchObject({ ok: false, code: 'aborted' });
    expect(server.received.some((m) => m['op'] === 'cancel_action_goal')).toBe(true);
    expect(await opened.robot.perception.holding()).toBeUndefined();
  });

  it('picks and places through the manipulation actions; services and topics for the rest', async () => {
    server.actions.set('/pick', async (g) => ({
      status: GOAL.SUCCEEDED,
      values: { success: g.args['object_id'] === 'cup_1', message: 'gripped' },
    }));
    let placeGoal: Record<string, unknown> | undefined;
    server.actions.set('/place', async (g) => ((placeGoal = g.args), { status: GOAL.SUCCEEDED, values: { success: true } }));
    server.services.set('/set_named_posture', (a) => ({ success: a['name'] === 'home', message: `unknown posture ${String(a['name'])}` }));
    const said: string[] = [];
    server.onPublish.set('/say', (m) => said.push(String(m['data'])));
    expect((await opened.robot.arm!.pick('cup_1')).ok).toBe(true);
    expect(await opened.robot.perception.holding()).toBe('cup_1');
    expect((await opened.robot.arm!.place({ kind: 'point', position: [1, 0.8, -2] })).ok).toBe(true);
    expect(placeGoal).toMatchObject({ pose: { pose: { position: { x: 1, y: 2, z: 0.8 } } } });
    expect((await opened.robot.arm!.moveToPosture('home')).ok).toBe(true);
    expect(await opened.robot.arm!.moveToPosture('dance')).toMatchObject({
      ok: false,
      summary: expect.stringMatching(/unknown posture dance/),
    });
    expect((await opened.robot.speech!.say('hello')).ok).toBe(true);
    await until(() => said.length === 1);
    expect(said).toEqual(['hello']);
    expect(await opened.robot.arm!.slice('bread_1')).toMatchObject({
      ok: false,
      code: 'unsupported',
      summary: /add skills\["arm.slice"\]/,
    });
  });

  it('reads the battery, the e-stop and detections from topics', async () => {
    await until(() => server.subscribers('/battery_state') === 1 && server.subscribers('/detections') === 1);
    server.publish('/battery_state', { percentage: 0.42, power_supply_status: 2 });
    server.publish('/amcl_pose', {
      pose: { pose: { position: { x: 1, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 } } },
    });
    server.publish('/detections', {
      detections: [
        { id: 'cup_1', results: [{ hypothesis: { class_id: 'cup' } }], bbox: { center: { position: { x: 2, y: 1, z: 0.75 } } } },
      ],
    });
    const events: string[] = [];
    opened.robot.events.subscribe((e) => events.push(e.type));
    server.publish('/emergency_stop', { data: true });
    await until(() => events.includes('estop_pressed'));
    expect(await opened.robot.battery()).toMatchObject({ percent: 42, level: 'okay', charging: false });
    const seen = await opened.robot.perception.detect();
    expect(seen).toEqual([{ id: 'cup_1', name: 'cup', category: 'object', distanceM: 1.601, position: [2, 0.75, -1] }]);
    expect(await opened.robot.perception.resolve('cup')).toEqual({ ok: true, id: 'cup_1', kind: 'object' });
    // Localisation: the map pose (1, 0) facing +y (yaw 90°) is [1, 0, 0] in the Y-up frame, same yaw.
    expect(await opened.robot.perception.basePose()).toEqual({ position: [1, 0, 0], yawDeg: 90 });
  });

  it('fails a goal at once when the connection drops mid-action, fails every call while disconnected, and reconnects with backoff', async () => {
    server.actions.set('/navigate_to_pose', async (g) => {
      await runFor(5000, g);
      return { status: GOAL.SUCCEEDED, values: { error_code: 0 } };
    });
    const going = opened.robot.base!.navigate('dock');
    await until(() => server.received.some((m) => m['op'] === 'send_action_goal'));
    server.refuse(true);
    server.dropAll();
    const out = await going;
    expect(out).toMatchObject({ ok: false, code: 'skill_failure' });
    expect(out.summary).toMatch(
      /connection to rosbridge dropped while base\.navigate\(place=dock\) was running; its cancel is sent first when the link is back, but the robot may have stopped part-way or still be moving/,
    );
    const t0 = performance.now();
    const offline = await opened.robot.arm!.pick('cup_1');
    expect(performance.now() - t0).toBeLessThan(500);
    // Motion is refused first by the robot's own e-stop check: the last e-stop reading is from before the drop.
    expect(offline).toMatchObject({
      ok: false,
      code: 'estop',
      summary: expect.stringMatching(
        /^arm\.pick\(object=cup_1\) was not sent: e-stop state stale: last received [\d.]+ s ago; the link to rosbridge is down \(reconnecting\)/,
      ),
    });
    const silent = await opened.robot.speech!.say('hello');
    expect(silent).toMatchObject({
      ok: false,
      code: 'skill_failure',
      summary: expect.stringMatching(/not connected to rosbridge at ws:\/\/127\.0\.0\.1:\d+ .*was not sent\. Reconnecting/),
    });
    expect((await opened.robot.safety()).link).toBe('reconnecting');
    await expect(opened.robot.battery()).rejects.toThrow(
      /battery reading stale: last received [\d.]+ s ago; the link to rosbridge is down \(reconnecting\) \(it said 80%\)/,
    );
    server.refuse(false);
    const events: string[] = [];
    opened.robot.events.subscribe((e) => events.push(e.type));
    await until(() => events.includes('connected'), 8000);
    server.actions.set('/navigate_to_pose', async () => ({ status: GOAL.SUCCEEDED, values: { error_code: 0 } }));
    expect((await opened.robot.base!.navigate('dock')).ok).toBe(true);
  }, 20_000);
});

describe('rosbridge mappings', () => {
  it('names the wrong field of a mapping file, and a ROS 1 robot uses actionlib topics', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-map-'));
    const bad = path.join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        format: 'skillbridge-rosbridge/1',
        ros: 2,
        robot: { id: 'r', name: 'R', kind: 'rover' },
        estop: { none: true },
        skills: { 'base.teleport': { topic: '/x', type: 'std_msgs/msg/Empty' } },
      }),
    );
    await expect(openRobot({ kind: 'rosbridge', url: 'ws://127.0.0.1:9', mapping: bad })).rejects.toThrow(
      /mapping .*bad\.json: skills\.base\.teleport: is not a skill/,
    );
    const typo = path.join(dir, 'typo.json');
    writeFileSync(
      typo,
      JSON.stringify({ format: 'skillbridge-rosbridge/1', ros: 3, robot: { id: 'r', name: 'R', kind: 'rover' }, skills: {} }),
    );
    await expect(openRobot({ kind: 'rosbridge', url: 'ws://127.0.0.1:9', mapping: typo })).rejects.toThrow(/typo\.json: ros: /);
    await expect(openRobot({ kind: 'rosbridge', url: 'ws://127.0.0.1:9', mapping: path.join(dir, 'none.json') })).rejects.toThrow(
      /none\.json: no such file/,
    );

    await expect(openRobot({ kind: 'rosbridge', url: 'ws://127.0.0.1:9', mapping: MAPPING })).rejects.toThrow(
      /rosbridge at ws:\/\/127\.0\.0\.1:9 refused the connection.*is rosbridge_server running\?/,
    );
    const noEstop = path.join(dir, 'no-estop.json');
    writeFileSync(
      noEstop,
      JSON.stringify({ format: 'skillbridge-rosbridge/1', ros: 2, robot: { id: 'r', name: 'R', kind: 'rover' }, skills: {} }),
    );
    await expect(openRobot({ kind: 'rosbridge', url: 'ws://127.0.0.1:9', mapping: noEstop })).rejects.toThrow(
      /no-estop\.json: estop: required: map the e-stop topic .* or declare \{"none": true\}/,
    );
  });
});
