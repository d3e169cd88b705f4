// How old a reading is, and whether it is a replay. Every mapped topic (e-stop,
// battery, pose, detections) has one TopicReader; a reading counts only while
// all of these hold, and is unknown saying which does not:
// - it came on this connection, and the link is up;
// - its message parsed (./readings.ts);
// - its age is within maxAgeS by arrival AND, where the message has a
//   header.stamp (ROS 1 {secs, nsecs}, ROS 2 {sec, nanosec}), by its stamp
//   against this computer's clock. A zero stamp is "not stamped" (ROS's
//   convention): such a message is judged by arrival alone. A stamp more than
//   maxAgeS ahead of this clock is unknown (the clocks differ; the age cannot
//   be told); one less ahead counts as measured on arrival;
// - it is not a replay. On subscribing, rosbridge hands over what a latched
//   (ROS 1) or transient-local (ROS 2, up to 10 deep) publisher kept, however
//   old, at once. So the messages of a subscription's first REPLAY_WINDOW_MS
//   are taken as possible replays until a message arrives after that window,
//   unless a message's own stamp proves it young.
import { type Reading, known, unknown } from '../../base/reading';
import type { Freshness, SafetyState } from '../robot';

export type Link = SafetyState['link'];

/** Messages arriving within this long of a subscription's first one may be replays of old ones. */
export const REPLAY_WINDOW_MS = 500;

/** The time now, two ways: performance.now() for ages, Date.now() to compare with the robot's stamps. */
export interface ReaderClock {
  epoch: number;
  link: Link;
  /** performance.now() */
  now: number;
  /** Date.now() */
  wall: number;
}

/** A reading as it stands now: the value when known, why not otherwise, and its freshness for SafetyState. */
export interface Current<T> {
  reading: Reading<T>;
  freshness: Freshness;
  /** Seconds since it was measured (by stamp or arrival, whichever is older), when a message was received. */
  ageS?: number;
}

type Stamp = { kind: 'none' } | { kind: 'at'; wallMs: number } | { kind: 'bad'; why: string };

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** header.stamp as this computer's Date.now() milliseconds; none for a message without a header or with a zero stamp. */
export function stampOf(msg: unknown): Stamp {
  if (msg === null || typeof msg !== 'object' || !Object.prototype.hasOwnProperty.call(msg, 'header')) return { kind: 'none' };
  const h = (msg as { header: unknown }).header;
  if (h === null || typeof h !== 'object' || !Object.prototype.hasOwnProperty.call(h, 'stamp'))
    return { kind: 'bad', why: 'the message has a `header` without a `stamp`' };
  const s = (h as { stamp: unknown }).stamp as Record<string, unknown> | null;
  const bad: Stamp = { kind: 'bad', why: '`header.stamp` is not a ROS time ({secs, nsecs} on ROS 1, {sec, nanosec} on ROS 2)' };
  if (s === null || typeof s !== 'object') return bad;
  const sec = 'secs' in s ? s['secs'] : s['sec'];
  const ns = 'secs' in s ? s['nsecs'] : s['nanosec'];
  const keys = Object.keys(s).sort().join(',');
  if ((keys !== 'nsecs,secs' && keys !== 'nanosec,sec') || !isInt(sec) || !isInt(ns) || sec < 0 || ns < 0 || ns >= 1e9) return bad;
  if (sec === 0 && ns === 0) return { kind: 'none' };
  return { kind: 'at', wallMs: sec * 1000 + ns / 1e6 };
}

const s1 = (ms: number) => Math.round(ms / 100) / 10;

interface Last<T> {
  reading: Reading<T>;
  epoch: number;
  arrived: number;
  /** What the message said, for a person ("it said released"), when it parsed. */
  said?: string;
}

export class TopicReader<T> {
  private last: Last<T> | undefined;
  private first: { epoch: number; at: number } | undefined;

  constructor(
    readonly topic: string,
    /** The reading's name in messages ("the e-stop", "the battery"). */
    readonly what: string,
    readonly maxAgeS: number,
    private readonly parse: (msg: unknown, at: number) => Reading<T>,
    private readonly tell: (v: T) => string = () => '',
  ) {}

  /** Takes one message as it arrives; returns the reading it makes (known only when it may act). */
  receive(msg: unknown, c: ReaderClock): Reading<T> {
    if (!this.first || this.first.epoch !== c.epoch) this.first = { epoch: c.epoch, at: c.now };
    const r = this.judge(msg, c);
    this.last = { reading: r.reading, epoch: c.epoch, arrived: c.now, ...(r.said !== undefined ? { said: r.said } : {}) };
    return r.reading;
  }

  private judge(msg: unknown, c: ReaderClock): { reading: Reading<T>; said?: string } {
    const value = this.parse(msg, c.now);
    if (!value.known) return { reading: unknown(`the last message on ${this.topic} is unreadable: ${value.why}`) };
    const said = this.tell(value.value);
    const it = said ? ` (it said ${said})` : '';
    const stamp = stampOf(msg);
    if (stamp.kind === 'bad') return { reading: unknown(`the last message on ${this.topic}${it}: ${stamp.why}`), said };
    const maxMs = this.maxAgeS * 1000;
    const stampAge = stamp.kind === 'at' ? c.wall - stamp.wallMs : undefined;
    if (stampAge !== undefined && stampAge < -maxMs)
      return {
        reading: unknown(
          `the last message on ${this.topic}${it} is stamped ${s1(-stampAge)} s ahead of this computer's clock, so its age is unknown: synchronise the clocks (NTP)`,
        ),
        said,
      };
    const young = stampAge !== undefined && stampAge <= maxMs;
    if (!young && c.now - this.first!.at < REPLAY_WINDOW_MS)
      return {
        reading: unknown(
          `the only messages on ${this.topic}${it} came on subscribing and may be a latched replay of an old one${stampAge === undefined ? ' (unstamped)' : ''}; no live message since`,
        ),
        said,
      };
    return { reading: known(value.value, c.now - Math.max(0, stampAge ?? 0)), said };
  }

  /**
   * Whether waiting longer may tell more: until a message came on this
   * connection, and while it is unknown within the replay window plus maxAgeS
   * (the longest a live publisher may take to send its next message).
   */
  pending(c: ReaderClock): boolean {
    if (c.link !== 'up') return false;
    if (!this.last || this.last.epoch !== c.epoch) return true;
    return !this.last.reading.known && c.now - this.first!.at < REPLAY_WINDOW_MS + this.maxAgeS * 1000;
  }

  /** Whether a message came on this connection (a reading, known or not). */
  heard(c: ReaderClock): boolean {
    return this.last !== undefined && this.last.epoch === c.epoch;
  }

  /** The reading now: unknown with why unless it came on this connection, the link is up, it parsed, is no replay and is young enough. */
  current(c: ReaderClock): Current<T> {
    const l = this.last;
    if (!l) return { reading: unknown(`no message received yet on ${this.topic}`), freshness: 'unknown' };
    const measured = l.reading.known ? l.reading.at : l.arrived;
    const ageS = s1(c.now - measured);
    const it = l.said ? ` (it said ${l.said})` : '';
    if (c.link !== 'up')
      return {
        reading: unknown(
          `last received ${s1(c.now - l.arrived)} s ago; the link to rosbridge is ${c.link === 'down' ? 'closed' : 'down (reconnecting)'}${it}`,
        ),
        freshness: 'stale',
        ageS,
      };
    if (l.epoch !== c.epoch)
      return {
        reading: unknown(`last received ${s1(c.now - l.arrived)} s ago, before the connection was re-made; not received since${it}`),
        freshness: 'stale',
        ageS,
      };
    if (!l.reading.known) return { reading: l.reading, freshness: 'unknown', ageS };
    if (c.now - measured > this.maxAgeS * 1000) {
      const late = s1(l.arrived - measured);
      return {
        reading: unknown(
          `last received ${s1(c.now - l.arrived)} s ago${late > 0 ? `, stamped ${late} s before it arrived` : ''}, max ${this.maxAgeS} s${it}`,
        ),
        freshness: 'stale',
        ageS,
      };
    }
    return { reading: l.reading, freshness: 'fresh', ageS };
  }
}
