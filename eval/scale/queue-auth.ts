// Whether a Redis lets anyone in. Whoever can write to the queue's Redis can
// queue jobs and answer them, so a worker serves only a Redis that asks for a
// password or an ACL user (requirepass, or ACL with the default user off), unless
// its person says the Redis is on a private machine no one else reaches.
import { Redis } from 'ioredis';
import { parseQueueUrl } from './queue-protocol';

/** True when Redis refuses a client that gives no credentials (NOAUTH); false when it answers one. */
export async function redisAsksForCredentials(url: string, timeoutMs = 5000): Promise<boolean> {
  const { host, port } = parseQueueUrl(url);
  const probe = new Redis({
    host,
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
    // The ready check (INFO) would fail on NOAUTH and close the connection before PING answers.
    enableReadyCheck: false,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return false;
  } catch (e) {
    const m = (e as Error).message ?? '';
    if (/NOAUTH|NOPERM|WRONGPASS|Authentication required/i.test(m)) return true;
    throw new Error(`cannot reach Redis at ${host}:${port} (${m.split('\n')[0]})`);
  } finally {
    probe.disconnect();
  }
}
