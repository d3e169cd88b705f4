// One rosbridge connection (protocol v2, roslib 2.x as the transport and
// message router), made dependable for a robot: every call fails at once with
// the reason while disconnected (roslib would queue it until a reconnect), calls
// in flight fail when the connection drops, topic subscriptions are renewed on
// each connection, and the connection comes back by itself with backoff.
// Actions: ROS 2's native send_action_goal / action_feedback / action_result /
// cancel_action_goal (rosbridge 2.x), or ROS 1's actionlib over its five topics.
// Every goal ends within its timeout plus GOAL_GRACE_MS: a cancel the robot
// does not confirm in that time ends the goal anyway, saying so. A goal the
// link dropped under is cancelled first thing when the link is back: neither
// rosbridge cancels the goals of a client that went away.
import { Ros } from 'roslib';

/** How long a cancelled goal may take to confirm before it ends unconfirmed. */
export const GOAL_GRACE_MS = 5000;
/** How long a connection must last before the cancels it carried for dropped goals count as delivered. */
export const ORPHAN_HOLD_MS = 2000;
/** How long a ROS 1 goal waits for its action server's first status message before it is not sent. */
export const SERVER_WAIT_MS = 3000;

/** A `status` message from rosbridge (the protocol's error/warning report). */
export interface RosStatus {
  id?: string;
  level: string;
  msg: string;
}

export class RosbridgeError extends Error {
  override name = 'RosbridgeError';
}

export type GoalEnd =
  | { status: 'succeeded'; values: unknown }
  | { status: 'failed'; values: unknown; code: number }
  | { status: 'cancelled'; values: unknown }
  /** Timed out and cancelled; `confirmed` when the robot confirmed the cancel within the grace. */
  | { status: 'timeout'; values: undefined; confirmed: boolean }
  /** Cancelled by the caller, and the robot did not confirm within the grace. */
  | { status: 'unconfirmed'; values: undefined }
  | { status: 'dropped'; values: undefined }
  /** Not sent: the caller's check refused it, or the call was stopped, just before sending. */
  | { status: 'refused'; values: undefined; why: string }
  /** ROS 1: no action server answered (no status message); the goal was not sent. */
  | { status: 'no_server'; values: undefined };

/** action_msgs/GoalStatus (ROS 2) and actionlib_msgs/GoalStatus (ROS 1) codes that end a goal. */
const ROS2 = { SUCCEEDED: 4, CANCELED: 5, ABORTED: 6 };
const ROS1 = { PREEMPTED: 2, SUCCEEDED: 3, ABORTED: 4, REJECTED: 5, RECALLED: 8 };

type Msg = Record<string, unknown>;

export class RosConnection {
  private ros = new Ros({});
  private connected = false;
  private closing = false;
  private attempt = 0;
  private lastError = 'not connected yet';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private seq = 0;
  private readonly pending = new Set<(why: string) => void>();
  private readonly subs = new Map<string, { type: string; listeners: Set<(m: unknown) => void> }>();
  private readonly stateListeners = new Set<(connected: boolean, why: string) => void>();
  private readonly statusListeners = new Set<(s: RosStatus) => void>();
  /** Cancels of goals the link dropped under, sent first when it is back. */
  private orphans: Array<{ ros: 1 | 2; action: string; id: string }> = [];
  /** ROS 1 action servers: when each last published a status message (this connection). */
  private readonly serverSeen = new Map<string, number>();
  /** Counts connections: readings from an earlier one are not current. */
  epoch = 0;

  constructor(readonly url: string) {
    this.ros.on('connection', () => {
      this.connected = true;
      this.attempt = 0;
      this.epoch++;
      this.serverSeen.clear();
      this.cancelOrphans();
      for (const [topic, s] of this.subs) this.sendTracked({ op: 'subscribe', id: `sub:${topic}`, topic, type: s.type });
      for (const l of this.stateListeners) l(true, 'connected');
    });
    this.ros.on('status', (m: unknown) => this.handleStatus(m));
    this.ros.on('close', () => this.lost('the connection closed'));
    this.ros.on('error', () => {
      this.lastError = 'the connection failed';
    });
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /** Every `status` message rosbridge sends (errors and warnings about our ops). */
  onStatus(l: (s: RosStatus) => void): () => void {
    this.statusListeners.add(l);
    return () => this.statusListeners.delete(l);
  }

  private handleStatus(m: unknown): void {
    const r = m as { id?: unknown; level?: unknown; msg?: unknown };
    const s: RosStatus = {
      level: String(r.level ?? 'error'),
      msg: String(r.msg ?? ''),
      ...(r.id !== undefined ? { id: String(r.id) } : {}),
    };
    for (const l of [...this.statusListeners]) l(s);
  }

  /** Sends an op with an id, and routes rosbridge's status replies about it to the status listeners. */
  private sendTracked(msg: Msg & { id: string }): void {
    const key = `status:${msg.id}`;
    if (this.ros.listeners(key).length === 0) this.ros.on(key, (m: unknown) => this.handleStatus(m));
    this.send(msg);
  }

  onState(l: (connected: boolean, why: string) => void): () => void {
    this.stateListeners.add(l);
    return () => this.stateListeners.delete(l);
  }

  /** The first connection: resolves when connected, or rejects with the reason after `timeoutMs`. */
  async open(timeoutMs: number): Promise<void> {
    const ok = new Promise<void>((resolve) => this.ros.once('connection', () => resolve()));
    // The first attempt failing is the answer: nothing listens there (no waiting out the timeout).
    const refused = new Promise<never>((_r, reject) =>
      this.ros.once('close', () =>
        reject(new RosbridgeError(`rosbridge at ${this.url} refused the connection (${this.lastError}); is rosbridge_server running?`)),
      ),
    );
    refused.catch(() => undefined);
    await this.connect();
    let t: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_r, reject) => {
      t = setTimeout(
        () =>
          reject(
            new RosbridgeError(`rosbridge at ${this.url} did not accept a connection within ${timeoutMs / 1000} s (${this.lastError})`),
          ),
        timeoutMs,
      );
    });
    try {
      await Promise.race([ok, late, refused]);
    } finally {
      clearTimeout(t);
    }
  }

  private async connect(): Promise<void> {
    try {
      await this.ros.connect(this.url);
    } catch (e) {
      this.lost(e instanceof Error ? e.message : String(e));
    }
  }

  private lost(why: string): void {
    const was = this.connected;
    this.connected = false;
    this.lastError = why;
    for (const fail of [...this.pending]) fail(why);
    this.pending.clear();
    if (was) for (const l of this.stateListeners) l(false, why);
    if (this.closing) return;
    clearTimeout(this.timer);
    const delay = Math.min(10_000, 200 * 2 ** this.attempt++);
    this.timer = setTimeout(() => void this.connect(), delay);
    this.timer.unref?.();
  }

  close(): void {
    this.closing = true;
    clearTimeout(this.timer);
    for (const fail of [...this.pending]) fail('the robot source was closed');
    this.ros.close();
  }

  /**
   * Sends the cancels of the goals the link dropped under. They are kept until
   * a connection has lasted ORPHAN_HOLD_MS: one that drops at once (a flapping
   * link) may not have carried them, and the next connection says them again.
   */
  private cancelOrphans(): void {
    const epoch = this.epoch;
    const orphans = [...this.orphans];
    if (!orphans.length) return;
    const send = () => {
      if (!this.connected || this.epoch !== epoch) return;
      for (const g of orphans) this.sendCancel(g.ros, g.action, g.id);
    };
    send();
    // A ROS 1 publisher rosbridge makes anew may lose its first messages while subscribers connect: say it again.
    if (orphans.some((g) => g.ros === 1)) for (const ms of [300, 1000]) setTimeout(send, ms).unref?.();
    setTimeout(() => {
      if (this.connected && this.epoch === epoch) this.orphans = this.orphans.filter((g) => !orphans.includes(g));
    }, ORPHAN_HOLD_MS).unref?.();
  }

  private sendCancel(ros: 1 | 2, action: string, id: string): void {
    if (ros === 2) this.send({ op: 'cancel_action_goal', id, action });
    else {
      this.sendTracked({ op: 'advertise', id: `adv:${action}/cancel`, topic: `${action}/cancel`, type: 'actionlib_msgs/GoalID' });
      this.send({ op: 'publish', topic: `${action}/cancel`, msg: { id, stamp: { secs: 0, nsecs: 0 } } });
    }
  }

  /** Throws the reason when there is no connection now (instead of queueing the call). */
  ensure(what: string): void {
    if (!this.connected)
      throw new RosbridgeError(
        `not connected to rosbridge at ${this.url} (${this.lastError}); ${what} was not sent. Reconnecting (attempt ${this.attempt}).`,
      );
  }

  private send(msg: Msg): void {
    this.ros.callOnConnection(msg as never);
  }

  publish(topic: string, type: string, msg: Msg): void {
    this.ensure(`publishing on ${topic}`);
    this.sendTracked({ op: 'advertise', id: `adv:${topic}`, topic, type });
    this.send({ op: 'publish', topic, msg });
  }

  /**
   * Keeps a subscription across reconnects; returns the unsubscribe. Every
   * message goes to the listeners as it came, whatever its shape (null, a
   * string, absent): a listener that drops what it cannot read would keep the
   * reading before it.
   */
  subscribe(topic: string, type: string, listener: (m: unknown) => void): () => void {
    let s = this.subs.get(topic);
    if (!s) {
      s = { type, listeners: new Set() };
      this.subs.set(topic, s);
      const entry = s;
      this.ros.on(topic, (m: unknown) => {
        const msg = m !== null && typeof m === 'object' ? (m as { msg?: unknown }).msg : undefined;
        for (const l of [...entry.listeners]) l(msg);
      });
      if (this.connected) this.sendTracked({ op: 'subscribe', id: `sub:${topic}`, topic, type });
    }
    s.listeners.add(listener);
    return () => s.listeners.delete(listener);
  }

  /** Calls a service; rejects with the reason (disconnected, dropped, failed, too slow). */
  callService(service: string, type: string, args: Msg, timeoutMs: number): Promise<unknown> {
    this.ensure(`the call to ${service}`);
    const id = `call:${service}:${++this.seq}`;
    return new Promise((resolve, reject) => {
      const done = (f: () => void) => {
        clearTimeout(timer);
        this.pending.delete(fail);
        this.ros.off(id, onMsg);
        f();
      };
      const fail = (why: string) => done(() => reject(new RosbridgeError(`the call to ${service} failed: ${why}`)));
      const onMsg = (m: unknown) => {
        const r = m as { result?: boolean; values?: unknown };
        done(() =>
          r.result === false
            ? reject(new RosbridgeError(`${service} answered with a failure: ${JSON.stringify(r.values ?? '')}`))
            : resolve(r.values),
        );
      };
      const timer = setTimeout(() => fail(`no answer within ${timeoutMs / 1000} s`), timeoutMs);
      this.pending.add(fail);
      this.ros.on(id, onMsg);
      this.send({ op: 'call_service', id, service, type, args });
    });
  }

  /**
   * ROS 1: subscribes to an actionlib server's status, feedback and result
   * topics now and for good, so a goal's result, however fast, finds the
   * subscription connected (a subscription made with the goal misses it).
   */
  prepareActionlib(action: string, type: string): void {
    const base = actionBase(type);
    this.subscribe(`${action}/status`, 'actionlib_msgs/GoalStatusArray', () => this.serverSeen.set(action, Date.now()));
    this.subscribe(`${action}/feedback`, `${base}ActionFeedback`, () => undefined);
    this.subscribe(`${action}/result`, `${base}ActionResult`, () => undefined);
  }

  private async serverUp(action: string, waitMs: number): Promise<boolean> {
    for (let t = 0; t < waitMs && !this.serverSeen.has(action) && this.connected; t += 50) await new Promise((r) => setTimeout(r, 50));
    return this.serverSeen.has(action);
  }

  /**
   * Sends an action goal and resolves when it ends: succeeded, failed (with the
   * status code), cancelled (after `signal` aborts), dropped (the connection
   * went), timeout (cancelled after `timeoutMs`) — always within `timeoutMs` +
   * GOAL_GRACE_MS, whether or not the robot answers the cancel. `mayStart`
   * is asked just before the goal leaves (after any wait for a ROS 1 server):
   * a reason refuses it, and nothing is sent.
   */
  async sendGoal(
    ros: 1 | 2,
    action: string,
    type: string,
    goal: Msg,
    o: {
      signal?: AbortSignal;
      timeoutMs: number;
      graceMs?: number;
      onFeedback?: (values: Msg) => void;
      mayStart?: () => string | undefined;
    },
  ): Promise<GoalEnd> {
    this.ensure(`the goal for ${action}`);
    if (ros === 1) {
      this.prepareActionlib(action, type);
      if (!(await this.serverUp(action, SERVER_WAIT_MS))) return { status: 'no_server', values: undefined };
      this.ensure(`the goal for ${action}`);
    }
    const graceMs = o.graceMs ?? GOAL_GRACE_MS;
    const id = `goal:${action}:${Date.now().toString(36)}:${++this.seq}`;
    return new Promise((resolve) => {
      // Checked in the same turn as the send below: nothing can change the answer in between.
      const no = o.signal?.aborted ? 'the call was stopped before the goal was sent' : o.mayStart?.();
      if (no !== undefined) return resolve({ status: 'refused', values: undefined, why: no });
      let timedOut = false;
      let grace: ReturnType<typeof setTimeout> | undefined;
      const cleanups: Array<() => void> = [];
      const finish = (end: GoalEnd) => {
        clearTimeout(timer);
        clearTimeout(grace);
        this.pending.delete(drop);
        o.signal?.removeEventListener('abort', cancel);
        for (const c of cleanups) c();
        resolve(
          timedOut && end.status !== 'dropped' && end.status !== 'timeout'
            ? { status: 'timeout', values: undefined, confirmed: true }
            : end,
        );
      };
      const drop = () => {
        this.orphans.push({ ros, action, id });
        finish({ status: 'dropped', values: undefined });
      };
      const cancel = () => {
        if (grace) return;
        grace = setTimeout(
          () =>
            finish(timedOut ? { status: 'timeout', values: undefined, confirmed: false } : { status: 'unconfirmed', values: undefined }),
          graceMs,
        );
        if (this.connected) this.sendCancel(ros, action, id);
      };
      const timer = setTimeout(() => {
        timedOut = true;
        cancel();
      }, o.timeoutMs);
      this.pending.add(drop);
      o.signal?.addEventListener('abort', cancel, { once: true });

      if (ros === 2) {
        const onMsg = (m: unknown) => {
          const r = m as { op?: string; values?: Msg; status?: number; result?: boolean };
          if (r.op === 'action_feedback') return o.onFeedback?.(r.values ?? {});
          if (r.op !== 'action_result') return;
          const s = r.status ?? -1;
          if (s === ROS2.SUCCEEDED && r.result !== false) finish({ status: 'succeeded', values: r.values });
          else if (s === ROS2.CANCELED) finish({ status: 'cancelled', values: r.values });
          else finish({ status: 'failed', values: r.values, code: s });
        };
        this.ros.on(id, onMsg);
        cleanups.push(() => this.ros.off(id, onMsg));
        this.sendTracked({ op: 'send_action_goal', id, action, action_type: type, args: goal, feedback: true });
      } else {
        // actionlib: goal, cancel, status, feedback and result topics under the action's name.
        const base = actionBase(type);
        const mine = (m: unknown): m is Msg => (dig(m, ['status', 'goal_id', 'id']) as string | undefined) === id;
        cleanups.push(
          this.subscribe(`${action}/feedback`, `${base}ActionFeedback`, (m) => {
            if (mine(m)) o.onFeedback?.((m['feedback'] as Msg) ?? {});
          }),
          this.subscribe(`${action}/result`, `${base}ActionResult`, (m) => {
            if (!mine(m)) return;
            const s = (dig(m, ['status', 'status']) as number | undefined) ?? -1;
            const values = m['result'];
            if (s === ROS1.SUCCEEDED) finish({ status: 'succeeded', values });
            else if (s === ROS1.PREEMPTED || s === ROS1.RECALLED) finish({ status: 'cancelled', values });
            else finish({ status: 'failed', values, code: s });
          }),
        );
        this.sendTracked({ op: 'advertise', id: `adv:${action}/goal`, topic: `${action}/goal`, type: `${base}ActionGoal` });
        this.sendTracked({ op: 'advertise', id: `adv:${action}/cancel`, topic: `${action}/cancel`, type: 'actionlib_msgs/GoalID' });
        this.send({
          op: 'publish',
          topic: `${action}/goal`,
          msg: { header: { seq: 0, stamp: { secs: 0, nsecs: 0 }, frame_id: '' }, goal_id: { id, stamp: { secs: 0, nsecs: 0 } }, goal },
        });
      }
      if (o.signal?.aborted) cancel();
    });
  }
}

/** ROS 1 actionlib's message prefix: move_base_msgs/MoveBaseAction → move_base_msgs/MoveBase. */
function actionBase(type: string): string {
  return type.replace(/\/action\//, '/').replace(/Action$/, '');
}

/** A value at a dotted path (numbers index arrays). */
export function dig(value: unknown, path: string[] | string): unknown {
  const parts = typeof path === 'string' ? path.split('.') : path;
  let v: unknown = value;
  for (const p of parts) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}
