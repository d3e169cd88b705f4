// A rosbridge v2 test server that follows the published protocol
// (RobotWebTools/rosbridge_suite ROSBRIDGE_PROTOCOL.md §3.3): advertise,
// publish, subscribe, unsubscribe, call_service / service_response,
// send_action_goal / action_feedback / action_result / cancel_action_goal, and a
// `status` error for an unknown op. Tests give it services, actions and topic
// handlers, publish to subscribers, and drop every connection mid-action.
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

type Msg = Record<string, unknown>;

export interface GoalContext {
  args: Msg;
  /** Sends action_feedback (when the client asked for feedback). */
  feedback(values: Msg): void;
  /** Aborts when the client cancels the goal. */
  signal: AbortSignal;
}

/** What an action server does: resolve with a GoalStatus code and the result values. */
export type ActionHandler = (g: GoalContext) => Promise<{ status: number; values: Msg }>;

export interface RosbridgeTestServer {
  url: string;
  /** Every op a client sent, in order. */
  received: Msg[];
  services: Map<string, (args: Msg) => Msg | Promise<Msg>>;
  actions: Map<string, ActionHandler>;
  /** Called for a client's publish (ROS 1 actionlib goals arrive here). */
  onPublish: Map<string, (msg: Msg) => void>;
  /** Publishes to every client subscribed to `topic`. */
  publish(topic: string, msg: Msg): void;
  subscribers(topic: string): number;
  /** Drops every connection now (the robot's network went away). */
  dropAll(): void;
  /** Refuse (true) or accept (false) new connections. */
  refuse(on: boolean): void;
  close(): Promise<void>;
}

export const GOAL = { SUCCEEDED: 4, CANCELED: 5, ABORTED: 6 } as const;

export async function startRosbridgeServer(): Promise<RosbridgeTestServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const received: Msg[] = [];
  const services = new Map<string, (args: Msg) => Msg | Promise<Msg>>();
  const actions = new Map<string, ActionHandler>();
  const onPublish = new Map<string, (msg: Msg) => void>();
  const subs = new Map<WebSocket, Set<string>>();
  const goals = new Map<string, AbortController>();
  let refusing = false;

  const send = (ws: WebSocket, m: Msg) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  };

  wss.on('connection', (ws) => {
    if (refusing) return ws.terminate();
    subs.set(ws, new Set());
    ws.on('close', () => subs.delete(ws));
    ws.on('message', (raw) => {
      let m: Msg;
      try {
        m = JSON.parse(String(raw)) as Msg;
      } catch {
        return send(ws, { op: 'status', level: 'error', msg: 'not JSON' });
      }
      received.push(m);
      const op = m['op'];
      switch (op) {
        case 'advertise':
        case 'unadvertise':
          return;
        case 'subscribe':
          subs.get(ws)?.add(String(m['topic']));
          return;
        case 'unsubscribe':
          subs.get(ws)?.delete(String(m['topic']));
          return;
        case 'publish':
          onPublish.get(String(m['topic']))?.((m['msg'] as Msg) ?? {});
          return;
        case 'call_service': {
          const h = services.get(String(m['service']));
          if (!h)
            return send(ws, {
              op: 'service_response',
              id: m['id'],
              service: m['service'],
              values: `Service ${String(m['service'])} does not exist`,
              result: false,
            });
          void Promise.resolve(h((m['args'] as Msg) ?? {})).then((values) =>
            send(ws, { op: 'service_response', id: m['id'], service: m['service'], values, result: true }),
          );
          return;
        }
        case 'send_action_goal': {
          const id = String(m['id']);
          const action = String(m['action']);
          const h = actions.get(action);
          if (!h) return send(ws, { op: 'action_result', id, action, values: {}, status: GOAL.ABORTED, result: false });
          const ctl = new AbortController();
          goals.set(id, ctl);
          const feedback = m['feedback'] === true;
          void h({
            args: (m['args'] as Msg) ?? {},
            feedback: (values) => feedback && send(ws, { op: 'action_feedback', id, action, values }),
            signal: ctl.signal,
          }).then((r) => {
            goals.delete(id);
            send(ws, { op: 'action_result', id, action, values: r.values, status: r.status, result: r.status === GOAL.SUCCEEDED });
          });
          return;
        }
        case 'cancel_action_goal':
          goals.get(String(m['id']))?.abort();
          return;
        default:
          return send(ws, { op: 'status', level: 'error', msg: `Unknown operation: ${String(op)}` });
      }
    });
  });

  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    received,
    services,
    actions,
    onPublish,
    publish: (topic, msg) => {
      for (const [ws, topics] of subs) if (topics.has(topic)) send(ws, { op: 'publish', topic, msg });
    },
    subscribers: (topic) => [...subs.values()].filter((t) => t.has(topic)).length,
    dropAll: () => {
      for (const ctl of goals.values()) ctl.abort();
      goals.clear();
      for (const ws of wss.clients) ws.terminate();
    },
    refuse: (on) => {
      refusing = on;
    },
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** Resolves after `ms`, or when the goal is cancelled (then with CANCELED). */
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
