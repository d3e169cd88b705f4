// The rosbridge safety fuzzer's oracle: what was received and sent, judged
// apart from the client (see rosbridge-safety.ts).
import { REPLAY_WINDOW_MS } from '../../robot/rosbridge/topic-reader';
import { type Obj } from './rosbridge-safety-cases';

// ------------------------------------------------------------------ the oracle

export interface Seen {
  /** performance.now() at the proxy */
  t: number;
  /** Date.now() at the proxy */
  wall: number;
  conn: number;
  msg: unknown;
}

/** What the client received and when, and its connections: all the oracle reads. */
export interface Observed {
  estop: Seen[];
  battery?: Seen[];
  conns: Array<{ id: number; open: number; close?: number }>;
  maxAgeS: number;
  critical: number;
}

export const own = (o: unknown, k: string): o is Obj => o !== null && typeof o === 'object' && !Array.isArray(o) && Object.hasOwn(o, k);

/** A header stamp in ms of wall time, 0 for none or zero, or 'bad'. Written apart from the client's. */
export function stampMs(msg: unknown): number | 'bad' {
  if (!own(msg, 'header')) return 0;
  const h = msg['header'];
  if (!own(h, 'stamp')) return 'bad';
  const s = h['stamp'];
  if (s === null || typeof s !== 'object' || Array.isArray(s)) return 'bad';
  const keys = Object.keys(s).sort().join(' ');
  const r = s as Obj;
  const [a, b] =
    keys === 'nsecs secs' ? [r['secs'], r['nsecs']] : keys === 'nanosec sec' ? [r['sec'], r['nanosec']] : [undefined, undefined];
  if (!Number.isInteger(a) || !Number.isInteger(b) || (a as number) < 0 || (b as number) < 0 || (b as number) >= 1e9) return 'bad';
  return (a as number) * 1000 + (b as number) / 1e6;
}

/**
 * Why the reading `list` gives at time `t` (wall `wall`) on connection `conn`
 * is not known, fresh and acceptable (`ok` judges the value), or undefined
 * when it is. `slack` widens every time bound: positive is lenient.
 */
export function readingProblem(
  list: Seen[],
  t: number,
  wall: number,
  conn: number,
  maxAgeS: number,
  slack: number,
  ok: (m: unknown) => string | undefined,
): string | undefined {
  const mine = list.filter((d) => d.conn === conn && d.t <= t);
  const last = mine.at(-1);
  if (!last) return 'nothing received on this connection';
  const bad = ok(last.msg);
  if (bad) return bad;
  const max = maxAgeS * 1000 + slack;
  const st = stampMs(last.msg);
  if (st === 'bad') return 'a malformed stamp';
  if (st && st - last.wall > max) return 'stamped in the future';
  const young = st > 0 && last.wall - st <= max;
  if (!young && last.t - mine[0]!.t < REPLAY_WINDOW_MS - slack) return 'only a possible replay so far';
  if (t - last.t > max) return `received ${Math.round(t - last.t)} ms ago`;
  if (st && wall - st > max) return `stamped ${Math.round(wall - st)} ms ago`;
  return undefined;
}

export const released = (m: unknown) => (own(m, 'data') && m['data'] === false ? undefined : `e-stop not released: ${JSON.stringify(m)}`);
export const charged = (critical: number) => (m: unknown) => {
  const p = own(m, 'percentage') ? m['percentage'] : undefined;
  const s = own(m, 'power_supply_status') ? m['power_supply_status'] : undefined;
  if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 1) return `battery unreadable: ${JSON.stringify(m)}`;
  if (typeof s !== 'number' || !Number.isFinite(s)) return 'battery status unreadable';
  return p * 100 > critical ? undefined : `battery critical (${p})`;
};

/** Why motion may not go at `t` on `conn`, or undefined when the last readings were known, fresh and released. */
export function notGreen(o: Observed, t: number, wall: number, conn: number, slack: number): string | undefined {
  const c = o.conns.find((x) => x.id === conn);
  if (!c || c.open > t || (c.close !== undefined && c.close <= t)) return 'the link is down';
  const e = readingProblem(o.estop, t, wall, conn, o.maxAgeS, slack, released);
  if (e) return `e-stop: ${e}`;
  if (o.battery) {
    const b = readingProblem(o.battery, t, wall, conn, o.maxAgeS, slack, charged(o.critical));
    if (b) return `battery: ${b}`;
  }
  return undefined;
}

/** The moments after `from` on `conn` at which the state may turn: deliveries, ages running out (plus `slack`), the link closing. */
export function turningPoints(o: Observed, from: number, conn: number, slack: number): number[] {
  const max = o.maxAgeS * 1000 + slack;
  const pts: number[] = [];
  for (const d of [...o.estop, ...(o.battery ?? [])]) {
    if (d.conn !== conn) continue;
    if (d.t > from) pts.push(d.t);
    pts.push(d.t + max + 1);
    const st = stampMs(d.msg);
    if (typeof st === 'number' && st > 0) pts.push(d.t + (st - d.wall) + max + 1);
  }
  const c = o.conns.find((x) => x.id === conn);
  if (c?.close !== undefined) pts.push(c.close);
  return pts.filter((p) => p > from).sort((a, b) => a - b);
}
