// What the robot's ROS graph says, read through rosapi at connect: which ROS
// version runs (ROS 2's /rosapi/get_ros_version; on ROS 1, whose rosapi has no
// such service, the spelling of the topic types), and whether the mapping's
// topics, services and action servers exist there with the mapping's types.
// Type strings are respelled for the version found: ROS 1 "std_msgs/Bool",
// ROS 2 "std_msgs/msg/Bool"; actions "move_base_msgs/MoveBaseAction" and
// "move_base_msgs/action/MoveBase".
import { type RosConnection, RosbridgeError, type RosStatus } from './connection';
import type { Mapping, SkillMapping } from './mapping';
import { type MessageDefs, type Want, arrayItem, checkPath, fromFullText, fromTypedefs } from './message-types';

type Kind = 'msg' | 'srv' | 'action';

/** A type string in the spelling of ROS `ros`. */
export function spell(type: string, ros: 1 | 2, kind: Kind): string {
  const parts = type.split('/').filter(Boolean);
  const pkg = parts[0] ?? '';
  let name = parts.at(-1) ?? '';
  const wasAction = parts.length === 3 ? parts[1] === 'action' : kind === 'action' && name.endsWith('Action');
  if (kind === 'action' && wasAction && parts.length === 2) name = name.replace(/Action$/, '');
  if (ros === 1) return kind === 'action' ? `${pkg}/${name}Action` : `${pkg}/${name}`;
  return `${pkg}/${kind}/${name}`;
}

/** The same type whatever the spelling. */
export function sameType(a: string, b: string): boolean {
  const bare = (t: string) => t.replace(/\/(msg|srv|action)\//, '/');
  return bare(a) === bare(b);
}

/** The mapping with every type string in the spelling of ROS `ros`. */
export function respell(m: Mapping, ros: 1 | 2): Mapping {
  const skills: Record<string, SkillMapping> = {};
  for (const [k, s] of Object.entries(m.skills))
    skills[k] = { ...s, type: spell(s.type, ros, 'action' in s ? 'action' : 'service' in s ? 'srv' : 'msg') } as SkillMapping;
  return {
    ...m,
    skills,
    ...(m.battery ? { battery: { ...m.battery, type: spell(m.battery.type, ros, 'msg') } } : {}),
    ...('topic' in m.estop ? { estop: { ...m.estop, type: spell(m.estop.type, ros, 'msg') } } : {}),
    ...(m.pose ? { pose: { ...m.pose, type: spell(m.pose.type, ros, 'msg') } } : {}),
    ...(m.detections ? { detections: { ...m.detections, type: spell(m.detections.type, ros, 'msg') } } : {}),
  };
}

export interface GraphReport {
  /** The ROS version found, and how. */
  ros: 1 | 2 | undefined;
  how: string;
  /** Mismatches that make the mapping wrong for this robot: one line each, naming the mapping field. */
  errors: string[];
  /** Things not (yet) in the graph: one line each. */
  warnings: string[];
}

const MS = 3000;

const dropped = (conn: RosConnection) =>
  new RosbridgeError(`the connection to rosbridge at ${conn.url} dropped while the mapping was being checked; try again`);

async function ask(conn: RosConnection, service: string, type: string): Promise<Record<string, unknown> | undefined> {
  try {
    return (await conn.callService(service, type, {}, MS)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Detects the ROS version and checks the mapping against the live graph. */
export async function checkGraph(conn: RosConnection, m: Mapping): Promise<GraphReport> {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (!m.rosapi)
    return {
      ros: undefined,
      how: `the mapping says the robot runs no rosapi ("rosapi": false): ROS ${m.ros} is taken from the mapping, and the mapping was not checked against the robot`,
      errors,
      warnings,
    };
  const v = await ask(conn, '/rosapi/get_ros_version', 'rosapi_msgs/srv/GetROSVersion');
  const t = await ask(conn, '/rosapi/topics', 'rosapi/Topics');
  // A link lost while asking is not rosapi's silence: say what happened.
  if (!conn.isConnected) throw dropped(conn);
  const topics = new Map<string, string>();
  // A topic whose type rosapi cannot tell now ("": only subscribed, or its publisher just went) is not known here.
  if (t && Array.isArray(t['topics']) && Array.isArray(t['types']))
    (t['topics'] as unknown[]).forEach((name, i) => {
      const type = (t['types'] as unknown[])[i];
      if (typeof type === 'string' && type) topics.set(String(name), type);
    });
  let ros: 1 | 2 | undefined;
  let how: string;
  if (v && (v['version'] === 1 || v['version'] === 2)) {
    ros = v['version'];
    how = `rosapi reports ROS ${ros}${v['distro'] ? ` (${String(v['distro'])})` : ''}`;
  } else if (t && Array.isArray(t['topics'])) {
    ros = [...topics.values()].some((ty) => /\/msg\//.test(ty)) ? 2 : 1;
    how = `rosapi has no get_ros_version; topic types are spelled as on ROS ${ros}`;
  } else {
    // Without rosapi nothing can be checked: fail closed, naming the way out.
    errors.push(
      'mapping.rosapi: the robot\'s rosapi did not answer (/rosapi/topics), so the mapping cannot be checked against the robot; start rosapi beside rosbridge (rosbridge_websocket_launch starts both), or set "rosapi": false in the mapping to connect unchecked',
    );
    return { ros: undefined, how: 'rosapi did not answer', errors, warnings };
  }
  if (ros !== m.ros) errors.push(`mapping.ros: ${m.ros}, but the robot runs ROS ${ros} (${how}); set "ros": ${ros}`);
  const mm = respell(m, ros);
  const topic = (field: string, name: string, type: string) => {
    const found = topics.get(name);
    if (found === undefined) warnings.push(`mapping.${field}.topic: ${name} is not in the robot's ROS graph (nothing publishes it now)`);
    else if (!sameType(found, type)) errors.push(`mapping.${field}.type: "${type}", but ${name} carries "${found}" on the robot`);
  };
  if (mm.battery) topic('battery', mm.battery.topic, mm.battery.type);
  if ('topic' in mm.estop) topic('estop', mm.estop.topic, mm.estop.type);
  if (mm.pose) topic('pose', mm.pose.topic, mm.pose.type);
  if (mm.detections) topic('detections', mm.detections.topic, mm.detections.type);
  const s = await ask(conn, '/rosapi/services', 'rosapi/Services');
  const services = new Set(Array.isArray(s?.['services']) ? (s['services'] as unknown[]).map(String) : []);
  const a = ros === 2 ? await ask(conn, '/rosapi/action_servers', 'rosapi_msgs/srv/GetActionServers') : undefined;
  const servers = new Set(Array.isArray(a?.['action_servers']) ? (a['action_servers'] as unknown[]).map(String) : []);
  for (const [name, sk] of Object.entries(mm.skills)) {
    const field = `skills.${name}`;
    if ('topic' in sk) {
      const found = topics.get(sk.topic);
      if (found !== undefined && !sameType(found, sk.type))
        errors.push(`mapping.${field}.type: "${sk.type}", but ${sk.topic} carries "${found}" on the robot`);
    } else if ('service' in sk) {
      if (s && !services.has(sk.service)) warnings.push(`mapping.${field}.service: ${sk.service} is not offered by the robot now`);
    } else if (ros === 1) {
      const goal = topics.get(`${sk.action}/goal`);
      const want = `${sk.type.replace(/Action$/, '')}ActionGoal`;
      if (goal === undefined)
        warnings.push(`mapping.${field}.action: no action server ${sk.action} on the robot now (no ${sk.action}/goal topic)`);
      else if (!sameType(goal, want))
        errors.push(`mapping.${field}.type: "${sk.type}", but ${sk.action}/goal carries "${goal}" on the robot`);
    } else if (a && !servers.has(sk.action)) warnings.push(`mapping.${field}.action: no action server ${sk.action} on the robot now`);
  }
  errors.push(...(await checkFields(conn, mm)));
  if (!conn.isConnected) throw dropped(conn);
  return { ros, how, errors, warnings };
}

/** One mapped path: the mapping field that names it, the path, and what it must lead to. */
type PathCheck = [field: string, path: string, want: Want];

/**
 * The mapped readings' paths against the message definitions the robot's
 * rosapi gives: a path that names no field, or a field of the wrong kind
 * (the e-stop's must be a bool), is an error naming the mapping field.
 */
async function checkFields(conn: RosConnection, m: Mapping): Promise<string[]> {
  const errors: string[] = [];
  let raw: Promise<Record<string, unknown> | undefined> | undefined;
  const describe = async (type: string, topic: string): Promise<MessageDefs | string> => {
    let why: string;
    try {
      const defs = fromTypedefs(await conn.callService('/rosapi/message_details', 'rosapi/MessageDetails', { type }, MS), type);
      if (defs) return defs;
      why = 'message_details gave no definition of it';
    } catch (e) {
      why = `message_details failed: ${(e as Error).message}`;
    }
    // rosapi 2.x fails message_details on Iron and later; the definition text of a published topic still comes.
    raw ??= ask(conn, '/rosapi/topics_and_raw_types', 'rosapi/TopicsAndRawTypes');
    const t = await raw;
    const i = Array.isArray(t?.['topics']) ? (t['topics'] as unknown[]).indexOf(topic) : -1;
    const text = i >= 0 && Array.isArray(t?.['typedefs_full_text']) ? (t['typedefs_full_text'] as unknown[])[i] : undefined;
    const defs = typeof text === 'string' ? fromFullText(text, type) : undefined;
    return (
      defs ??
      `${why}; and ${i >= 0 ? `the definition text of ${topic} did not parse` : `${topic} is not published now (no definition text)`}`
    );
  };
  const check = async (name: string, topic: string, type: string, paths: PathCheck[], items?: [path: string, each: PathCheck[]]) => {
    const defs = await describe(type, topic);
    if (typeof defs === 'string') {
      errors.push(
        `mapping.${name}.type: "${type}" could not be checked: the robot's rosapi did not describe it (${defs}); check the type's spelling, or set "rosapi": false to connect unchecked`,
      );
      return;
    }
    const path = (root: string, [field, p, want]: PathCheck) => {
      const why = checkPath(defs, root, p, want);
      if (why) errors.push(`mapping.${name}.${field}: "${p}": ${why}`);
    };
    for (const c of paths) path(type, c);
    if (!items) return;
    const item = arrayItem(defs, type, items[0]);
    if (typeof item === 'string') errors.push(`mapping.${name}.items: "${items[0]}": ${item}`);
    else for (const c of items[1]) path(item.item, c);
  };
  if ('topic' in m.estop) await check('estop', m.estop.topic, m.estop.type, [['path', m.estop.path, 'bool']]);
  if (m.battery)
    await check('battery', m.battery.topic, m.battery.type, [
      ['type', 'percentage', 'number'],
      ['type', 'power_supply_status', 'number'],
    ]);
  if (m.pose) await check('pose', m.pose.topic, m.pose.type, [['path', m.pose.path, 'pose']]);
  const d = m.detections;
  if (d)
    await check(
      'detections',
      d.topic,
      d.type,
      [],
      [
        d.items,
        [
          ['id', d.id, 'string'],
          ...(d.name ? ([['name', d.name, 'string']] as PathCheck[]) : []),
          ...(d.category ? ([['category', d.category, 'string']] as PathCheck[]) : []),
          ['position', d.position, 'point'],
        ],
      ],
    );
  return errors;
}

/**
 * A `status` message about one of our ops as one line naming the mapping field
 * (`fields`: topic → field), e.g. mapping.estop.type: rosbridge rejected the
 * subscription of /emergency_stop (type "std_msgs/msg/Bool"): …
 */
export function rejectionLine(st: RosStatus, fields: ReadonlyMap<string, string>, typeOf: (field: string) => string | undefined): string {
  const topic = st.id?.replace(/^(sub|adv):/, '');
  const field = topic !== undefined ? fields.get(topic) : undefined;
  if (!field) return `rosbridge ${st.level}: ${st.msg}`;
  const what = st.id?.startsWith('adv:') ? 'advertisement' : 'subscription';
  const aboutType = /type/i.test(st.msg);
  const named = aboutType && !field.startsWith('skills.') ? `${field}.type` : field;
  return `mapping.${named}: rosbridge rejected the ${what} of ${topic}${aboutType ? ` (type ${JSON.stringify(typeOf(field))})` : ''}: ${st.msg}`;
}
