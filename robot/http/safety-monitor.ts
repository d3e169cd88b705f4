// What the HTTP robot client last knew of the robot's safety: the last
// robot.safety answer (as Readings), a press seen on the event stream since,
// and the link (the robot reachable, its event stream connected). Every change
// is told to the listeners, so a motion job in flight is judged the moment a
// reading arrives, the stream drops or the robot restarts, not at its next poll.
import { z } from 'zod';
import type { SafetyState } from '../robot';
import { RobotConnectionError, type Wire } from './client';
import { type Declared, type HttpSafetyReading, type Link, motionBlock, parseSafety, toSafetyState, unreadable } from './safety-reading';

export interface StreamLink {
  readonly connected: boolean;
  readonly why: string | undefined;
}

export class SafetyMonitor {
  private last: HttpSafetyReading;
  private lastSentAt = -Infinity;
  private pressedAt: number | undefined;
  /** Why the robot could not be reached at the last read, while it could not. */
  private down: string | undefined;
  /** The robot does not answer robot.safety at all (404). */
  unanswered = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly wire: Wire,
    private readonly declared: Declared,
    /** The event stream, when the robot declares events. */
    private readonly stream: () => StreamLink | undefined,
  ) {
    this.last = unreadable('not read yet', declared);
  }

  /** Calls `fn` after every change; returns the unsubscribe. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }

  /** Reads robot.safety now; never throws (what it cannot read is unknown, and says why). */
  async read(timeoutMs: number): Promise<HttpSafetyReading> {
    const sentAt = performance.now();
    let next: { reading: HttpSafetyReading; down: string | undefined; unanswered: boolean };
    try {
      const { value } = await this.wire.call('POST', '/v1/query/robot.safety', {}, z.unknown(), { timeoutMs });
      next = { reading: parseSafety(value, sentAt, this.declared), down: undefined, unanswered: false };
    } catch (e) {
      const err = e instanceof RobotConnectionError ? e : undefined;
      const lost = err && (err.kind === 'unreachable' || err.kind === 'dropped' || err.kind === 'timeout');
      const unanswered = err?.status === 404;
      const why = unanswered ? 'the robot does not answer robot.safety' : `could not read it (${(e as Error).message})`;
      next = { reading: unreadable(why, this.declared), down: lost ? err.message : undefined, unanswered };
    }
    // Reads overlap (the watch, the safety chain, the page): an answer to an older request never replaces a newer one.
    if (sentAt < this.lastSentAt) return this.last;
    this.lastSentAt = sentAt;
    this.last = next.reading;
    this.down = next.down;
    this.unanswered = next.unanswered;
    this.changed();
    return this.last;
  }

  /**
   * The e-stop's last word on the event stream. A press holds from now until a
   * reading measured after it says otherwise; a release later on the stream
   * lifts that hold (it does not make the e-stop green: a reading must).
   */
  streamSaid(type: 'estop_pressed' | 'estop_released'): void {
    this.pressedAt = type === 'estop_pressed' ? performance.now() : undefined;
    this.changed();
  }

  /** The robot restarted (a new epoch on its stream): what it said before is no longer its state. */
  restarted(): void {
    this.last = unreadable('the robot restarted; its safety state has not been read since', this.declared);
    this.lastSentAt = performance.now();
    this.changed();
  }

  /** The event stream connected or dropped. */
  linkChanged(): void {
    this.changed();
  }

  link(): { link: Link; why?: string } {
    if (this.down) return { link: 'down', why: this.down };
    const s = this.stream();
    if (s && !s.connected) return { link: 'reconnecting', why: `its event stream is not connected: ${s.why ?? 'connecting'}` };
    return { link: 'up' };
  }

  /** Why motion may not start or go on now, or undefined (safety-reading.ts's motionBlock). */
  block(now = performance.now()): { why: string; pressed: boolean } | undefined {
    const l = this.link();
    return motionBlock(this.last, { now, link: l.link, ...(l.why ? { linkWhy: l.why } : {}), pressedAt: this.pressedAt });
  }

  /** The seam's SafetyState of the last reading. */
  state(now = performance.now(), noEstopDetail?: string): SafetyState {
    return toSafetyState(this.last, {
      now,
      link: this.link().link,
      pressedAt: this.pressedAt,
      ...(noEstopDetail ? { noEstopDetail } : {}),
    });
  }

  /** The last reading, as read. */
  get reading(): HttpSafetyReading {
    return this.last;
  }

  /** The robot's stated maximum age, ms, when known. */
  maxAgeMs(): number | undefined {
    return this.last.maxAgeS.known ? this.last.maxAgeS.value * 1000 : undefined;
  }
}
