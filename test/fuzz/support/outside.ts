// The host's things a request must never reach: a folder outside every folder
// the host allows, holding files shaped like what a request may name (a suite,
// a scripted model's script, a GGUF, an empty database, a FIFO), each carrying
// a canary string; and folders the host does allow, with symlinks that lead
// out. A watcher (inotify, from Debian's inotify-tools) records every open,
// read or write in the outside folder by any thread or process, so a read in a
// worker thread or a child process is seen too.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Outside {
  /** The folder nothing may touch. */
  dir: string;
  /** A string written in every outside file: it must never appear in an answer. */
  canary: string;
  files: { suite: string; script: string; gguf: string; notes: string; emptyDb: string; fifo: string; folder: string };
  /**
   * Folders the host allows. The scripts folder holds symlinks `escape*` into the outside folder: the
   * policy checks where a path leads, not how it is spelled. The models folder holds none: there a link
   * is how `models add FILE` puts a model the person has in place, so following it is by design.
   */
  allowed: { scripts: string; models: string; evalDir: string; traceDir: string; exercises: string };
  /** Every path inside `allowed` that leads outside. */
  escapes: string[];
  /** A path beside each outside file that does not exist (the same answer must come for both). */
  missing(path: string): string;
  close(): void;
}

export function makeOutside(): Outside {
  const canary = `CANARY${randomBytes(8).toString('hex')}`;
  const root = mkdtempSync(join(tmpdir(), 'sb-fuzz-'));
  const dir = join(root, 'outside');
  mkdirSync(dir);
  const suite = join(dir, 'suite.json');
  writeFileSync(
    suite,
    JSON.stringify({
      id: canary.toLowerCase(),
      title: canary,
      scene: 'tabletop/fruits',
      workflow: 'flat',
      cases: [{ id: 'c1', task: `Say ${canary}.`, goal: { holding: null } }],
    }),
  );
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify([{ content: canary }]));
  const gguf = join(dir, 'model.gguf');
  writeFileSync(gguf, Buffer.concat([Buffer.from('GGUF'), Buffer.from(canary)]));
  const notes = join(dir, 'notes.txt');
  writeFileSync(notes, `${canary}\n`);
  const emptyDb = join(dir, 'results.db');
  writeFileSync(emptyDb, '');
  const fifo = join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  const folder = join(dir, 'runs');
  mkdirSync(folder);
  writeFileSync(join(folder, 'results.db'), '');

  const allowedRoot = join(root, 'host');
  const allowed = {
    scripts: join(allowedRoot, 'scripts'),
    models: join(allowedRoot, 'models'),
    evalDir: join(allowedRoot, 'eval-results'),
    traceDir: join(allowedRoot, 'traces'),
    exercises: join(allowedRoot, 'exercises'),
  };
  for (const d of Object.values(allowed)) mkdirSync(d, { recursive: true });
  writeFileSync(join(allowed.scripts, 'hello.json'), JSON.stringify([{ content: 'hello' }]));
  const escapes: string[] = [];
  const link = (target: string, at: string) => {
    symlinkSync(target, at);
    escapes.push(at);
  };
  link(script, join(allowed.scripts, 'escape.json'));
  link(dir, join(allowed.scripts, 'escape-dir'));
  return {
    dir,
    canary,
    files: { suite, script, gguf, notes, emptyDb, fifo, folder },
    allowed,
    escapes,
    // As long as the path it stands for, so a length limit cannot tell the two apart.
    missing: (p) => p.replace(/[^/]+$/, (name) => `~${name.slice(1)}`),
    close: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Contents of files outside that an answer must not quote (besides the canary). */
export const HOST_SECRETS = [/root:[x*]?:0:0:/, /BEGIN [A-Z ]*PRIVATE KEY/];

export interface OpenWatch {
  /** Events since the last `take()` ("OPEN /path", "ACCESS /path", "MODIFY /path"…). */
  take(): Promise<string[]>;
  close(): void;
}

/**
 * Watches paths with inotifywait. Every open, read, write, attribute change,
 * create or delete below them is an event. Throws when inotifywait is missing
 * (CI installs inotify-tools): a fuzzer that cannot see reads must not pass.
 */
export async function watchOpens(paths: string[]): Promise<OpenWatch> {
  let child: ChildProcess;
  try {
    execFileSync('inotifywait', ['--help'], { stdio: 'ignore' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error('inotifywait is not installed: apt-get install inotify-tools (the boundary fuzzer watches reads with it)');
  }
  child = spawn('inotifywait', ['-m', '-r', '-e', 'open,access,modify,attrib,create,delete,moved_to', '--format', '%e %w%f', ...paths], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: string[] = [];
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const lines = buf.split('\n');
    buf = lines.pop() ?? '';
    events.push(...lines.filter(Boolean));
  });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('Watches established')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`inotifywait exited (${code}): ${err}`)));
  });
  // inotify delivers asynchronously: a short pause lets events of the last request arrive.
  const settle = () => new Promise((r) => setTimeout(r, 30));
  return {
    take: async () => {
      await settle();
      return events.splice(0);
    },
    close: () => child.kill(),
  };
}

/** The text of a file, for a test that checks a file was not changed. */
export const contentOf = (p: string): string => readFileSync(p, 'utf8');
