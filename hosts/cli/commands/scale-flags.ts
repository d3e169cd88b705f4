// The command-line flags of evaluation at scale, shared by eval, worker and
// sweep: --concurrency, --rpm, --tpm, --prices, --shard, --run-id.
import { loadPrices } from '../../../eval/scale/prices';
import { parseQueueUrl } from '../../../eval/scale/queue-protocol';
import type { ScaleOptions, Shard } from '../../../eval/scale/runner-hook';
import { type Parsed, UsageError, intFlag, numberFlag, stringFlag } from '../args';

export function parseShard(raw: string | undefined): Shard | undefined {
  if (raw === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(raw.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || count > 10_000 || index < 1 || index > count)
    throw new UsageError(`--shard must be K/N with 1 ≤ K ≤ N (e.g. --shard 2/4 for the second of four machines), got "${raw}"`);
  return { index, count };
}

export function concurrencyFlag(p: Parsed): number | undefined {
  return p.flags['concurrency'] === undefined ? undefined : intFlag(p.flags, 'concurrency', 1, { min: 1, max: 1024 });
}

export function rateFlags(p: Parsed): { rpm?: number; tpm?: number } {
  const rpm = p.flags['rpm'] === undefined ? undefined : numberFlag(p.flags, 'rpm', 0, { min: 0.001 });
  const tpm = p.flags['tpm'] === undefined ? undefined : numberFlag(p.flags, 'tpm', 0, { min: 1 });
  return { ...(rpm !== undefined ? { rpm } : {}), ...(tpm !== undefined ? { tpm } : {}) };
}

/** `namesRuns`: the command names each run itself (sweep), so shards of it agree without --run-id. */
export function scaleOptions(p: Parsed, opts: { namesRuns?: boolean } = {}): ScaleOptions {
  const concurrency = concurrencyFlag(p);
  const shard = parseShard(stringFlag(p.flags, 'shard'));
  const runId = stringFlag(p.flags, 'run-id');
  if (runId !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(runId))
    throw new UsageError(`--run-id must be letters, digits, ".", "_" or "-" (up to 100), got "${runId}"`);
  if (shard && !runId && !opts.namesRuns)
    throw new UsageError(
      '--shard needs --run-id ID, the same on every shard, so "skillbridge report DIR1 DIR2 …" merges the shards into one run',
    );
  const prices = stringFlag(p.flags, 'prices');
  return {
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...rateFlags(p),
    ...(prices ? { prices: loadPrices(prices) } : {}),
    ...(shard ? { shard } : {}),
    ...(runId ? { runId } : {}),
  };
}

/** A --queue URL checked as the queue's client reads it, so a malformed one is one line here, not a crash there. */
export function checkQueueUrl(url: string): string {
  if (!url.startsWith('redis://')) throw new UsageError(`--queue must be a redis:// URL (BullMQ on Redis), got "${url}"`);
  try {
    parseQueueUrl(url);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return url;
}
