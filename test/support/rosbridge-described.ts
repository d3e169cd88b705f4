// A real robot that describes itself: the rosbridge stand-in serving the UR5e-class
// fixture's URDF text as robot_description, as rosapi does (ROS 1: the parameter
// server; ROS 2: robot_state_publisher's node parameter), and the CLI run in-process.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { main } from '../../hosts/cli/main';
import { type RosbridgeTestServer, startRosbridgeServer } from './rosbridge-server';

export const ROBOTS = join(import.meta.dirname, '../fixtures/robots');
export const UR = join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf');
export const URDF = readFileSync(UR, 'utf8');
export const KEY = { 1: '/robot_description', 2: '/robot_state_publisher:robot_description' } as const;

export async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

export interface DescribedRobots {
  /** Starts the stand-in for this test, serving `value` as its description; its URL. */
  robot(ros: 1 | 2, value?: unknown): Promise<string>;
  /** The running stand-in (what it received, its services). */
  server: RosbridgeTestServer | undefined;
}

/** A stand-in per test, closed after it. */
export function describedRobots(): DescribedRobots {
  const d: DescribedRobots = {
    server: undefined,
    async robot(ros, value) {
      d.server = await startRosbridgeServer({ ros });
      if (value !== undefined) d.server.params.set(KEY[ros], value);
      return d.server.url;
    },
  };
  afterEach(async () => {
    await d.server?.close();
    d.server = undefined;
  });
  return d;
}
