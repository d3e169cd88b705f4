// skillbridge worker --queue URL: runs queued evaluation cases until Ctrl-C
// (the cases in hand finish first; a second Ctrl-C quits at once, and those
// cases go back to the queue when their locks expire). The queue is a door:
// a job runs only when signed with the queue's secret, and what it names passes
// this worker's host policy (hosts/service/queue-door.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { OpenRedisError, runQueueWorker } from '../../../eval/scale/queue-worker';
import { queueSecret } from '../../../eval/scale/queue-protocol';
import { HostPolicy } from '../../service/host-policy';
import { queueDoor } from '../../service/queue-door';
import { type Parsed, UsageError, intFlag, requireFlag, stringFlag } from '../args';
import { type Output, json } from '../output';
import { checkQueueUrl, concurrencyFlag, rateFlags } from './scale-flags';

/** The worker's policy: its own folders and keys, as `serve` has for pages. */
function workerPolicy(p: Parsed): HostPolicy {
  const allowKeyFor = (stringFlag(p.flags, 'allow-key-for') ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  for (const u of allowKeyFor)
    if (!/^https?:\/\/[^\s/]+/.test(u)) throw new UsageError(`--allow-key-for: "${u}" is not an http(s) base URL`);
  const scriptsFlag = stringFlag(p.flags, 'scripts');
  const scriptsDir = scriptsFlag ? path.resolve(scriptsFlag) : undefined;
  if (scriptsDir && !existsSync(scriptsDir)) throw new UsageError(`--scripts: no folder ${scriptsDir}`);
  return new HostPolicy({ env: process.env, allowKeyFor, scriptFiles: scriptsDir ? { dir: scriptsDir } : 'none' });
}

export async function workerCommand(p: Parsed, o: Output): Promise<number> {
  if (p.positionals.length) throw new UsageError(`worker takes no positional arguments, got "${p.positionals.join(' ')}"`);
  const url = checkQueueUrl(
    requireFlag(p.flags, 'queue', 'the Redis URL the evaluation enqueues on, e.g. --queue redis://:PASSWORD@127.0.0.1:6379'),
  );
  let secret;
  try {
    secret = queueSecret(process.env);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const concurrency = concurrencyFlag(p) ?? 1;
  const rates = rateFlags(p);
  const lockEnv = process.env['SKILLBRIDGE_QUEUE_LOCK_MS'];
  const lockMs = lockEnv ? intFlag({ lock: lockEnv }, 'lock', 30_000, { min: 500 }) : undefined;
  const asJson = Boolean(p.flags['json']);
  const admit = queueDoor(workerPolicy(p));
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
      secret,
      admit,
      ...(p.flags['private-redis'] ? { privateRedis: true } : {}),
      concurrency,
      ...(Object.keys(rates).length ? { rates } : {}),
      ...(lockMs !== undefined ? { lockMs } : {}),
      signal: ac.signal,
      onLog: (l) => o.err(l),
    });
    if (asJson) json(o, r);
    else o.out(`worker stopped: ${r.done} case × trials run, ${r.errors} errors`);
    return 0;
  } catch (e) {
    if (e instanceof OpenRedisError || /^cannot reach Redis/.test((e as Error).message)) throw new UsageError((e as Error).message);
    throw e;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
