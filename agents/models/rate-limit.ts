// Provider limits planned for, not only retried: requests and tokens per minute
// per model, shared by every caller in the process that uses the same limiter
// (every case in flight of an evaluation). A call waits for room in both
// one-minute windows before it goes out; its tokens are estimated from the
// request (4 characters a token) and corrected by the reply's usage. A 429 seen
// by any caller — the adapter's own retry, or an error that gets through —
// pauses every caller for the server's Retry-After (or a doubling backoff).
import { ModelError, type CompletionRequest, type Model } from './model';
import { sleep as abortableSleep } from '../../base/sleep';

export interface RateLimits {
  /** Requests per minute (undefined: unlimited). */
  rpm?: number;
  /** Prompt + completion tokens per minute (undefined: unlimited). */
  tpm?: number;
}

interface Spent {
  at: number;
  tokens: number;
}

const WINDOW_MS = 60_000;

export class RateLimiter {
  private spent: Spent[] = [];
  private pausedUntil = 0;
  private chain: Promise<void> = Promise.resolve();
  /** Time callers spent waiting for room (ms, summed) and 429 pauses seen. */
  readonly stats = { waitedMs: 0, pauses: 0 };

  constructor(
    readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void> = abortableSleep,
  ) {
    for (const [k, v] of Object.entries(limits))
      if (v !== undefined && (!Number.isFinite(v) || v <= 0)) throw new RangeError(`${k} must be a positive number, got ${v}`);
  }

  /** Waits until a call of about `tokens` fits both windows and no pause holds, then books it. Calls go out in arrival order. */
  acquire(tokens: number, signal?: AbortSignal): Promise<Spent> {
    const turn = this.chain.then(() => this.waitForRoom(tokens, signal));
    // One waiting caller that is aborted must not block the ones behind it.
    this.chain = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  private async waitForRoom(tokens: number, signal?: AbortSignal): Promise<Spent> {
    const t0 = this.now();
    for (;;) {
      if (signal?.aborted) throw new ModelError('the call was stopped while waiting for the rate limit', 'aborted');
      const now = this.now();
      this.spent = this.spent.filter((s) => s.at > now - WINDOW_MS);
      let wait = Math.max(0, this.pausedUntil - now);
      const { rpm, tpm } = this.limits;
      if (rpm !== undefined && this.spent.length >= rpm) wait = Math.max(wait, this.spent[this.spent.length - rpm]!.at + WINDOW_MS - now);
      if (tpm !== undefined) {
        // A single call larger than the whole budget goes out alone in an empty window.
        const need = Math.min(tokens, tpm);
        let used = this.spent.reduce((s, x) => s + x.tokens, 0);
        for (const s of this.spent) {
          if (used + need <= tpm) break;
          used -= s.tokens;
          wait = Math.max(wait, s.at + WINDOW_MS - now);
        }
      }
      if (wait <= 0) {
        const booked = { at: now, tokens };
        this.spent.push(booked);
        this.stats.waitedMs += now - t0;
        return booked;
      }
      await this.sleep(Math.ceil(wait), signal);
    }
  }

  /** Corrects a booked call's tokens from the reply's usage. */
  settle(booked: Spent, tokens: number): void {
    booked.tokens = tokens;
  }

  /** Every caller waits this long before its next call (a 429's Retry-After). */
  pause(ms: number): void {
    this.stats.pauses++;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }
}

/** About four characters a token: the booking before the reply says the real count. */
export function estimateTokens(req: CompletionRequest): number {
  let chars = 0;
  for (const m of req.messages) chars += (m.content ?? '').length + JSON.stringify('tool_calls' in m ? (m.tool_calls ?? []) : []).length;
  if (req.tools) chars += JSON.stringify(req.tools).length;
  return Math.ceil(chars / 4);
}

export interface RateLimitOptions {
  /** Times a call that ends in a 429 is tried again after the shared pause (default 4). */
  retries?: number;
  /** The first pause after a 429 without Retry-After (default 2 s; doubles each time). */
  backoffMs?: number;
}

/** The model, with every call going through the limiter. */
export function withRateLimit(model: Model, limiter: RateLimiter, opts: RateLimitOptions = {}): Model {
  const retries = opts.retries ?? 4;
  return {
    id: model.id,
    ...(model.input ? { input: model.input } : {}),
    async complete(req) {
      for (let attempt = 0; ; attempt++) {
        const booked = await limiter.acquire(estimateTokens(req), req.signal);
        let sawPause = false;
        try {
          const r = await model.complete({
            ...req,
            onRetry: (info) => {
              // The adapter retries a 429 itself; every other caller waits out the same delay.
              if (/429/.test(info.reason)) {
                sawPause = true;
                limiter.pause(info.delayMs);
              }
              req.onRetry?.(info);
            },
          });
          if (r.usage) limiter.settle(booked, r.usage.totalTokens || r.usage.promptTokens + r.usage.completionTokens);
          return r;
        } catch (e) {
          if (!(e instanceof ModelError) || e.kind !== 'rate_limit' || attempt >= retries || req.signal?.aborted) throw e;
          if (!sawPause) limiter.pause((opts.backoffMs ?? 2000) * 2 ** attempt);
        }
      }
    },
  };
}

const shared = new Map<string, RateLimiter>();

/** The process's one limiter for this model spec (created with these limits the first time). */
export function sharedRateLimiter(modelId: string, limits: RateLimits): RateLimiter {
  const key = `${modelId}\u0000${limits.rpm ?? ''}\u0000${limits.tpm ?? ''}`;
  let l = shared.get(key);
  if (!l) {
    l = new RateLimiter(limits);
    shared.set(key, l);
  }
  return l;
}
