// Lines from stdin for `skillbridge run`: the conversation's turns and the
// questions asked mid-run (approve this call? the model asks you something).
// One reader owns stdin, so an answer is never taken by a stale wait; a question
// gives up when its run stops (Ctrl-C, the time limit), and a one-shot run lets
// go of stdin afterwards, so the process can end instead of waiting for input.
import { createInterface, type Interface } from 'node:readline';

export interface LineReaderOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  terminal?: boolean;
  /** Ctrl-C typed while a terminal prompt is open (readline takes it from the process). */
  onInterrupt?: () => void;
}

export class LineReader {
  private rl: Interface | undefined;
  private readonly queue: string[] = [];
  private readonly waiters = new Set<(line: string | null) => void>();
  private ended = false;

  constructor(private readonly opts: LineReaderOptions = {}) {}

  private open(): Interface {
    if (this.rl) return this.rl;
    const rl = createInterface({
      input: this.opts.input ?? process.stdin,
      output: this.opts.output ?? process.stdout,
      terminal: this.opts.terminal ?? Boolean((this.opts.input ?? process.stdin) === process.stdin && process.stdin.isTTY),
    });
    rl.on('line', (line) => {
      const w = this.waiters.values().next();
      if (w.done) this.queue.push(line);
      else {
        this.waiters.delete(w.value);
        w.value(line);
      }
    });
    rl.on('close', () => {
      this.ended = true;
      for (const w of this.waiters) w(null);
      this.waiters.clear();
    });
    rl.on('SIGINT', () => this.opts.onInterrupt?.());
    this.rl = rl;
    return rl;
  }

  /** The next line, or null at the end of input or when `signal` aborts first. */
  next(signal?: AbortSignal): Promise<string | null> {
    this.open();
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.ended || signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const done = (line: string | null): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(line);
      };
      const onAbort = (): void => {
        this.waiters.delete(done);
        done(null);
      };
      this.waiters.add(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Writes the question, then waits for its answer ('' when there is none). */
  async ask(question: string, signal?: AbortSignal): Promise<string> {
    (this.opts.output ?? process.stdout).write(question);
    return (await this.next(signal)) ?? '';
  }

  /** Lets go of stdin. */
  close(): void {
    this.rl?.close();
    this.rl = undefined;
  }
}
