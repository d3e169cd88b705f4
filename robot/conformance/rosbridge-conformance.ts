// One set of conformance tests for the rosbridge source, run against any
// rosbridge server: the stand-in in CI, a real rosbridge_server where one runs
// (SKILLBRIDGE_REAL_ROSBRIDGE). The robot is a RobotDouble speaking rosbridge
// itself, so the tests need nothing on the robot side but rosbridge (and, for
// ROS 1 actions, the message packages of move_base_msgs and actionlib_msgs).
// Each test uses its own topic namespace (a real ROS graph outlives a test) and
// closes what it opened itself, so the tests may run at once: they mostly wait.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readUserTextSync } from '../../base/user-file';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it, type TestContext } from 'vitest';
import { RosConnection } from '../rosbridge/connection';
import { readRobotDescription } from '../rosbridge/robot-description';
import { type OpenedRosRobot, RosbridgeForm, rosbridgeSource } from '../rosbridge/source';
import { RobotDouble } from './robot-double';

export interface ConformanceTarget {
  /** The rosbridge server, ws://… */
  url: string;
  ros: 1 | 2;
}

type Msg = Record<string, unknown>;

let seq = 0;
const dir = mkdtempSync(path.join(tmpdir(), 'sb-conformance-'));

/** A mapping for namespace `ns`; `spelling` writes its types as ROS 1 or ROS 2 would. */
function mapping(ns: string, ros: 1 | 2, o: { spelling?: 1 | 2; estopType?: string; timeoutS?: number; noServer?: boolean } = {}): string {
  const sp = o.spelling ?? ros;
  const t = (pkg: string, name: string) => (sp === 1 ? `${pkg}/${name}` : `${pkg}/msg/${name}`);
  const navigate =
    ros === 1
      ? {
          action: `${ns}/move_base`,
          type: sp === 1 ? 'move_base_msgs/MoveBaseAction' : 'move_base_msgs/action/MoveBase',
          goal: { target_pose: '$pose' },
          timeoutS: o.timeoutS ?? 20,
        }
      : o.noServer
        ? { action: `${ns}/navigate_to_pose`, type: 'nav2_msgs/action/NavigateToPose', goal: { pose: '$pose' }, timeoutS: o.timeoutS ?? 20 }
        : { topic: `${ns}/goal_pose`, type: t('geometry_msgs', 'PoseStamped'), msg: '$pose' };
  const file = path.join(dir, `${ns.slice(1)}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      format: 'skillbridge-rosbridge/1',
      ros,
      robot: { id: 'double', name: 'Conformance double', kind: 'rover' },
      places: [{ id: 'gate', x: 3, y: 1, yawDeg: 90 }],
      estop: { topic: `${ns}/emergency_stop`, type: o.estopType ?? t('std_msgs', 'Bool'), path: 'data' },
      // visualization_msgs/MarkerArray stands for a detection topic: each marker's ns is the object's id.
      detections: {
        topic: `${ns}/detections`,
        type: t('visualization_msgs', 'MarkerArray'),
        items: 'markers',
        id: 'ns',
        position: 'pose.position',
      },
      skills: { 'base.navigate': navigate },
    }),
  );
  return file;
}

/** Registers the conformance tests for `target()` in the current describe block. */
export function rosbridgeConformance(target: () => ConformanceTarget): void {
  /** The test's robot double and mapping; what it opens is closed when the test ends (`ctx`, the test's context). */
  const setup = async (ctx: TestContext, o: Parameters<typeof mapping>[2] & { goals?: 'succeed' | 'never' } = {}) => {
    const open: Array<{ close(): unknown }> = [];
    ctx.onTestFinished(async () => {
      for (const x of open.splice(0)) await x.close();
    });
    const t = target();
    const ns = `/cf${process.pid}_${++seq}`;
    const double = await RobotDouble.connect(t.url, t.ros);
    open.push(double);
    if (t.ros === 1) double.actionlib(`${ns}/move_base`, 'move_base_msgs/MoveBaseAction', o.goals ?? 'succeed');
    else double.subscribe(`${ns}/goal_pose`, 'geometry_msgs/PoseStamped');
    const file = mapping(ns, t.ros, o);
    const connect = async () => {
      const r = (await rosbridgeSource.open(
        RosbridgeForm.parse({ kind: 'rosbridge', url: t.url, mapping: file, firstMessagesMs: 1500 }),
      )) as OpenedRosRobot;
      open.push(r);
      return r;
    };
    const sent = () => (t.ros === 1 ? double.goals.length : double.heard.filter((h) => h.topic === `${ns}/goal_pose`).length);
    return { t, ns, double, connect, sent };
  };
  const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('a robot that never publishes its e-stop gets no motion: refused with the reason, nothing sent', async (ctx) => {
    const { expect } = ctx;
    const { ns, connect, sent } = await setup(ctx);
    await settle(400);
    const { robot } = await connect();
    expect((await robot.safety()).estop).toMatchObject({ state: 'unknown', freshness: 'unknown' });
    const out = await robot.base!.navigate('gate');
    expect(out).toMatchObject({ ok: false, code: 'estop' });
    expect(out.summary).toBe(
      `base.navigate(place=gate) was not sent: e-stop state unknown: no message received yet on ${ns}/emergency_stop`,
    );
    await settle(500);
    expect(sent()).toBe(0);
  }, 30_000);

  it('a goal with timeoutS 5 and no result ends in under 30 s, failed, the robot’s state unknown', async (ctx) => {
    const { expect } = ctx;
    const { ns, double, connect } = await setup(ctx, { goals: 'never', timeoutS: 5, noServer: true });
    double.repeat(`${ns}/emergency_stop`, 'std_msgs/Bool', { data: false }, 200);
    await settle(400);
    const { robot } = await connect();
    const t0 = performance.now();
    const out = await robot.base!.navigate('gate');
    const took = (performance.now() - t0) / 1000;
    expect(took).toBeLessThan(30);
    expect(out).toMatchObject({ ok: false, code: 'timeout' });
    expect(out.summary).toMatch(/took longer than 5 s and was cancelled.*the robot's state is now unknown/);
    await expect(robot.perception.holding()).rejects.toThrow(/what the hand holds is unknown/);
  }, 40_000);

  it('a latched message replayed on subscribing is not current: detections published once before connecting count once a live one comes', async (ctx) => {
    const { expect } = ctx;
    const { ns, double, connect } = await setup(ctx);
    double.repeat(`${ns}/emergency_stop`, 'std_msgs/Bool', { data: false }, 200);
    double.advertise(`${ns}/detections`, 'visualization_msgs/MarkerArray', true);
    await settle(300);
    const markers: Msg[] = ['cup_1', 'lemon_1', 'bowl_1'].map((id, i) => ({
      ns: id,
      id: i,
      pose: { position: { x: 1 + i, y: 0, z: 0.8 }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
    }));
    double.publish(`${ns}/detections`, { markers });
    await settle(300);
    const { robot } = await connect();
    await expect(robot.perception.detect()).rejects.toThrow(
      `what the robot sees is unknown: the only messages on ${ns}/detections came on subscribing and may be a latched replay of an old one (unstamped); no live message since`,
    );
    double.publish(`${ns}/detections`, { markers });
    await settle(300);
    const seen = await robot.perception.detect();
    expect(seen.map((d) => d.id)).toEqual(['cup_1', 'lemon_1', 'bowl_1']);
    expect(seen[0]!.position).toEqual([1, 0.8, 0]);
  }, 30_000);

  it('before the first detection message, "what the robot sees" is not received yet — never none', async (ctx) => {
    const { expect } = ctx;
    const { ns, double, connect } = await setup(ctx);
    double.repeat(`${ns}/emergency_stop`, 'std_msgs/Bool', { data: false }, 200);
    await settle(400);
    const { robot } = await connect();
    await expect(robot.perception.detect()).rejects.toThrow(`what the robot sees is unknown: no message received yet on ${ns}/detections`);
    await expect(robot.perception.snapshot()).rejects.toThrow(/no message received yet/);
  }, 30_000);

  it('a mapping whose type differs from the robot’s is a start-up error naming the field', async (ctx) => {
    const { expect } = ctx;
    const { t, ns, double } = await setup(ctx, { estopType: 'std_msgs/Int32' });
    double.repeat(`${ns}/emergency_stop`, 'std_msgs/Bool', { data: false }, 200);
    await settle(400);
    const file = mapping(ns, t.ros, { estopType: 'std_msgs/Int32' });
    await expect(rosbridgeSource.open(RosbridgeForm.parse({ kind: 'rosbridge', url: t.url, mapping: file }))).rejects.toThrow(
      new RegExp(`mapping\\.estop\\.type: "std_msgs/(msg/)?Int32", but ${ns}/emergency_stop carries "std_msgs/(msg/)?Bool" on the robot`),
    );
  }, 30_000);

  for (const spelling of [1, 2] as const)
    it(`a mapping spelled as on ROS ${spelling} works: the e-stop read, no event at connect, motion sent, a fast result not lost`, async (ctx) => {
      const { expect } = ctx;
      const { ns, double, connect, sent } = await setup(ctx, { spelling });
      double.repeat(`${ns}/emergency_stop`, 'std_msgs/Bool', { data: false }, 200);
      await settle(400);
      const { robot } = await connect();
      expect((await robot.safety()).estop).toMatchObject({ state: 'released', freshness: 'fresh' });
      expect((await robot.events.since(0)).map((e) => e.type)).not.toContain('estop_released');
      const out = await robot.base!.navigate('gate');
      expect(out).toMatchObject({ ok: true });
      await settle(300);
      expect(sent()).toBe(1);
    }, 30_000);

  it('ROS 1: robot_description set on the parameter server through rosapi is read back as it was set; one never set is an error naming it', async (ctx) => {
    const { expect } = ctx;
    const t = target();
    // ROS 2 has no parameter server: its description is a node's parameter, and setting one needs that node running.
    if (t.ros !== 1) return ctx.skip();
    const ns = `/cf${process.pid}_${++seq}`;
    const urdf = readUserTextSync(path.resolve(import.meta.dirname, '../../test/fixtures/robots/ur5e_like/urdf/ur5e_like.urdf'));
    const conn = new RosConnection(t.url);
    ctx.onTestFinished(() => conn.close());
    await conn.open(5000);
    await conn.callService('/rosapi/set_param', 'rosapi/SetParam', { name: `${ns}/robot_description`, value: JSON.stringify(urdf) }, 5000);
    const got = await readRobotDescription(conn, { param: `${ns}/robot_description` });
    expect(got).toMatchObject({ ros: 1, param: `${ns.slice(1)}/robot_description` });
    expect(got.text).toBe(urdf);
    await expect(readRobotDescription(conn, { param: `${ns}/never_set` })).rejects.toThrow(
      `the robot at ${t.url} has no ${ns.slice(1)}/never_set: /rosapi/get_param "${ns.slice(1)}/never_set" gave no value`,
    );
  }, 30_000);
}
