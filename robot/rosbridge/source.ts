// The `rosbridge` robot source: a ROS 1 or ROS 2 robot through rosbridge
// (protocol v2), described by a mapping file (./mapping.ts). Opening it
// detects the ROS version through rosapi, respells the mapping's types for it,
// checks the mapping against the live graph (one line per mismatch), and waits
// (at most `firstMessagesMs`) for the first e-stop, battery, pose and detection
// messages, so nothing is answered from readings that have not arrived.
import { z } from 'zod';
import type { SkillPredictor } from '../skills';
import { type OpenedRobot, RobotSourceError, type RobotSourceFactory, ShadowForm } from '../source';
import { RosConnection, RosbridgeError } from './connection';
import { checkGraph, respell } from './graph';
import { MappingError, loadMapping } from './mapping';
import { RosRobot } from './ros-robot';

export const RosbridgeForm = z.strictObject({
  kind: z.literal('rosbridge'),
  url: z.url({ protocol: /^wss?$/, error: 'must be a ws:// URL such as ws://127.0.0.1:9090' }).describe('the rosbridge server'),
  mapping: z.string().min(1).describe('the mapping file (JSON), e.g. examples/rosbridge/nav2-moveit.json'),
  connectTimeoutMs: z.int().min(100).max(120_000).default(10_000),
  /** The longest opening waits for the first e-stop, battery, pose and detection messages. */
  firstMessagesMs: z.int().min(0).max(60_000).default(3000),
  shadow: ShadowForm.optional(),
});
export type RosbridgeForm = z.infer<typeof RosbridgeForm>;

export interface OpenedRosRobot extends OpenedRobot {
  readonly kind: 'rosbridge';
  readonly robot: RosRobot;
  readonly sim: undefined;
  /** Shadow mode's simulator beside the robot, when the form asked for one. */
  readonly shadow?: SkillPredictor;
  /** What the graph check found that is not (yet) on the robot, and the ROS version found: one line each. */
  readonly notes: string[];
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
    let robot: RosRobot | undefined;
    try {
      await conn.open(form.connectTimeoutMs);
      const graph = await checkGraph(conn, mapping);
      if (graph.errors.length)
        throw new RobotSourceError(
          `the mapping ${form.mapping} does not match the robot at ${form.url}:\n${graph.errors.map((l) => `  ${l}`).join('\n')}`,
        );
      robot = new RosRobot(conn, respell(mapping, graph.ros ?? mapping.ros));
      await robot.ready(form.firstMessagesMs);
      if (robot.problems.length)
        throw new RobotSourceError(`rosbridge at ${form.url} rejected the mapping:\n${robot.problems.map((l) => `  ${l}`).join('\n')}`);
      const notes = [graph.how, ...graph.warnings];
      const opened = robot;
      return {
        kind: 'rosbridge',
        robot: opened,
        sim: undefined,
        notes,
        close: async () => {
          opened.close();
          conn.close();
        },
      };
    } catch (e) {
      robot?.close();
      conn.close();
      if (e instanceof RosbridgeError) throw new RobotSourceError(e.message);
      throw e;
    }
  },
};
