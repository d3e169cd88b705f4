// The rosbridge conformance suite against the stand-in (ROS 1 and ROS 2), and
// against a real rosbridge_server when SKILLBRIDGE_REAL_ROSBRIDGE names one
// (ws://127.0.0.1:PORT; SKILLBRIDGE_REAL_ROS=2 for a ROS 2 one, default 1).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type RosbridgeTestServer, startRosbridgeServer } from '../../test/support/rosbridge-server';
import { type ConformanceTarget, rosbridgeConformance } from './rosbridge-conformance';

// The tests mostly wait (for messages, for a 5 s goal timeout): they run at once.
for (const ros of [1, 2] as const)
  describe.concurrent(`rosbridge conformance: the stand-in, ROS ${ros}`, () => {
    let server: RosbridgeTestServer;
    beforeAll(async () => {
      server = await startRosbridgeServer({ ros });
    });
    afterAll(async () => server.close());
    rosbridgeConformance(() => ({ url: server.url, ros }));
  });

const real = process.env['SKILLBRIDGE_REAL_ROSBRIDGE'];
describe.concurrent('rosbridge conformance: a real rosbridge_server', () => {
  if (!real) {
    it.skip('skipped: set SKILLBRIDGE_REAL_ROSBRIDGE=ws://127.0.0.1:PORT (a running rosbridge_server) to run the suite against it', () => {});
    return;
  }
  const target: ConformanceTarget = { url: real, ros: process.env['SKILLBRIDGE_REAL_ROS'] === '2' ? 2 : 1 };
  rosbridgeConformance(() => target);
});
