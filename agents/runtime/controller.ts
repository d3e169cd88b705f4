// One Stop for a whole run. A single AbortController's signal goes to the model
// request and to every tool call, so stopping cancels whichever is in flight (the
// model's HTTP stream, a physics skill, an approval prompt) at once. The time
// limit stops a run through the same path, so every cancellation looks alike.

/** Why a run was stopped: a person (or host) pressed Stop, or the time limit ran out. */
export interface StopCause {
  kind: 'user' | 'time_limit';
  /** Shown to people and written to the trace, e.g. "stopped by the user". */
  message: string;
}

export class RunController {
  private readonly ac = new AbortController();
  private cause: StopCause | undefined;
  private readonly listeners = new Set<(cause: StopCause) => void>();

  /** Pass this to model.complete and tool contexts; it aborts on stop. */
  get signal(): AbortSignal {
    return this.ac.signal;
  }

  get stopped(): boolean {
    return this.cause !== undefined;
  }

  get stopCause(): StopCause | undefined {
    return this.cause;
  }

  /** Stops the run. Only the first call counts, so a late time limit cannot relabel a user's Stop. */
  stop(reason: string | StopCause = 'stopped by the user'): void {
    if (this.cause) return;
    this.cause = typeof reason === 'string' ? { kind: 'user', message: reason } : reason;
    // Listeners first: the trace gets its `stop` record before aborted work reports back.
    for (const l of [...this.listeners]) l(this.cause);
    this.ac.abort(new StopError(this.cause));
  }

  /** Calls `listener` once when the run stops (at once if it already has). Returns an unsubscribe. */
  onStop(listener: (cause: StopCause) => void): () => void {
    if (this.cause) {
      listener(this.cause);
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops this run when an outer signal aborts (a host's own cancellation). */
  follow(signal: AbortSignal | undefined, message = 'stopped by the caller'): () => void {
    if (!signal) return () => undefined;
    // A parent run's Stop carries its cause (a time limit stays a time limit in the flows below it).
    const cause = (): string | StopCause => (signal.reason instanceof StopError ? signal.reason.stopCause : message);
    if (signal.aborted) {
      this.stop(cause());
      return () => undefined;
    }
    const on = () => this.stop(cause());
    signal.addEventListener('abort', on, { once: true });
    return () => signal.removeEventListener('abort', on);
  }
}

/** The abort reason carried by a run's signal. */
export class StopError extends Error {
  constructor(readonly stopCause: StopCause) {
    super(stopCause.message);
    this.name = 'StopError';
  }
}

/**
 * Resolves with `work`, or rejects with the signal's reason as soon as it aborts,
 * whichever comes first. Work that ignores the signal is left to settle on its own
 * (its rejection is swallowed) so a stuck server or skill cannot hold a run.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const on = () => reject(abortReason(signal));
    signal.addEventListener('abort', on, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', on);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', on);
        reject(e);
      },
    );
  });
}

function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new Error('aborted');
}

export { sleep } from '../../base/sleep';
