// The robot's own description over rosbridge, against the stand-in that answers
// rosapi's parameter services as rosapi does (ROS 1: the parameter server,
// `default`, null for a missing one; ROS 2: NODE:PARAM, `default_value`, "" for a
// missing one): the UR5e-class fixture's URDF text read back as it was set
// (scenes/urdf/load.test.ts loads such text; the CLI's test does both); every
// way of not having one is its own one-line error naming what was asked, never
// a robot.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { rosbridgeUrl } from '../../test/support/robot-files';
import { type RosbridgeTestServer, startRosbridgeServer } from '../../test/support/rosbridge-server';
import { RosConnection } from './connection';
import { RobotDescriptionError, fetchRobotDescription, readRobotDescription } from './robot-description';

const ROBOTS = join(import.meta.dirname, '../../test/fixtures/robots');
const UR = join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf');
const URDF = readFileSync(UR, 'utf8');
const KEY = { 1: '/robot_description', 2: '/robot_state_publisher:robot_description' } as const;

let server: RosbridgeTestServer | undefined;
let conn: RosConnection | undefined;
afterEach(async () => {
  conn?.close();
  conn = undefined;
  await server?.close();
  server = undefined;
});

async function robotWith(ros: 1 | 2, value?: unknown): Promise<{ server: RosbridgeTestServer; conn: RosConnection }> {
  server = await startRosbridgeServer({ ros });
  if (value !== undefined) server.params.set(KEY[ros], value);
  conn = new RosConnection(server.url);
  await conn.open(3000);
  return { server, conn };
}

const getParams = (s: RosbridgeTestServer) => s.received.filter((m) => m['op'] === 'call_service' && m['service'] === '/rosapi/get_param');

/** The error's message, which must be one line. */
async function failure(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(RobotDescriptionError);
  const message = (e as Error).message;
  expect(message).not.toContain('\n');
  return message;
}

describe("the robot's robot_description over rosbridge", () => {
  it('ROS 1: asks the parameter server for robot_description (name, default) and gets the text as it was set', async () => {
    const { server, conn } = await robotWith(1, URDF);
    const got = await readRobotDescription(conn);
    expect(got).toEqual({
      text: URDF,
      ros: 1,
      param: 'robot_description',
      origin: `robot_description of ${server.url} (the ROS 1 parameter server)`,
    });
    expect(getParams(server).map((m) => [m['type'], m['args']])).toEqual([['rosapi/GetParam', { name: 'robot_description', default: '' }]]);
  });

  it('ROS 2: asks robot_state_publisher for its robot_description (NODE:PARAM, default_value)', async () => {
    const { server, conn } = await robotWith(2, URDF);
    const got = await readRobotDescription(conn);
    expect(got).toMatchObject({ text: URDF, ros: 2, param: 'robot_state_publisher:robot_description' });
    expect(got.origin).toBe(`robot_description of ${server.url} (the ROS 2 node robot_state_publisher)`);
    expect(getParams(server).map((m) => [m['type'], m['args']])).toEqual([
      ['rosapi_msgs/srv/GetParam', { name: 'robot_state_publisher:robot_description', default_value: '' }],
    ]);
  });

  it('ROS 2: another node that holds it, when named', async () => {
    const { server, conn } = await robotWith(2);
    server.params.set('/ur/robot_state_publisher:robot_description', URDF);
    const got = await readRobotDescription(conn, { node: '/ur/robot_state_publisher' });
    expect(got.param).toBe('/ur/robot_state_publisher:robot_description');
    expect(got.text).toBe(URDF);
  });

  for (const ros of [1, 2] as const) {
    it(`ROS ${ros}: no parameter is an error naming what was asked`, async () => {
      const { server, conn } = await robotWith(ros);
      const m = await failure(readRobotDescription(conn));
      const asked = ros === 1 ? 'robot_description' : 'robot_state_publisher:robot_description';
      expect(m).toContain(`the robot at ${server.url} has no robot_description: /rosapi/get_param "${asked}" gave no value`);
      expect(m).toContain('skillbridge robots check FILE');
    });

    it(`ROS ${ros}: a value that is not text is an error saying what it is`, async () => {
      const { conn } = await robotWith(ros, 42);
      expect(await failure(readRobotDescription(conn))).toMatch(
        /^robot_description of ws:\S+ \(.*\) is not URDF text: \/rosapi\/get_param "[\w:]+" gave a number \(42\)$/,
      );
    });

    it(`ROS ${ros}: no answer in time is an error naming the call`, async () => {
      const { server, conn } = await robotWith(ros, URDF);
      server.services.set('/rosapi/get_param', () => new Promise(() => undefined));
      const m = await failure(readRobotDescription(conn, { timeoutMs: 300 }));
      expect(m).toMatch(
        new RegExp(
          `^the robot at ${server.url} did not answer /rosapi/get_param "[\\w:]+" within 0\\.3 s; is rosapi running beside rosbridge`,
        ),
      );
    });
  }

  it('ROS 1: an empty robot_description is an error (not a robot with no links)', async () => {
    const { conn } = await robotWith(1, '  \n');
    expect(await failure(readRobotDescription(conn))).toMatch(/is empty: \/rosapi\/get_param "robot_description" gave "  \\n"/);
  });

  it('a rosapi that cannot tell the ROS version is an error, not a guess', async () => {
    server = await startRosbridgeServer({ ros: 1, rosapi: false });
    conn = new RosConnection(server.url);
    await conn.open(3000);
    expect(await failure(readRobotDescription(conn, { timeoutMs: 500 }))).toMatch(/did not say which ROS it runs/);
  });

  it('fetchRobotDescription connects only to a URL the host policy allowed (a string does not type-check)', () => {
    const refused = () => {
      // @ts-expect-error the rosbridge URL is a RosbridgeUrl, made by the host policy
      void fetchRobotDescription('ws://127.0.0.1:9090');
    };
    expect(typeof refused).toBe('function');
  });

  it('fetchRobotDescription connects, reads and closes; nothing listening is an error', async () => {
    server = await startRosbridgeServer({ ros: 2 });
    server.params.set(KEY[2], URDF);
    expect((await fetchRobotDescription(rosbridgeUrl(server.url))).text).toBe(URDF);
    const url = server.url;
    await server.close();
    server = undefined;
    expect(await failure(fetchRobotDescription(rosbridgeUrl(url), { connectTimeoutMs: 2000 }))).toMatch(/refused the connection/);
  });

  it('whatever JSON value the parameter holds: its text when it is non-empty text, else a one-line error — never anything else', async () => {
    for (const ros of [1, 2] as const) {
      const { server, conn } = await robotWith(ros);
      await fc.assert(
        fc.asyncProperty(fc.jsonValue(), async (v) => {
          server.params.set(KEY[ros], v);
          const out = await readRobotDescription(conn, { ros }).then(
            (d) => ({ text: d.text }),
            (e: unknown) => ({ error: e }),
          );
          if (typeof v === 'string' && v.trim()) expect(out).toEqual({ text: v });
          else {
            expect('error' in out && out.error instanceof RobotDescriptionError).toBe(true);
            const m = (out as { error: Error }).error.message;
            expect(m).not.toContain('\n');
            expect(m).toContain('/rosapi/get_param');
          }
        }),
        { numRuns: fuzzRuns(60), seed: fuzzSeed(39) },
      );
      conn.close();
      await server.close();
    }
    server = undefined;
    conn = undefined;
  });
});
