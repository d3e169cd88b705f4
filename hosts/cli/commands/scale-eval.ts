// eval's options for evaluation at scale (cases in flight, rate limits, prices,
// shards, the queue) and the line that reports them.
import type { EvalResult } from '../../../eval/runner/runner';
import type { ScaleOptions } from '../../../eval/scale/runner-hook';
import { type Parsed, UsageError, stringFlag } from '../args';
import { checkQueueUrl, scaleOptions } from './scale-flags';

export async function queueScale(p: Parsed, opts: { namesRuns?: boolean } = {}): Promise<ScaleOptions> {
  const o = scaleOptions(p, opts);
  const url = stringFlag(p.flags, 'queue');
  if (url === undefined) return o;
  if (o.concurrency !== undefined || o.rpm !== undefined || o.tpm !== undefined)
    throw new UsageError('with --queue the workers run the cases: give --concurrency, --rpm and --tpm to "skillbridge worker" instead');
  checkQueueUrl(url);
  const { checkQueue, claimRun, queueSlots } = await import('../../../eval/scale/queue');
  const { queueSecret } = await import('../../../eval/scale/queue-protocol');
  await checkQueue(url);
  let secret;
  try {
    secret = queueSecret(process.env);
  } catch (e) {
    throw new UsageError(`--queue: ${(e as Error).message}`);
  }
  return {
    ...o,
    claim: (runId, content) => claimRun(url, runId, content, secret),
    slots: (init, runId) => queueSlots(url, init, runId, secret),
  };
}

/** Cases in flight and the memory they held, where more than one ran at once. */
export function scaleLine(r: EvalResult): string | undefined {
  const f = r.timings.scale;
  if (f.maxInFlight <= 1 && f.concurrency <= 1) return undefined;
  const per = f.mbPerCaseInFlight === null ? '–' : `${f.mbPerCaseInFlight} MB`;
  return `  in flight: up to ${f.maxInFlight} (--concurrency ${f.concurrency}${f.jobs > 1 ? ` over --jobs ${f.jobs}` : ''}); memory ${f.rssStartMb} → ${f.rssPeakMb} MB peak RSS, ≤ ${per} per case in flight (worlds included)`;
}
