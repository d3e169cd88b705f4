// A robot played through rosbridge itself: a second rosbridge client that
// advertises and publishes the robot's topics (e-stop, battery, detections) and
// serves ROS 1 actionlib actions over their five topics. Because it speaks only
// the rosbridge protocol, the same double drives the stand-in in CI and a real
// rosbridge_server (whose ROS graph then carries its topics).
import WebSocket from 'ws';
import { spell } from '../rosbridge/graph';

type Msg = Record<string, unknown>;

/** What the double's action server does with a goal. */
export type GoalBehaviour = 'succeed' | 'never';

export class RobotDouble {
  /** Goals the double received: action name and goal message. */
  readonly goals: Array<{ action: string; goal: Msg }> = [];
  /** Messages received on topics the double subscribed to. */
  readonly heard: Array<{ topic: string; msg: Msg }> = [];
  private readonly timers: Array<ReturnType<typeof setInterval>> = [];
  private readonly handlers = new Map<string, (msg: Msg) => void>();

  private constructor(
    private readonly ws: WebSocket,
    readonly ros: 1 | 2,
  ) {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Msg;
      if (m['op'] === 'publish') this.handlers.get(String(m['topic']))?.((m['msg'] as Msg) ?? {});
    });
  }

  static async connect(url: string, ros: 1 | 2): Promise<RobotDouble> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new RobotDouble(ws, ros);
  }

  private send(m: Msg): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m));
  }

  /** A message type in this ROS version's spelling. */
  type(t: string, kind: 'msg' | 'action' = 'msg'): string {
    return spell(t, this.ros, kind);
  }

  advertise(topic: string, type: string, latch = false): void {
    this.send({ op: 'advertise', id: `adv:${topic}`, topic, type: this.type(type), latch, queue_size: 10 });
  }

  publish(topic: string, msg: Msg): void {
    this.send({ op: 'publish', topic, msg });
  }

  /** Advertises and publishes `msg` now and every `ms` (a robot's periodic e-stop or battery). */
  repeat(topic: string, type: string, msg: Msg, ms: number): void {
    this.advertise(topic, type, true);
    this.publish(topic, msg);
    this.timers.push(setInterval(() => this.publish(topic, msg), ms));
  }

  subscribe(topic: string, type: string, on?: (msg: Msg) => void): void {
    this.handlers.set(topic, (msg) => {
      this.heard.push({ topic, msg });
      on?.(msg);
    });
    this.send({ op: 'subscribe', id: `sub:${topic}`, topic, type: this.type(type) });
  }

  /** A ROS 1 actionlib server (type e.g. move_base_msgs/MoveBaseAction) publishing its status at 5 Hz. */
  actionlib(action: string, type: string, behaviour: GoalBehaviour): void {
    const base = spell(type, 1, 'action').replace(/Action$/, '');
    const header = { seq: 0, stamp: { secs: 0, nsecs: 0 }, frame_id: '' };
    const active = new Set<string>();
    this.advertise(`${action}/status`, 'actionlib_msgs/GoalStatusArray');
    this.advertise(`${action}/feedback`, `${base}ActionFeedback`);
    this.advertise(`${action}/result`, `${base}ActionResult`);
    const status = (id: string, s: number) => ({ goal_id: { id, stamp: { secs: 0, nsecs: 0 } }, status: s, text: '' });
    this.timers.push(
      setInterval(() => this.publish(`${action}/status`, { header, status_list: [...active].map((id) => status(id, 1)) }), 200),
    );
    this.subscribe(`${action}/cancel`, 'actionlib_msgs/GoalID');
    this.subscribe(`${action}/goal`, `${base}ActionGoal`, (m) => {
      const id = String((m['goal_id'] as Msg | undefined)?.['id'] ?? '');
      this.goals.push({ action, goal: (m['goal'] as Msg) ?? {} });
      if (behaviour === 'never') return void active.add(id);
      // A fast result: published at once, as a server that is already there.
      this.publish(`${action}/result`, { header, status: status(id, 3), result: {} });
    });
  }

  close(): void {
    for (const t of this.timers) clearInterval(t);
    this.ws.terminate();
  }
}
