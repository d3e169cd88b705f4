// Where the CLI writes: results to stdout, problems to stderr, one line each.
import { writeSync } from 'node:fs';

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** The text as one line or more, ending with a newline. */
const line = (t: string): string => (t.endsWith('\n') ? t : `${t}\n`);

export const stdio: Output = {
  out: (t) => process.stdout.write(line(t)),
  err: (t) => process.stderr.write(line(t)),
};

/** Thrown when the reader of stdout or stderr has gone (`| head`): the command ends quietly. */
export class ClosedOutputError extends Error {
  constructor() {
    super('the output was closed');
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `text` to a file descriptor before returning. Node builds
 * process.stdout and process.stderr on first use (on a pipe or a terminal a socket,
 * with the net and stream modules: ~10 ms of a one-shot command's start), and a
 * socket's write may still be queued when the process exits; a one-shot command
 * writes straight to the descriptor instead, waiting while a non-blocking pipe is full.
 */
export function writeAll(fd: number, text: string): void {
  let bytes = Buffer.from(text);
  while (bytes.length) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') Atomics.wait(pause, 0, 0, 1);
      else if (code === 'EPIPE') throw new ClosedOutputError();
      else throw e;
    }
  }
}

/** stdio for commands that print a result and exit (bin/skillbridge.js ends them at once). */
export const directStdio: Output = {
  out: (t) => writeAll(1, line(t)),
  err: (t) => writeAll(2, line(t)),
};

export function json(o: Output, value: unknown): void {
  o.out(JSON.stringify(value, null, 2));
}
