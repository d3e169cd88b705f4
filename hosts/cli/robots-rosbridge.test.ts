// skillbridge robots check rosbridge --robot ws://…: the real robot's own
// robot_description (the stand-in serving the UR5e-class fixture's URDF text as
// rosapi does, ROS 1 and ROS 2) reported as the file is; meshes only from
// --package-dir; no description, a bad one, no robot and a URL that is not a
// rosbridge one are each one line, exit 2.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describedRobots, ROBOTS, UR, URDF, run } from '../../test/support/rosbridge-described';

const described = describedRobots();
const robot = described.robot;

interface JsonReport {
  file: string;
  robot: { url: string; ros: number; param: string };
  name: string;
  joints: unknown[];
  arm: { movingJoints: number; reachM: number };
  meshes: unknown[];
  sidecar: null;
  problems: Array<{ element: string; problem: string; severity: string }>;
  errors: number;
}

describe('skillbridge robots check rosbridge', () => {
  for (const ros of [1, 2] as const)
    it(`ROS ${ros}: the robot's URDF reported as the file is, its meshes from --package-dir; exit 0`, async () => {
      const url = await robot(ros, URDF);
      const r = await run('robots', 'check', 'rosbridge', '--robot', url, '--package-dir', join(ROBOTS, 'ur5e_like'), '--json');
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const rep = JSON.parse(r.out) as JsonReport;
      const file = JSON.parse((await run('robots', 'check', UR, '--json')).out) as JsonReport;
      expect(rep.robot).toEqual({ url, ros, param: ros === 1 ? 'robot_description' : 'robot_state_publisher:robot_description' });
      expect(rep.file).toBe(
        `robot_description of ${url} (${ros === 1 ? 'the ROS 1 parameter server' : 'the ROS 2 node robot_state_publisher'})`,
      );
      expect(rep).toMatchObject({ name: 'ur5e_like', sidecar: null, errors: 0, problems: [] });
      expect(rep.joints).toEqual(file.joints);
      expect(rep.meshes).toEqual(file.meshes);
      expect(rep.arm.movingJoints).toBe(file.arm.movingJoints);
    });

  it('without --package-dir: each mesh a warning on its link, "not available from the robot; give --package-dir"', async () => {
    const url = await robot(1, URDF);
    const r = await run('robots', 'check', 'rosbridge', '--robot', url);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`ur5e_like  robot_description of ${url} (the ROS 1 parameter server)`);
    expect(r.out).toContain('Sidecar: none (a description from the robot has none)');
    expect(r.out).toContain(
      'warning  link "base_link": mesh "package://ur5e_like/meshes/base.stl" not available from the robot. Fix: give --package-dir DIR (the folder of the ROS package "ur5e_like", or one holding it)',
    );
    expect(r.out).not.toContain('Meshes:');
  });

  it.each([
    [
      'no parameter',
      1,
      undefined,
      /^skillbridge: --robot: the robot at ws:\S+ has no robot_description: \/rosapi\/get_param "robot_description" gave no value/,
    ],
    [
      'no parameter (ROS 2)',
      2,
      undefined,
      /^skillbridge: --robot: the robot at ws:\S+ has no robot_description: \/rosapi\/get_param "robot_state_publisher:robot_description" gave no value/,
    ],
    [
      'a number',
      1,
      7,
      /^skillbridge: --robot: robot_description of ws:\S+ \(the ROS 1 parameter server\) is not URDF text: .* gave a number \(7\)$/,
    ],
    ['an empty string', 1, '', /is empty: \/rosapi\/get_param "robot_description" gave ""/],
    [
      'text that is no URDF',
      2,
      '<launch/>',
      /^skillbridge: --robot: robot_description of ws:\S+ \(.*\) is not a URDF: its root element is <launch>/,
    ],
  ] as const)('%s: one line, exit 2 (and a JSON error under --json)', async (_what, ros, value, why) => {
    const url = await robot(ros, value);
    const r = await run('robots', 'check', 'rosbridge', '--robot', url);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err.trim()).toMatch(why);
    const j = await run('robots', 'check', 'rosbridge', '--robot', url, '--json');
    expect(j.code).toBe(2);
    expect((JSON.parse(j.out) as { error: { code: string } }).error.code).toBe('usage');
  });

  it('no answer from rosapi: one line naming the call and the wait', async () => {
    const url = await robot(1, URDF);
    described.server!.services.set('/rosapi/get_param', () => new Promise(() => undefined));
    const r = await run('robots', 'check', 'rosbridge', '--robot', url);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe(
      `skillbridge: --robot: the robot at ${url} did not answer /rosapi/get_param "robot_description" within 5 s; is rosapi running beside rosbridge (rosbridge_websocket_launch starts both)?`,
    );
  }, 15_000);

  it.each([
    [['robots', 'check', 'rosbridge'], /robots check rosbridge needs --robot ws:\/\/HOST:PORT/],
    [
      ['robots', 'check', 'rosbridge', '--robot', 'http://127.0.0.1:9'],
      /--robot: "http:\/\/127\.0\.0\.1:9" is not a rosbridge URL: give ws:\/\/HOST:PORT/,
    ],
    [['robots', 'check', 'rosbridge', '--robot', 'ws://u:p@127.0.0.1:9'], /carries a user name or password/],
    [['robots', 'check', 'rosbridge', '--robot', 'nonsense'], /--robot: "nonsense" is not a URL/],
    [['robots', 'check', 'rosbridge', '--robot', 'ws://127.0.0.1:1'], /--robot: rosbridge at ws:\/\/127\.0\.0\.1:1 refused the connection/],
    [
      ['robots', 'check', 'rosbridge', 'extra', '--robot', 'ws://127.0.0.1:1'],
      /robots check rosbridge takes no more arguments, not "extra"/,
    ],
    [['robots', 'check', UR, '--robot', 'ws://127.0.0.1:1'], /robots check rosbridge --robot ws:\/\/HOST:PORT/],
    [
      ['robots', 'check', 'rosbridge', '--robot', 'ws://127.0.0.1:1', '--package-dir', join(ROBOTS, 'nope')],
      /--package-dir .*: no such folder/,
    ],
  ])('bad input %j is one line, exit 2', async (argv, why) => {
    const r = await run(...argv);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(why);
  });
});
