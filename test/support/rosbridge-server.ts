// A rosbridge v2 stand-in that behaves as the real servers do (rosbridge_suite
// 0.11.17 on ROS 1, 2.x on ROS 2), read from their source:
// - type strings: ROS 1 accepts only "pkg/Name"; ROS 2 accepts "pkg/Name" and
//   "pkg/msg/Name". A bad type or a type that conflicts with the graph makes the
//   op fail; the real servers only log that (rosout), they send no `status`
//   message although the protocol document describes one. `statusMessages: true`
//   sends the documented status error as well, for clients of servers that do.
// - latched topics are delivered when a client subscribes;
// - on ROS 1 a new subscription receives messages only once its connection to
//   the publisher is made (`connectMs`), so a result published right after a
//   goal reaches only a subscription made well before it;
// - rosapi: /rosapi/topics, /rosapi/services,
//   /rosapi/action_servers, and /rosapi/get_ros_version on ROS 2 only (0.11.17 has none);
//   /rosapi/message_details as rosapi's objectutils answers it (ROS 1: field
//   names as written, `time` a special type; ROS 2: Python slot names "_data",
//   IDL type names "boolean", "double"), failing for a type it does not know,
//   or for every type (`messageDetails: false`, as rosapi 2.x on Iron and later
//   does); /rosapi/topics_and_raw_types with each topic's definition text;
// - parameters through rosapi as rosapi answers them: /rosapi/get_param and
//   /rosapi/set_param with the value JSON-encoded; ROS 1 names a parameter of
//   the parameter server (request fields name, default / name, value) and gives
//   null for a missing one; ROS 2 names a node's parameter "NODE:PARAM"
//   (request fields name, default_value) and gives "" for a missing one or node.
//   A request field the service does not have fails the call, as rosbridge's
//   message conversion does;
// - rosbridge does not cancel the goals of a client that went away: after
//   dropAll() a goal runs on and a cancel by its id from a new connection
//   reaches it (rosbridge 2.x keeps action clients in a class-wide table);
//   restart() forgets them (a new rosbridge process cannot cancel them);
// - NaN and ±Inf in a float field are sent as null;
// - call_service to a missing service answers result:false "Service … does not exist";
// - ROS 2 native actions (send_action_goal …) and ROS 1 actionlib servers over
//   their five topics, with status published at 5 Hz.
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

import { MSGS, MSGS1, MSGS2, ROSAPI, bare, fullText, typedefs } from './rosbridge-types';

type Msg = Record<string, unknown>;

export interface GoalContext {
  args: Msg;
  /** Sends feedback (action_feedback on ROS 2, the feedback topic on ROS 1). */
  feedback(values: Msg): void;
  /** Aborts when the client cancels the goal. */
  signal: AbortSignal;
}

/** What an action server does: resolve with a GoalStatus code and the result values; never resolving = a lost result. */
export type ActionHandler = (g: GoalContext) => Promise<{ status: number; values: Msg }>;

export interface StandInOptions {
  ros?: 1 | 2;
  /** Also send the protocol document's `status` error messages (the real servers only log them). */
  statusMessages?: boolean;
  /** ROS 1: how long a new subscription takes to connect to the publisher, ms. */
  connectMs?: number;
  /** Serve the rosapi services (default true). */
  rosapi?: boolean;
  /** /rosapi/message_details answers (default true); false fails it for every type, as rosapi 2.x does on Iron and later. */
  messageDetails?: boolean;
}

export interface RosbridgeTestServer {
  url: string;
  ros: 1 | 2;
  /** Every op a client sent, in order. */
  received: Msg[];
  /** What the server logged (errors it did not send unless statusMessages). */
  log: Array<{ level: string; msg: string; id?: unknown }>;
  /** The ROS graph: topic → type, as rosapi reports it. */
  topics: Map<string, string>;
  services: Map<string, (args: Msg) => Msg | Promise<Msg>>;
  serviceTypes: Map<string, string>;
  /** ROS 2 native action servers. */
  actions: Map<string, ActionHandler>;
  /** Called for a client's publish. */
  onPublish: Map<string, (msg: Msg) => void>;
  /** Publishes to every client subscribed to `topic`; `latch` keeps it for later subscribers. */
  publish(topic: string, msg: Msg, o?: { type?: string; latch?: boolean }): void;
  /** Publishes `msg` now and every `ms` until the server closes (a robot's periodic e-stop or battery topic); returns the stop. */
  repeat(topic: string, msg: Msg, ms: number, o?: { type?: string; latch?: boolean }): () => void;
  /** A ROS 1 actionlib server on `action` (type e.g. move_base_msgs/MoveBaseAction). */
  actionlib(action: string, type: string, handler: ActionHandler): void;
  subscribers(topic: string): number;
  /**
   * Parameters rosapi serves, by full name: ROS 1 "/robot_description", ROS 2
   * "/robot_state_publisher:robot_description". Values as ROS holds them (not encoded).
   */
  params: Map<string, unknown>;
  /** Message definitions rosapi knows: type ("pkg/Name") → .msg text; tests may add their own. */
  types: Map<string, string>;
  /** Drops every connection now (the robot's network went away); goals in flight run on. */
  dropAll(): void;
  /** rosbridge restarted: every connection dropped, and the goals in flight can no longer be cancelled through it. */
  restart(): void;
  /** Refuse (true) or accept (false) new connections. */
  refuse(on: boolean): void;
  close(): Promise<void>;
}

export const GOAL = { SUCCEEDED: 4, CANCELED: 5, ABORTED: 6 } as const;
export const GOAL1 = { PREEMPTED: 2, SUCCEEDED: 3, ABORTED: 4 } as const;

const ROS1_TYPE = /^[A-Za-z0-9_]+\/[A-Za-z0-9_]+$/;
const ROS2_TYPE = /^[A-Za-z0-9_]+\/(msg\/|srv\/|action\/)?[A-Za-z0-9_]+$/;

interface Sub {
  topic: string;
  /** When the subscription's connection to the publisher is made (ROS 1). */
  from: number;
}

export async function startRosbridgeServer(o: StandInOptions = {}): Promise<RosbridgeTestServer> {
  const ros = o.ros ?? 2;
  const connectMs = ros === 1 ? (o.connectMs ?? 150) : 0;
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const received: Msg[] = [];
  const log: RosbridgeTestServer['log'] = [];
  const topics = new Map<string, string>();
  const services = new Map<string, (args: Msg) => Msg | Promise<Msg>>();
  const serviceTypes = new Map<string, string>();
  const actions = new Map<string, ActionHandler>();
  const onPublish = new Map<string, (msg: Msg) => void>();
  const latched = new Map<string, Msg>();
  const latchedTopics = new Set<string>();
  const subs = new Map<WebSocket, Map<string, Sub>>();
  const goals = new Map<string, AbortController>();
  const timers: Array<ReturnType<typeof setInterval>> = [];
  let refusing = false;

  const params = new Map<string, unknown>();
  const types = new Map(Object.entries(ros === 1 ? { ...MSGS, ...MSGS1 } : { ...MSGS, ...MSGS2 }));
  // rosbridge's JSON has no NaN or Infinity: they go out as null.
  const send = (ws: WebSocket, m: Msg) => {
    if (ws.readyState === ws.OPEN)
      ws.send(JSON.stringify(m, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v)));
  };
  const error = (ws: WebSocket, msg: string, id?: unknown) => {
    log.push({ level: 'error', msg, ...(id !== undefined ? { id } : {}) });
    if (o.statusMessages) send(ws, { op: 'status', level: 'error', msg, ...(id !== undefined ? { id } : {}) });
  };
  /** rosbridge's type check: the spelling, then the graph's type for the topic. */
  const typeProblem = (topic: string, type: unknown): string | undefined => {
    if (type === undefined) return topics.has(topic) ? undefined : `Cannot infer topic type for topic ${topic} as it is not yet advertised`;
    const t = String(type);
    if (!(ros === 1 ? ROS1_TYPE : ROS2_TYPE).test(t)) return `${t} is not a valid type string`;
    const known = topics.get(topic);
    if (known && bare(known) !== bare(t))
      return `Tried to register topic ${topic} with type ${t} but it is already established with type ${known}`;
    return undefined;
  };
  const deliver = (topic: string, msg: Msg) => {
    const now = Date.now();
    for (const [ws, s] of subs) {
      const sub = s.get(topic);
      if (sub && now >= sub.from) send(ws, { op: 'publish', topic, msg });
    }
  };
  const rosapi = (name: string): Msg | undefined => {
    if (o.rosapi === false) return undefined;
    const all = [...topics.entries()].sort(([a], [b]) => a.localeCompare(b));
    switch (name) {
      case '/rosapi/topics':
        return { topics: all.map(([t]) => t), types: all.map(([, ty]) => ty) };
      case '/rosapi/services':
        return { services: [...services.keys(), ...ROSAPI.filter((s) => ros === 2 || s !== '/rosapi/get_ros_version')] };
      case '/rosapi/action_servers': {
        if (ros === 2) return { action_servers: [...actions.keys()] };
        const names = [...topics.keys()].filter((t) => t.endsWith('/status')).map((t) => t.slice(0, -'/status'.length));
        return { action_servers: names.filter((a) => ['goal', 'cancel', 'feedback', 'result'].every((x) => topics.has(`${a}/${x}`))) };
      }
      case '/rosapi/get_ros_version':
        return ros === 2 ? { version: 2, distro: 'jazzy' } : undefined;
      case '/rosapi/topics_and_raw_types':
        return {
          topics: all.map(([t]) => t),
          types: all.map(([, ty]) => ty),
          typedefs_full_text: all.map(
            ([, ty]) => fullText(types, ty, ros) ?? (ros === 1 ? '' : `# failed to get full definition text for ${ty}`),
          ),
        };
      default:
        return undefined;
    }
  };
  /** rosapi's parameter services: the answer, or the failure rosbridge gives for a request it cannot convert. */
  const paramService = (service: string, args: Msg): { values: unknown; ok: boolean } | undefined => {
    const fields = (
      {
        '/rosapi/get_param': ros === 1 ? ['name', 'default'] : ['name', 'default_value'],
        '/rosapi/set_param': ['name', 'value'],
      } as Record<string, string[]>
    )[service];
    if (!fields || o.rosapi === false) return undefined;
    const extra = Object.keys(args).find((k) => !fields.includes(k));
    if (extra !== undefined) return { values: `${service} request has no field ${extra}`, ok: false };
    const raw = String(args['name'] ?? '');
    let key: string;
    if (ros === 1) key = raw.startsWith('/') ? raw : `/${raw}`;
    else {
      // rosapi 2.x splits NODE:PARAM; a name without one is logged as malformed and answered with an empty value.
      const [node, param, ...more] = raw.split(':');
      if (param === undefined || more.length) return { values: { value: '' }, ok: true };
      key = `${node!.startsWith('/') ? node : `/${node}`}:${param}`;
    }
    if (service === '/rosapi/set_param') {
      params.set(key, JSON.parse(String(args['value'] ?? 'null')));
      return { values: {}, ok: true };
    }
    const fallback = String(args[ros === 1 ? 'default' : 'default_value'] ?? '');
    const value = params.has(key) ? params.get(key) : ros === 1 ? (fallback === '' ? null : JSON.parse(fallback)) : fallback;
    return { values: { value: JSON.stringify(value) }, ok: true };
  };
  /** /rosapi/message_details: the typedefs, or the error rosapi's service raises. */
  const messageDetails = (args: Msg): { values: unknown; ok: boolean } => {
    const type = String(args['type'] ?? '');
    if (o.messageDetails === false) return { values: `Service call failed: KeyError: 'check_fields'`, ok: false };
    const defs = typedefs(types, type, ros);
    return defs ? { values: { typedefs: defs }, ok: true } : { values: `Service call failed: no message type ${type}`, ok: false };
  };

  wss.on('connection', (ws) => {
    if (refusing) return ws.terminate();
    subs.set(ws, new Map());
    ws.on('close', () => subs.delete(ws));
    ws.on('message', (raw) => {
      let m: Msg;
      try {
        m = parseAsPython(String(raw));
      } catch {
        return error(ws, 'not JSON');
      }
      received.push(m);
      const op = m['op'];
      const topic = String(m['topic']);
      switch (op) {
        case 'advertise': {
          const why = typeProblem(topic, m['type']);
          if (why) return error(ws, `advertise: ${why}`, m['id']);
          if (!topics.has(topic)) topics.set(topic, String(m['type']));
          if (m['latch'] === true) latchedTopics.add(topic);
          return;
        }
        case 'unadvertise':
          return;
        case 'subscribe': {
          const why = typeProblem(topic, m['type']);
          if (why) return error(ws, `subscribe: ${why}`, m['id']);
          // A subscriber registers the topic with its type in the graph too (ROS 1's master, ROS 2's graph).
          if (!topics.has(topic) && m['type']) topics.set(topic, String(m['type']));
          const from = Date.now() + connectMs;
          subs.get(ws)?.set(topic, { topic, from });
          const last = latched.get(topic);
          if (last) setTimeout(() => subs.get(ws)?.has(topic) && send(ws, { op: 'publish', topic, msg: last }), connectMs);
          return;
        }
        case 'unsubscribe':
          subs.get(ws)?.delete(topic);
          return;
        case 'publish':
          if (!topics.has(topic))
            return error(ws, `publish: Cannot infer topic type for topic ${topic} as it is not yet advertised`, m['id']);
          if (latchedTopics.has(topic)) latched.set(topic, (m['msg'] as Msg) ?? {});
          onPublish.get(topic)?.((m['msg'] as Msg) ?? {});
          deliver(topic, (m['msg'] as Msg) ?? {});
          return;
        case 'call_service': {
          const service = String(m['service']);
          const h = services.get(service);
          const api = h ? undefined : rosapi(service);
          const answer = (values: unknown, result: boolean) => send(ws, { op: 'service_response', id: m['id'], service, values, result });
          if (api) return answer(api, true);
          const param = h ? undefined : paramService(service, (m['args'] as Msg) ?? {});
          if (param) {
            if (!param.ok) error(ws, `call_service ${String(param.values)}`, m['id']);
            return answer(param.values, param.ok);
          }
          if (!h && service === '/rosapi/message_details' && o.rosapi !== false) {
            const r = messageDetails((m['args'] as Msg) ?? {});
            if (!r.ok) error(ws, `call_service ServiceException: ${String(r.values)}`, m['id']);
            return answer(r.values, r.ok);
          }
          if (!h) {
            error(ws, `call_service InvalidServiceException: Service ${service} does not exist`, m['id']);
            return answer(`Service ${service} does not exist`, false);
          }
          void Promise.resolve(h((m['args'] as Msg) ?? {})).then((values) => answer(values, true));
          return;
        }
        case 'send_action_goal': {
          if (ros === 1) return error(ws, `Unknown operation: send_action_goal`, m['id']);
          const id = String(m['id']);
          const action = String(m['action']);
          const h = actions.get(action);
          // rosbridge 2.x waits for the action server; without one the goal gets no answer.
          if (!h) return;
          const ctl = new AbortController();
          goals.set(id, ctl);
          const feedback = m['feedback'] === true;
          void h({
            args: (m['args'] as Msg) ?? {},
            feedback: (values) => feedback && send(ws, { op: 'action_feedback', id, action, values }),
            signal: ctl.signal,
          }).then((r) => {
            if (goals.get(id) === ctl) goals.delete(id);
            send(ws, { op: 'action_result', id, action, values: r.values, status: r.status, result: true });
          });
          return;
        }
        case 'cancel_action_goal':
          goals.get(String(m['id']))?.abort();
          return;
        default:
          return error(ws, `Unknown operation: ${String(op)}`, m['id']);
      }
    });
  });

  const publish: RosbridgeTestServer['publish'] = (topic, msg, p = {}) => {
    if (p.type && !topics.has(topic)) topics.set(topic, p.type);
    if (p.latch) latched.set(topic, msg);
    deliver(topic, msg);
  };

  const repeat: RosbridgeTestServer['repeat'] = (topic, msg, ms, p = {}) => {
    publish(topic, msg, p);
    const t = setInterval(() => publish(topic, msg, p), ms);
    timers.push(t);
    return () => clearInterval(t);
  };

  const actionlib: RosbridgeTestServer['actionlib'] = (action, type, handler) => {
    const base = bare(type).replace(/Action$/, '');
    topics.set(`${action}/goal`, `${base}ActionGoal`);
    topics.set(`${action}/cancel`, 'actionlib_msgs/GoalID');
    topics.set(`${action}/status`, 'actionlib_msgs/GoalStatusArray');
    topics.set(`${action}/feedback`, `${base}ActionFeedback`);
    topics.set(`${action}/result`, `${base}ActionResult`);
    const active = new Map<string, AbortController>();
    const statusOf = (id: string, status: number) => ({ goal_id: { id, stamp: { secs: 0, nsecs: 0 } }, status, text: '' });
    timers.push(
      setInterval(() => deliver(`${action}/status`, { header: {}, status_list: [...active.keys()].map((id) => statusOf(id, 1)) }), 200),
    );
    onPublish.set(`${action}/cancel`, (m) => {
      const id = String(m['id'] ?? '');
      for (const [g, ctl] of active) if (id === '' || id === g) ctl.abort();
    });
    onPublish.set(`${action}/goal`, (m) => {
      const id = String((m['goal_id'] as Msg | undefined)?.['id'] ?? '');
      const ctl = new AbortController();
      active.set(id, ctl);
      void handler({
        args: (m['goal'] as Msg) ?? {},
        feedback: (values) => deliver(`${action}/feedback`, { status: statusOf(id, 1), feedback: values }),
        signal: ctl.signal,
      }).then((r) => {
        active.delete(id);
        deliver(`${action}/result`, { status: statusOf(id, r.status), result: r.values });
      });
    });
  };

  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    ros,
    received,
    log,
    topics,
    services,
    serviceTypes,
    actions,
    onPublish,
    publish,
    repeat,
    actionlib,
    params,
    subscribers: (topic) => [...subs.values()].filter((t) => t.has(topic)).length,
    types,
    dropAll: () => {
      for (const ws of wss.clients) ws.terminate();
    },
    restart: () => {
      goals.clear();
      for (const ws of wss.clients) ws.terminate();
    },
    refuse: (on) => {
      refusing = on;
    },
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/**
 * rosbridge reads JSON with Python's json module, which takes NaN and
 * ±Infinity; in a float field they come out as null (here at once).
 */
function parseAsPython(text: string): Msg {
  try {
    return JSON.parse(text) as Msg;
  } catch (e) {
    const loose = text.replace(/([:,[]\s*)-?(?:NaN|Infinity)(?=\s*[,\]}])/g, '$1null');
    if (loose === text) throw e;
    return JSON.parse(loose) as Msg;
  }
}

export function runFor(ms: number, g: GoalContext, tick?: (fraction: number) => void): Promise<'done' | 'cancelled'> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const iv = setInterval(() => tick?.(Math.min(1, (Date.now() - t0) / ms)), Math.max(10, ms / 5));
    const t = setTimeout(() => {
      clearInterval(iv);
      resolve('done');
    }, ms);
    g.signal.addEventListener('abort', () => {
      clearTimeout(t);
      clearInterval(iv);
      resolve('cancelled');
    });
  });
}
