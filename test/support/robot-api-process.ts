// `skillbridge robot-api` in a child process, for tests that cross a real
// process boundary: resolves with the URL and token it prints under --json, and
// can be killed mid-skill.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export interface RobotApiProcess {
  url: string;
  token: string;
  openapi: string;
  child: ChildProcess;
  /** Ends the process (SIGKILL: a robot that dies, not one that shuts down). */
  kill(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

export function startRobotApiProcess(args: string[], env: Record<string, string> = {}): Promise<RobotApiProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/skillbridge.js'), 'robot-api', '--json', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`robot-api did not start within 60 s: ${err}`)), 60_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      try {
        const first = JSON.parse(out.slice(0, nl)) as { url: string; token: string; openapi: string };
        resolve({
          ...first,
          child,
          kill: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGKILL');
            }),
        });
      } catch (e) {
        reject(new Error(`robot-api printed something other than its JSON line: ${out} ${err} (${(e as Error).message})`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`robot-api exited with ${code} before it was ready: ${err}`));
    });
  });
}
