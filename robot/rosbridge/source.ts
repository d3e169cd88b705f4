// The `rosbridge` robot source: a ROS 1 or ROS 2 robot through rosbridge
// (protocol v2), described by a mapping file (./mapping.ts).
import { z } from 'zod';
import type { SkillPredictor } from '../skills';
import { type OpenedRobot, RobotSourceError, type RobotSourceFactory, ShadowForm } from '../source';
import { RosConnection, RosbridgeError } from './connection';
import { MappingError, loadMapping } from './mapping';
import { RosRobot } from './ros-robot';

export const RosbridgeForm = z.strictObject({
  kind: z.literal('rosbridge'),
  url: z.url({ protocol: /^wss?$/, error: 'must be a ws:// URL such as ws://127.0.0.1:9090' }).describe('the rosbridge server'),
  mapping: z.string().min(1).describe('the mapping file (JSON), e.g. examples/rosbridge/nav2-moveit.json'),
  connectTimeoutMs: z.int().min(100).max(120_000).default(10_000),
  shadow: ShadowForm.optional(),
});
export type RosbridgeForm = z.infer<typeof RosbridgeForm>;

export interface OpenedRosRobot extends OpenedRobot {
  readonly kind: 'rosbridge';
  readonly robot: RosRobot;
  readonly sim: undefined;
  /** Shadow mode's simulator beside the robot, when the form asked for one. */
  readonly shadow?: SkillPredictor;
}

export const rosbridgeSource: RobotSourceFactory<typeof RosbridgeForm, OpenedRosRobot> = {
  kind: 'rosbridge',
  title: 'ROS through rosbridge',
  description: 'A ROS 1 or ROS 2 robot through a rosbridge server, mapped by a JSON file.',
  form: RosbridgeForm,
  async open(form) {
    let mapping;
    try {
      mapping = await loadMapping(form.mapping);
    } catch (e) {
      if (e instanceof MappingError) throw new RobotSourceError(e.message);
      throw e;
    }
    const conn = new RosConnection(form.url);
    try {
      await conn.open(form.connectTimeoutMs);
    } catch (e) {
      conn.close();
      if (e instanceof RosbridgeError) throw new RobotSourceError(e.message);
      throw e;
    }
    const robot = new RosRobot(conn, mapping);
    return {
      kind: 'rosbridge',
      robot,
      sim: undefined,
      close: async () => {
        robot.close();
        conn.close();
      },
    };
  },
};
