// Errors and retries of the OpenAI-compatible adapter: every failure becomes a
// ModelError that names the endpoint and the fix, and says whether a retry may
// help (429, 5xx, a dropped connection) and how long the server asked us to wait.
import type { APIError } from 'openai';
import { ModelError, type CompletionRequest } from './model';

export type Sdk = typeof import('openai');

export interface ErrorContext {
  endpoint: string;
  model: string;
  timeoutMs: number;
  hints: { start?: string; pull?: string; key?: string };
}

/** An error worth retrying, with the reason reported to onRetry. */
export class RetryableError extends Error {
  constructor(
    readonly error: ModelError,
    readonly reason: string,
  ) {
    super(error.message);
  }
}

export interface Classified {
  error: ModelError;
  retry: boolean;
  reason: string;
  retryAfterMs?: number;
  rejectedParam?: 'tool_choice' | 'stream_options';
}

export function aborted(endpoint: string, cause?: unknown): ModelError {
  return new ModelError(`The request to ${endpoint} was aborted.`, 'aborted', undefined, { endpoint, cause });
}

export function timeoutError(ctx: ErrorContext, cause?: unknown): ModelError {
  const fix = `Increase the timeout, use a smaller model, or check that ${ctx.endpoint} is not stuck.`;
  return new ModelError(`${ctx.endpoint} did not answer within ${ctx.timeoutMs} ms. ${fix}`, 'timeout', undefined, {
    endpoint: ctx.endpoint,
    fix,
    cause,
  });
}

export function classify(e: unknown, ctx: ErrorContext, req: CompletionRequest, sdk: Sdk | undefined): Classified {
  const { endpoint } = ctx;
  const err = (kind: ConstructorParameters<typeof ModelError>[1], what: string, fix: string, status?: number): ModelError =>
    new ModelError(`${what} ${fix}`, kind, status, { endpoint, fix, cause: e });
  if (e instanceof RetryableError) return { error: e.error, retry: true, reason: e.reason };
  if (e instanceof ModelError) return { error: e, retry: false, reason: e.message };
  if (!sdk) {
    const fix = 'Reinstall the dependencies (npm ci).';
    return {
      error: err('config', `The openai client library could not be loaded (${e instanceof Error ? e.message : String(e)}).`, fix),
      retry: false,
      reason: 'sdk missing',
    };
  }
  const { APIUserAbortError, APIConnectionTimeoutError, APIConnectionError, APIError } = sdk;
  if (e instanceof APIUserAbortError) return { error: aborted(endpoint, e), retry: false, reason: 'aborted' };
  if (e instanceof APIConnectionTimeoutError) return { error: timeoutError(ctx, e), retry: false, reason: 'timeout' };
  if (e instanceof APIConnectionError) {
    const detail = causeCode(e);
    const fix = `Is the server running at ${endpoint}?${ctx.hints.start ? ` ${ctx.hints.start}` : ''}`;
    return {
      error: err('unreachable', `Could not reach ${endpoint}${detail ? ` (${detail})` : ''}.`, fix),
      retry: true,
      reason: 'connection failed',
    };
  }
  if (e instanceof APIError) {
    const status = e.status;
    const said = serverMessage(e);
    if (status === 401 || status === 403) {
      const fix = ctx.hints.key ?? 'Check the API key (OPENAI_API_KEY or SKILLBRIDGE_API_KEY, or the key stored in settings).';
      return {
        error: err('auth', `${endpoint} refused the API key (${status}${said ? `: ${said}` : ''}).`, fix, status),
        retry: false,
        reason: 'auth',
      };
    }
    if (status === 404) {
      if (/model/i.test(said)) {
        const fix = `Check the model name (GET ${endpoint}/models lists them).${ctx.hints.pull ? ` ${ctx.hints.pull}` : ''}`;
        return {
          error: err('config', `Model "${ctx.model}" was not found at ${endpoint} (${said}).`, fix, 404),
          retry: false,
          reason: 'not found',
        };
      }
      const fix = 'Check the base URL; OpenAI-compatible servers usually serve under /v1.';
      return { error: err('config', `${endpoint}/chat/completions does not exist (404).`, fix, 404), retry: false, reason: 'not found' };
    }
    if (status === 400 || status === 422) {
      const param =
        /tool.?choice/i.test(said) && req.toolChoice
          ? 'tool_choice'
          : /stream.?options|include.?usage/i.test(said)
            ? 'stream_options'
            : undefined;
      const fix = 'The server rejected the request; check that this model supports tools and the context fits.';
      return {
        error: err('config', `${endpoint} rejected the request (${status}: ${said || 'bad request'}).`, fix, status),
        retry: false,
        reason: 'bad request',
        ...(param ? { rejectedParam: param } : {}),
      };
    }
    if (status === 429) {
      const retryAfterMs = retryAfter(e.headers);
      const fix = 'Wait a moment, lower the request rate, or check your plan\u2019s limits.';
      return {
        error: err('rate_limit', `${endpoint} is rate limiting requests (429${said ? `: ${said}` : ''}).`, fix, 429),
        retry: true,
        reason: '429 rate limited',
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    }
    if (status === 408 || (status !== undefined && status >= 500)) {
      const retryAfterMs = retryAfter(e.headers);
      const fix = 'The server failed; check its log (out of memory? model still loading?).';
      return {
        error: err('server', `${endpoint} failed (${status}${said ? `: ${said}` : ''}).`, fix, status),
        retry: true,
        reason: `${status} server error`,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    }
    if (status === undefined) {
      // An error event inside the stream (e.g. Ollama reporting a crashed runner).
      return {
        error: err('server', `${endpoint} reported an error while answering: ${said || e.message}.`, 'Check the server log.'),
        retry: false,
        reason: 'stream error',
      };
    }
    return {
      error: err('server', `${endpoint} answered ${status}${said ? `: ${said}` : ''}.`, 'Check the server log.', status),
      retry: false,
      reason: `${status}`,
    };
  }
  if (e instanceof SyntaxError) {
    return {
      error: err(
        'bad_response',
        `${endpoint} sent a stream chunk that is not JSON.`,
        'Check that the base URL points at an OpenAI-compatible /v1 endpoint.',
      ),
      retry: false,
      reason: 'bad chunk',
    };
  }
  // undici's "terminated" and socket errors: the connection dropped mid-answer.
  const msg = e instanceof Error ? `${e.message}${causeCode(e) ? ` (${causeCode(e)})` : ''}` : String(e);
  return {
    error: err(
      'server',
      `The connection to ${endpoint} dropped mid-answer (${msg}).`,
      'The server may have crashed or restarted; check its log.',
    ),
    retry: true,
    reason: 'connection dropped',
  };
}

function serverMessage(e: APIError): string {
  const body: unknown = e.error;
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') return body.message;
  if (typeof body === 'string') return body;
  return e.message.replace(/^\d{3}\s*/, '').replace(/^status code \(no body\)$/, '');
}

function causeCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && typeof cur === 'object' && cur !== null; i++) {
    if ('code' in cur && typeof cur.code === 'string' && cur.code) return cur.code;
    cur = 'cause' in cur ? cur.cause : undefined;
  }
  return undefined;
}

/** Retry-After as ms: `retry-after-ms`, seconds, or an HTTP date. */
export function retryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const ra = headers?.get('retry-after');
  if (!ra) return undefined;
  const s = Number.parseFloat(ra);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(ra);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

export function sleep(ms: number, signal: AbortSignal | undefined, endpoint: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted(endpoint));
    const done = (): void => {
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    const t = setTimeout(done, ms);
    const stop = (): void => {
      clearTimeout(t);
      reject(aborted(endpoint));
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
