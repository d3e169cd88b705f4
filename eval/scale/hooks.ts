// What a thread running cases adds for evaluation at scale: each case in flight
// leases a world of its own when the thread runs several at once, and the model
// goes through the process's one rate limiter for that model (--rpm/--tpm); the
// cases take turns at the machine, each on a clock of its own (machine-turns.ts).
// Taps see every case's model in this process (the benchmark records the
// oracle's replies through one).
import type { Model } from '../../agents/models/model';
import { sharedRateLimiter, withRateLimit } from '../../agents/models/rate-limit';
import type { WorkerInit } from '../runner/protocol';
import { MachineTurns } from './machine-turns';
import { withResponseCache } from './response-cache';

export interface CaseHooks {
  lease?: boolean;
  wrapModel?: (m: Model) => Model;
  /** This thread's turns at the machine, when it runs several cases at once. */
  turns?: MachineTurns;
}

type Tap = (m: Model) => Model;
const taps = new Set<Tap>();

/** Wraps every case's model in this process until the returned function is called. */
export function tapModels(tap: Tap): () => void {
  taps.add(tap);
  return () => taps.delete(tap);
}

export function caseHooks(init: Pick<WorkerInit, 'model' | 'concurrency' | 'rates' | 'responseCache'>): CaseHooks {
  const rates = init.rates;
  const limited = rates && (rates.rpm !== undefined || rates.tpm !== undefined);
  return {
    ...((init.concurrency ?? 1) > 1 ? { lease: true, turns: new MachineTurns() } : {}),
    wrapModel: (m: Model) => {
      let out = limited ? withRateLimit(m, sharedRateLimiter(init.model, rates)) : m;
      // Outside the limiter: an answer from the cache spends none of the model's rate.
      if (init.responseCache) out = withResponseCache(out, init.responseCache);
      for (const t of taps) out = t(out);
      return out;
    },
  };
}
