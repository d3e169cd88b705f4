// A Redis of a test's own on 127.0.0.1 (redis-server from the PATH; CI installs
// it), with a password as the README's recipe has one, or the one CI started
// (SKILLBRIDGE_TEST_REDIS_URL), given a password for as long as the test runs.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, createServer } from 'node:net';
import { Redis } from 'ioredis';

function hasServerBinary(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function hasRedis(): boolean {
  return hasServerBinary() || Boolean(process.env['SKILLBRIDGE_TEST_REDIS_URL']);
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function accepting(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.end(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface TestRedis {
  /** redis://:PASSWORD@127.0.0.1:PORT */
  url: string;
  /** The same Redis without the password (what a stranger reaches). */
  openUrl: string;
  password: string;
  stop(): Promise<void>;
}

/**
 * A Redis that asks for a password: one of the test's own where redis-server is installed (test files
 * running at once each get theirs), else the given one with `requirepass` set until stop().
 */
export async function startRedis(): Promise<TestRedis> {
  const password = randomBytes(12).toString('hex');
  const given = process.env['SKILLBRIDGE_TEST_REDIS_URL'];
  if (given && !hasServerBinary()) {
    const u = new URL(given);
    const port = Number(u.port || 6379);
    const admin = new Redis({ host: u.hostname, port, ...(u.password ? { password: decodeURIComponent(u.password) } : {}) });
    const before = ((await admin.config('GET', 'requirepass')) as string[])[1] ?? '';
    await admin.config('SET', 'requirepass', password);
    admin.disconnect();
    return {
      url: `redis://:${password}@${u.hostname}:${port}`,
      openUrl: `redis://${u.hostname}:${port}`,
      password,
      async stop() {
        const a = new Redis({ host: u.hostname, port, password });
        await a.config('SET', 'requirepass', before).catch(() => undefined);
        a.disconnect();
      },
    };
  }
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--requirepass', password],
    { stdio: 'ignore' },
  );
  await accepting(port);
  return {
    url: `redis://:${password}@127.0.0.1:${port}`,
    openUrl: `redis://127.0.0.1:${port}`,
    password,
    stop: async () => void child.kill('SIGKILL'),
  };
}

/** A Redis that lets anyone in (for the worker's refusal). */
export async function startOpenRedis(): Promise<{ url: string; stop(): void } | undefined> {
  if (!hasServerBinary()) return undefined;
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  await accepting(port);
  return { url: `redis://127.0.0.1:${port}`, stop: () => void child.kill('SIGKILL') };
}
