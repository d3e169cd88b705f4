// The robot's own URDF, read over rosbridge through rosapi: on ROS 1 the
// parameter server's robot_description (/rosapi/get_param NAME), on ROS 2 the
// parameter of the node that publishes it (/rosapi/get_param NODE:PARAM,
// robot_state_publisher by default). rosapi answers with the value JSON-encoded,
// and with its default (null on ROS 1, "" on ROS 2) when there is no such
// parameter or node: both are "no description", said with what was asked; so
// are an empty or non-string value and a call that gets no answer. Never a
// default robot.
import { z } from 'zod';
import type { RosbridgeUrl } from '../../base/host-refs';
import { RosConnection, RosbridgeError } from './connection';

export class RobotDescriptionError extends Error {
  override name = 'RobotDescriptionError';
}

export interface FetchedDescription {
  /** The URDF text, as the robot holds it. */
  text: string;
  ros: 1 | 2;
  /** The name rosapi was asked for: "robot_description" (ROS 1), "robot_state_publisher:robot_description" (ROS 2). */
  param: string;
  /** Where it came from, for reports: `robot_description of ws://… (ROS 1 parameter server)`. */
  origin: string;
}

export interface DescriptionOptions {
  /** How long each rosapi call may take, ms (default 5000). */
  timeoutMs?: number;
  /** The ROS version, when known; else rosapi is asked (/rosapi/get_ros_version, then the spelling of topic types). */
  ros?: 1 | 2;
  /** The parameter (default robot_description). */
  param?: string;
  /** ROS 2: the node that holds the parameter (default robot_state_publisher). */
  node?: string;
}

const TIMEOUT_MS = 5000;

/** rosapi's GetParam answer: the value JSON-encoded as a string. */
const GetParamAnswer = z.object({ value: z.string() });

/** A call that ends in time, or says which of the ways it did not. */
type Called = { ok: true; values: unknown } | { ok: false; why: 'timeout' | 'failed' | 'dropped'; message: string };

async function call(conn: RosConnection, service: string, type: string, args: Record<string, unknown>, ms: number): Promise<Called> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Called>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, why: 'timeout', message: `no answer within ${ms / 1000} s` }), ms);
  });
  // The connection's own timeout is later than ours: a missing answer is always told as ours.
  const answered = conn.callService(service, type, args, ms + 1000).then(
    (values): Called => ({ ok: true, values }),
    (e: unknown): Called => ({ ok: false, why: conn.isConnected ? 'failed' : 'dropped', message: (e as Error).message }),
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The ROS version the robot runs, as rosapi tells it. */
async function rosVersion(conn: RosConnection, ms: number): Promise<1 | 2> {
  const v = await call(conn, '/rosapi/get_ros_version', 'rosapi_msgs/srv/GetROSVersion', {}, ms);
  if (v.ok) {
    const version = (v.values as { version?: unknown } | null)?.version;
    if (version === 1 || version === 2) return version;
  }
  if (!v.ok && v.why === 'dropped') throw dropped(conn, '/rosapi/get_ros_version');
  // ROS 1's rosapi has no get_ros_version: the spelling of its topic types tells ("std_msgs/String" or "std_msgs/msg/String").
  const t = await call(conn, '/rosapi/topics', 'rosapi/Topics', {}, ms);
  if (!t.ok && t.why === 'dropped') throw dropped(conn, '/rosapi/topics');
  const types = t.ok ? (t.values as { types?: unknown } | null)?.types : undefined;
  if (!Array.isArray(types))
    throw new RobotDescriptionError(
      `the robot at ${conn.url} did not say which ROS it runs: rosapi answered neither /rosapi/get_ros_version nor /rosapi/topics (${t.ok ? 'no topic types' : t.message}); start rosapi beside rosbridge (rosbridge_websocket_launch starts both)`,
    );
  return types.some((ty) => typeof ty === 'string' && ty.includes('/msg/')) ? 2 : 1;
}

const dropped = (conn: RosConnection, what: string) =>
  new RobotDescriptionError(`the connection to rosbridge at ${conn.url} dropped while asking ${what}; try again`);

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Reads the robot's URDF through a connected rosbridge; throws RobotDescriptionError naming what was asked. */
export async function readRobotDescription(conn: RosConnection, o: DescriptionOptions = {}): Promise<FetchedDescription> {
  const ms = o.timeoutMs ?? TIMEOUT_MS;
  const param = (o.param ?? 'robot_description').replace(/^\/+/, '');
  const node = o.node ?? 'robot_state_publisher';
  if (!conn.isConnected)
    throw new RobotDescriptionError(`not connected to rosbridge at ${conn.url}; the robot's description was not asked`);
  const ros = o.ros ?? (await rosVersion(conn, ms));
  const name = ros === 1 ? param : `${node}:${param}`;
  const where = ros === 1 ? 'the ROS 1 parameter server' : `the ROS 2 node ${node}`;
  const asked = `/rosapi/get_param "${name}"`;
  const origin = `${param} of ${conn.url} (${where})`;
  // rosapi's GetParam: ROS 1's request has `default`, ROS 2's `default_value`; "" asks for no default.
  const answer =
    ros === 1
      ? await call(conn, '/rosapi/get_param', 'rosapi/GetParam', { name, default: '' }, ms)
      : await call(conn, '/rosapi/get_param', 'rosapi_msgs/srv/GetParam', { name, default_value: '' }, ms);
  if (!answer.ok) {
    if (answer.why === 'dropped') throw dropped(conn, asked);
    if (answer.why === 'timeout')
      throw new RobotDescriptionError(
        `the robot at ${conn.url} did not answer ${asked} within ${ms / 1000} s; is rosapi running beside rosbridge (rosbridge_websocket_launch starts both)?`,
      );
    throw new RobotDescriptionError(`${asked} failed on the robot at ${conn.url}: ${answer.message}`);
  }
  const parsed = GetParamAnswer.safeParse(answer.values);
  if (!parsed.success)
    throw new RobotDescriptionError(
      `${asked} on the robot at ${conn.url} gave an answer with no "value" string; the robot's rosapi is not one this knows`,
    );
  let value: unknown;
  try {
    value = JSON.parse(parsed.data.value) as unknown;
  } catch {
    throw new RobotDescriptionError(
      `${asked} on the robot at ${conn.url} gave a value that is not JSON (rosapi encodes every value as JSON): ${JSON.stringify(parsed.data.value.slice(0, 60))}`,
    );
  }
  const none =
    ros === 1
      ? `there is no parameter ${param} on ${where}; load the URDF there (robot_state_publisher's launch file does)`
      : `no node ${node}, or it has no parameter ${param} (rosapi cannot tell which); start robot_state_publisher with the URDF, or name the node that holds it`;
  if (value === null || (ros === 2 && value === ''))
    throw new RobotDescriptionError(
      `the robot at ${conn.url} has no ${param}: ${asked} gave no value (${none}), or check the URDF file itself: skillbridge robots check FILE`,
    );
  if (typeof value !== 'string')
    throw new RobotDescriptionError(
      `${origin} is not URDF text: ${asked} gave ${kindOf(value)}${typeof value === 'number' || typeof value === 'boolean' ? ` (${String(value)})` : ''}`,
    );
  if (!value.trim())
    throw new RobotDescriptionError(`${origin} is empty: ${asked} gave ${JSON.stringify(value)}; load the URDF text there`);
  return { text: value, ros, param: name, origin };
}

export interface FetchOptions extends DescriptionOptions {
  /** How long the connection may take, ms (default 10 000). */
  connectTimeoutMs?: number;
}

/** Connects to the rosbridge the policy allowed, reads the robot's URDF, and closes the connection. */
export async function fetchRobotDescription(url: RosbridgeUrl, o: FetchOptions = {}): Promise<FetchedDescription> {
  const conn = new RosConnection(url);
  try {
    await conn.open(o.connectTimeoutMs ?? 10_000);
    return await readRobotDescription(conn, o);
  } catch (e) {
    if (e instanceof RosbridgeError) throw new RobotDescriptionError(e.message);
    throw e;
  } finally {
    conn.close();
  }
}
