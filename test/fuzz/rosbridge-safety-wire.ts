// The rosbridge safety fuzzer's wire: a recording proxy between the client and
// rosbridge, and the robot side that publishes and serves its action.
import WebSocket, { WebSocketServer } from 'ws';
import { spell } from '../../robot/rosbridge/graph';
import { type Json, type Obj, materialise, pythonJson } from './rosbridge-safety-cases';

// ------------------------------------------------------------------ the proxy

export interface Wire {
  t: number;
  wall: number;
  conn: number;
  dir: 'up' | 'down';
  msg: Obj;
}

/** A WebSocket proxy to rosbridge that records every message both ways, and can drop or refuse the link. */
export class RecordingProxy {
  readonly wire: Wire[] = [];
  readonly conns: Array<{ id: number; open: number; close?: number }> = [];
  private refusing = false;
  private readonly pairs = new Set<{ down: WebSocket; up: WebSocket }>();

  private constructor(
    private readonly wss: WebSocketServer,
    readonly upstream: string,
  ) {
    let n = 0;
    wss.on('connection', (down) => {
      if (this.refusing) return void down.terminate();
      const id = ++n;
      const rec = { id, open: performance.now() } as { id: number; open: number; close?: number };
      this.conns.push(rec);
      const up = new WebSocket(upstream);
      const pair = { down, up };
      this.pairs.add(pair);
      const queue: string[] = [];
      const close = () => {
        if (rec.close === undefined) rec.close = performance.now();
        this.pairs.delete(pair);
        down.terminate();
        up.terminate();
      };
      const log = (dir: 'up' | 'down', raw: string) => {
        try {
          this.wire.push({ t: performance.now(), wall: Date.now(), conn: id, dir, msg: JSON.parse(raw) as Obj });
        } catch {
          this.wire.push({ t: performance.now(), wall: Date.now(), conn: id, dir, msg: { unparsed: raw } });
        }
      };
      down.on('message', (raw) => {
        const text = String(raw);
        if (rec.close !== undefined) return;
        log('up', text);
        if (up.readyState === WebSocket.OPEN) up.send(text);
        else queue.push(text);
      });
      up.on('open', () => {
        for (const q of queue.splice(0)) up.send(q);
      });
      up.on('message', (raw) => {
        const text = String(raw);
        if (rec.close !== undefined) return;
        log('down', text);
        down.send(text);
      });
      for (const s of [down, up]) {
        s.on('close', close);
        s.on('error', close);
      }
    });
  }

  static async start(upstream: string): Promise<RecordingProxy> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    return new RecordingProxy(wss, upstream);
  }

  get url(): string {
    const a = this.wss.address() as { port: number };
    return `ws://127.0.0.1:${a.port}`;
  }

  drop(): void {
    for (const p of [...this.pairs]) {
      p.down.terminate();
      p.up.terminate();
    }
  }

  refuse(on: boolean): void {
    this.refusing = on;
  }

  async close(): Promise<void> {
    this.drop();
    await new Promise<void>((r) => this.wss.close(() => r()));
  }
}

// ------------------------------------------------------------------ the robot side

/**
 * The robot: a rosbridge client that publishes its e-stop and battery, and
 * serves a ROS 1 actionlib action. When rosbridge restarts it connects again
 * and advertises and subscribes anew, as a robot's nodes do.
 */
export class RobotSide {
  private readonly timers: Array<ReturnType<typeof setInterval>> = [];
  private readonly handlers = new Map<string, (m: Obj) => void>();
  /** Advertisements and subscriptions, made again on each connection. */
  private readonly setup: unknown[] = [];
  private closing = false;

  private constructor(
    private ws: WebSocket,
    readonly url: string,
    readonly ros: 1 | 2,
  ) {
    this.attach();
  }

  private attach(): void {
    this.ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Obj;
      if (m['op'] === 'publish') this.handlers.get(String(m['topic']))?.((m['msg'] as Obj) ?? {});
    });
    this.ws.on('error', () => undefined);
    this.ws.on('close', () => {
      if (this.closing) return;
      const again = setTimeout(() => {
        this.ws = new WebSocket(this.url);
        this.ws.on('open', () => {
          for (const m of this.setup) this.ws.send(pythonJson(m));
        });
        this.attach();
      }, 100);
      this.timers.push(again);
    });
  }

  static async connect(url: string, ros: 1 | 2): Promise<RobotSide> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new RobotSide(ws, url, ros);
  }

  send(m: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(pythonJson(m));
  }

  private keep(m: unknown): void {
    this.setup.push(m);
    this.send(m);
  }

  advertise(topic: string, type: string, latch: boolean): void {
    this.keep({ op: 'advertise', id: `adv:${topic}`, topic, type: spell(type, this.ros, 'msg'), latch, queue_size: 10 });
  }

  publish(topic: string, msg: Json): void {
    this.send({ op: 'publish', topic, msg: materialise(msg, this.ros) });
  }

  every(topic: string, msg: Json, ms: number, forMs: number): void {
    this.publish(topic, msg);
    const t = setInterval(() => this.publish(topic, msg), ms);
    this.timers.push(t);
    this.timers.push(setTimeout(() => clearInterval(t), forMs));
  }

  /** A ROS 1 actionlib server: a goal runs `goalMs`, or ends PREEMPTED when cancelled. */
  actionlib(action: string, type: string, goalMs: number): void {
    const base = spell(type, 1, 'action').replace(/Action$/, '');
    const header = { seq: 0, stamp: { secs: 0, nsecs: 0 }, frame_id: '' };
    const active = new Map<string, ReturnType<typeof setTimeout>>();
    this.advertise(`${action}/status`, 'actionlib_msgs/GoalStatusArray', false);
    this.advertise(`${action}/feedback`, `${base}ActionFeedback`, false);
    this.advertise(`${action}/result`, `${base}ActionResult`, false);
    const status = (id: string, s: number) => ({ goal_id: { id, stamp: { secs: 0, nsecs: 0 } }, status: s, text: '' });
    const end = (id: string, s: number) => {
      clearTimeout(active.get(id));
      active.delete(id);
      this.send({ op: 'publish', topic: `${action}/result`, msg: { header, status: status(id, s), result: {} } });
    };
    this.timers.push(
      setInterval(
        () =>
          this.send({
            op: 'publish',
            topic: `${action}/status`,
            msg: { header, status_list: [...active.keys()].map((id) => status(id, 1)) },
          }),
        200,
      ),
    );
    this.handlers.set(`${action}/goal`, (m) => {
      const id = String((m['goal_id'] as Obj | undefined)?.['id'] ?? '');
      active.set(
        id,
        setTimeout(() => end(id, 3), goalMs),
      );
    });
    this.handlers.set(`${action}/cancel`, (m) => {
      const id = String(m['id'] ?? '');
      for (const g of [...active.keys()]) if (id === '' || id === g) end(g, 2);
    });
    this.keep({ op: 'subscribe', id: `sub:${action}/goal`, topic: `${action}/goal`, type: `${base}ActionGoal` });
    this.keep({ op: 'subscribe', id: `sub:${action}/cancel`, topic: `${action}/cancel`, type: 'actionlib_msgs/GoalID' });
  }

  close(): void {
    this.closing = true;
    for (const t of this.timers) clearTimeout(t);
    this.ws.terminate();
  }
}
