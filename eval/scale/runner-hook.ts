// The runner's hook for evaluation at scale: how many cases each thread keeps in
// flight (--concurrency spread over --jobs threads), the rate limits spread the
// same way, the price table applied to each row as it is recorded, which case ×
// trials belong to this shard (--shard K/N), who runs the cases (threads here,
// or a queue's workers), and the memory held per case in flight.
import type { ResultInput } from '../results/index';
import { hash32 } from '../reference/rng';
import type { Slot } from '../runner/executors';
import type { WorkerInit } from '../runner/protocol';
import type { RunContent } from '../results/identity';
import { BUILTIN_PRICES, type PriceTable, priceOf } from './prices';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export interface ScaleOptions {
  /** Cases waiting on the model at once in this process (default 1). */
  concurrency?: number;
  rpm?: number;
  tpm?: number;
  prices?: PriceTable;
  shard?: Shard;
  /** The run's id (shards of one run share it, so `report` merges them). */
  runId?: string;
  /** Registers the run id's content where others may use the same id (the queue's Redis); throws when it was another's. */
  claim?: (runId: string, content: RunContent) => Promise<void>;
  /** Who runs the cases instead of this process's threads (the queue). */
  slots?: (init: WorkerInit, runId: string) => Promise<Slot[]>;
}

export interface ScaleFigures {
  /** Physics threads running the cases (--jobs; 1 with a queue, whose workers run them). */
  jobs: number;
  concurrency: number;
  /** Most case × trials in flight at once. */
  maxInFlight: number;
  rssStartMb: number;
  rssPeakMb: number;
  /** (peak − start) / most in flight: an upper bound on the memory one case in flight holds, its world included. */
  mbPerCaseInFlight: number | null;
}

export interface ScaleRun {
  init: Pick<WorkerInit, 'concurrency' | 'rates'>;
  mine(caseId: string, trial: number): boolean;
  priced(r: ResultInput): ResultInput;
  track<T>(p: Promise<T>): Promise<T>;
  stop(): void;
  readonly figures: ScaleFigures;
}

/** Which shard a case × trial belongs to: a hash of its id, so adding a case does not move the others. */
export function shardOf(caseId: string, trial: number, count: number): number {
  return (hash32(`${caseId}#${trial}`) % count) + 1;
}

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

export function startScale(o: ScaleOptions | undefined, jobs: number, model: string): ScaleRun {
  const concurrency = o?.concurrency ?? 1;
  const threads = o?.slots ? 1 : jobs;
  const perThread = Math.max(1, Math.ceil(concurrency / threads));
  const split = (v: number | undefined) => (v === undefined ? undefined : v / threads);
  const rates = o?.rpm !== undefined || o?.tpm !== undefined ? { rpm: split(o?.rpm), tpm: split(o?.tpm) } : undefined;
  const prices = o?.prices ?? BUILTIN_PRICES;
  const start = process.memoryUsage().rss;
  let peak = start;
  let inFlight = 0;
  const figures: ScaleFigures = {
    jobs: threads,
    concurrency,
    maxInFlight: 0,
    rssStartMb: mb(start),
    rssPeakMb: mb(start),
    mbPerCaseInFlight: null,
  };
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
    figures.rssPeakMb = mb(peak);
    figures.mbPerCaseInFlight = figures.maxInFlight ? mb((peak - start) / figures.maxInFlight) : null;
  };
  const timer = setInterval(sample, 200);
  timer.unref();
  return {
    init: {
      ...(perThread > 1 ? { concurrency: perThread } : {}),
      ...(rates ? { rates: Object.fromEntries(Object.entries(rates).filter(([, v]) => v !== undefined)) } : {}),
    },
    mine: (caseId, trial) => !o?.shard || shardOf(caseId, trial, o.shard.count) === o.shard.index,
    priced(r) {
      if (r.costUsd !== undefined && r.costUsd !== null) return r;
      if (r.tokensIn === undefined || r.tokensIn === null || r.tokensOut === undefined || r.tokensOut === null) return r;
      const cost = priceOf(prices, model, r.tokensIn, r.tokensOut);
      return cost === undefined ? r : { ...r, costUsd: cost };
    },
    async track(p) {
      inFlight++;
      figures.maxInFlight = Math.max(figures.maxInFlight, inFlight);
      try {
        return await p;
      } finally {
        sample();
        inFlight--;
      }
    },
    stop() {
      clearInterval(timer);
      sample();
    },
    figures,
  };
}
