// call/run --urdf rosbridge --robot ws://…: the real robot's own robot_description
// (the stand-in serving the UR5e-class fixture's URDF as rosapi does, ROS 1 and
// ROS 2) is the twin in --scene: the tools act on it, never on the scene's own
// robot. No description, a robot's options beside it, --urdf FILE beside --robot
// and --urdf rosbridge where a FILE is needed are each one line, exit 2.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describedRobots, ROBOTS, UR, URDF, run } from '../../test/support/rosbridge-described';

const described = describedRobots();
const robot = described.robot;

describe('--urdf rosbridge: the real robot described by itself, as its twin in a scene', () => {
  for (const ros of [1, 2] as const)
    it(`ROS ${ros}: call picks the lemon with the robot's own description; nothing is sent to move the robot`, async () => {
      const url = await robot(ros, URDF);
      const r = await run(
        'call',
        '--urdf',
        'rosbridge',
        '--robot',
        url,
        '--package-dir',
        join(ROBOTS, 'ur5e_like'),
        // A robot publishes no sidecar: its gripper, postures and payload come from the one the person names.
        '--robot-config',
        join(ROBOTS, 'ur5e_like/urdf/ur5e_like.skillbridge.json'),
        '--scene',
        'tabletop/fruits',
        'pick',
        '{"object_name":"lemon"}',
        '--json',
      );
      expect(r.err).toBe('');
      const out = JSON.parse(r.out) as {
        robot: { name: string; file: string; sidecar: string | null; joints: string[] };
        results: Array<{ ok: boolean }>;
        facts: string[];
      };
      expect(out.robot.name).toBe('ur5e_like');
      expect(out.robot.sidecar).toBe(join(ROBOTS, 'ur5e_like/urdf/ur5e_like.skillbridge.json'));
      expect(out.robot.file).toContain(`robot_description of ${url}`);
      expect(out.robot.joints).toHaveLength(6);
      expect(out.results[0]!.ok).toBe(true);
      expect(out.facts).toContain('holding(robot, lemon_1)');
      expect(r.code).toBe(0);
      // Only the description was asked for: no topic published, no goal sent to the robot.
      const ops = new Set(described.server!.received.map((m) => String((m as { op?: unknown }).op)));
      expect([...ops].filter((op) => op !== 'call_service')).toEqual([]);
    });

  it('run: the conversation acts on the twin, which says whose description it is', async () => {
    const url = await robot(1, URDF);
    const r = await run('run', '--urdf', 'rosbridge', '--robot', url, '--scene', 'tabletop/fruits', '--model', 'floor:noop', 'hello');
    expect(r.out).toContain(`robot: ur5e_like from robot_description of ${url}`);
    expect(r.code).toBe(0);
  });

  it.each([
    [[], /--urdf rosbridge --robot: .*robot_description/],
    [['--mapping', 'x.json'], /--mapping with --urdf rosbridge: the robot is only read/],
    [['--shadow'], /--shadow with --urdf rosbridge/],
  ])('refused in one line, exit 2: %j', async (extra, message) => {
    const url = await robot(1);
    const r = await run('call', '--urdf', 'rosbridge', '--robot', url, '--scene', 'tabletop/fruits', ...extra, 'get_objects');
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(message);
    expect(r.out).toBe('');
  });

  it('--urdf FILE beside --robot, --urdf rosbridge without --robot, and --urdf rosbridge on audit are each one line, exit 2', async () => {
    for (const [argv, message] of [
      [
        ['call', '--urdf', UR, '--robot', 'ws://127.0.0.1:1', '--scene', 'tabletop/fruits', 'get_objects'],
        /give --urdf FILE or --robot, not both/,
      ],
      [['call', '--urdf', 'rosbridge', '--scene', 'tabletop/fruits', 'get_objects'], /--urdf rosbridge needs --robot ws:\/\/HOST:PORT/],
      [['audit', '--urdf', 'rosbridge', '--calls', '1'], /--urdf rosbridge .* applies to call and run/],
    ] as const) {
      const r = await run(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(message);
    }
  });
});
