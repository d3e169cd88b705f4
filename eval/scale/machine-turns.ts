// Cases in flight on one thread take turns at the machine. All of a case's own work — its
// physics, tools, prompts, trace — runs on this thread, so with many cases in flight a case
// whose model has answered would wait, unseen, for the others' work, and that wait would eat
// its turn time limit (RAIDER's 20 s): the score would fall as concurrency rises. So a case
// holds the machine while it works and lets go only while it waits for its model; then it
// queues (first come, first served) to get the machine back, and its clock stands still while
// it queues. The time limit counts the model's time and the case's own work, whatever else runs.
import type { Model } from '../../agents/models/model';

/** A case's own clock, in ms: wall time less the time it queued for the machine. */
export class CaseClock {
  private waitedMs = 0;
  private waiting = 0;
  private since = 0;
  readonly now = (): number => performance.now() - this.waited();
  /** Time queued so far (ms). */
  waited(): number {
    return this.waitedMs + (this.waiting > 0 ? performance.now() - this.since : 0);
  }
  startWait(): void {
    if (this.waiting++ === 0) this.since = performance.now();
  }
  endWait(): void {
    if (--this.waiting === 0) this.waitedMs += performance.now() - this.since;
  }
}

/** One thread's machine: which case holds it (with how many of its activities), who queues. */
export class MachineTurns {
  private holder: object | undefined;
  private active = 0;
  private readonly queue: Array<{ who: object; go: () => void }> = [];
  /** Cases that have finished: what of theirs still runs (a model call a stop left behind) needs no turn. */
  private readonly finished = new WeakSet<object>();

  /** One activity of `who` starts; resolves when `who` holds the machine (the clock stands still until then). */
  async enter(who: object, clock: CaseClock): Promise<void> {
    if (this.finished.has(who)) return;
    if (this.holder === undefined || this.holder === who) {
      this.holder = who;
      this.active++;
      return;
    }
    clock.startWait();
    // handOver counts this activity before letting it in.
    await new Promise<void>((go) => this.queue.push({ who, go }));
    clock.endWait();
  }

  /** One activity of the holder ends (or waits for its model): the last one hands the machine on. */
  leave(who: object): void {
    if (this.holder !== who) return;
    if (--this.active === 0) this.handOver();
  }

  /** `who` has finished: it lets go of the machine whatever of it still runs, and never queues again. */
  done(who: object): void {
    this.finished.add(who);
    const mine = this.queue.filter((q) => q.who === who);
    for (const q of mine) {
      this.queue.splice(this.queue.indexOf(q), 1);
      q.go();
    }
    if (this.holder === who) {
      this.active = 0;
      this.handOver();
    }
  }

  private handOver(): void {
    const next = this.queue[0];
    this.holder = next?.who;
    if (!next) return;
    // Every queued activity of that case goes in together.
    const group = this.queue.filter((q) => q.who === next.who);
    for (const q of group) this.queue.splice(this.queue.indexOf(q), 1);
    this.active += group.length;
    for (const q of group) q.go();
  }
}

/** A case's model that lets go of the machine while it waits for an answer, and queues to get it back. */
export function releasingWhileWaiting(model: Model, turns: MachineTurns, who: object, clock: CaseClock): Model {
  return {
    id: model.id,
    ...(model.input ? { input: model.input } : {}),
    async complete(req) {
      turns.leave(who);
      try {
        return await model.complete(req);
      } finally {
        await turns.enter(who, clock);
      }
    },
  };
}
