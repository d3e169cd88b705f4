// skillbridge worker --queue URL: runs queued evaluation cases until Ctrl-C
// (the cases in hand finish first; a second Ctrl-C quits at once, and those
// cases go back to the queue when their locks expire).
import { runQueueWorker } from '../../../eval/scale/queue-worker';
import { type Parsed, UsageError, intFlag, requireFlag } from '../args';
import { type Output, json } from '../output';
import { checkQueueUrl, concurrencyFlag, rateFlags } from './scale-flags';

export async function workerCommand(p: Parsed, o: Output): Promise<number> {
  if (p.positionals.length) throw new UsageError(`worker takes no positional arguments, got "${p.positionals.join(' ')}"`);
  const url = requireFlag(p.flags, 'queue', 'the Redis URL the evaluation enqueues on, e.g. --queue redis://127.0.0.1:6379');
  checkQueueUrl(url);
  const concurrency = concurrencyFlag(p) ?? 1;
  const rates = rateFlags(p);
  const lockEnv = process.env['SKILLBRIDGE_QUEUE_LOCK_MS'];
  const lockMs = lockEnv ? intFlag({ lock: lockEnv }, 'lock', 30_000, { min: 500 }) : undefined;
  const asJson = Boolean(p.flags['json']);
  const ac = new AbortController();
  let sigs = 0;
  const onSignal = () => {
    sigs++;
    if (sigs === 1) {
      o.err('stopping: finishing the cases in hand (Ctrl-C again to quit at once; they go back to the queue)');
      ac.abort();
    } else process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const r = await runQueueWorker({
      url,
      concurrency,
      ...(Object.keys(rates).length ? { rates } : {}),
      ...(lockMs !== undefined ? { lockMs } : {}),
      env: process.env,
      signal: ac.signal,
      onLog: (l) => o.err(l),
    });
    if (asJson) json(o, r);
    else o.out(`worker stopped: ${r.done} case × trials run, ${r.errors} errors`);
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
