// The shared rate limiter: requests per minute and tokens per minute hold across
// concurrent callers, and a 429's Retry-After seen by one caller holds back the
// others (against the local OpenAI-compatible server).
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from '../../test/support/openai-server';
import { ModelError, type Model } from './model';
import { createOpenAICompatibleModel } from './openai-compatible';
import { RateLimiter, withRateLimit } from './rate-limit';

/** A clock that only moves when someone sleeps: waits are exact and instant. */
function fakeTime() {
  let t = 1_000_000;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
      await Promise.resolve();
    },
  };
}

const echo = (usage = 0): Model & { at: number[] } => {
  const at: number[] = [];
  return {
    id: 'echo',
    at,
    async complete() {
      return {
        message: { role: 'assistant', content: 'ok' },
        toolCalls: [],
        ...(usage ? { usage: { promptTokens: usage, completionTokens: 0, totalTokens: usage } } : {}),
      };
    },
  };
};

describe('RateLimiter', () => {
  it('lets no more than rpm calls start in any minute, whoever makes them', async () => {
    const clock = fakeTime();
    const limiter = new RateLimiter({ rpm: 3 }, clock.now, clock.sleep);
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 7 }, async () => {
        const b = await limiter.acquire(1);
        starts.push(b.at);
      }),
    );
    const t0 = starts[0]!;
    expect(starts.map((s) => s - t0)).toEqual([0, 0, 0, 60_000, 60_000, 60_000, 120_000]);
  });

  it('holds tokens per minute by the replies’ real usage', async () => {
    const clock = fakeTime();
    const limiter = new RateLimiter({ tpm: 1000 }, clock.now, clock.sleep);
    const m = withRateLimit(echo(600), limiter);
    const t0 = clock.now();
    const when: number[] = [];
    for (let i = 0; i < 3; i++) {
      // About 500 tokens booked before the call (2000 characters), 600 spent by the reply.
      await m.complete({ messages: [{ role: 'user', content: 'x'.repeat(2000) }] });
      when.push(clock.now() - t0);
    }
    // 600 tokens each: the second fits only after the first leaves the window, and so on.
    expect(when).toEqual([0, 60_000, 120_000]);
  });

  it('refuses a limit that is not a positive number', () => {
    expect(() => new RateLimiter({ rpm: 0 })).toThrow(/rpm must be a positive number/);
  });
});

describe('withRateLimit against a server that rate limits', () => {
  let server: OpenAIServer | undefined;
  afterEach(() => server?.close());

  it("a 429's Retry-After seen by one caller holds back every caller", async () => {
    server = await startOpenAIServer([
      { status: 429, error: 'slow down', retryAfter: '1' },
      { content: 'a', delayMs: 0 },
      { content: 'b' },
    ]);
    const limiter = new RateLimiter({ rpm: 1000 });
    const model = withRateLimit(
      createOpenAICompatibleModel({ id: 'test', baseURL: server.url, model: 'test-model', stream: false }),
      limiter,
    );
    const first = model.complete({ messages: [{ role: 'user', content: 'one' }] });
    // The second caller asks just after the first got its 429 (waiting for that, not for a set time: a loaded machine may answer late).
    for (let i = 0; i < 500 && limiter.stats.pauses === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const second = model.complete({ messages: [{ role: 'user', content: 'two' }] });
    await Promise.all([first, second]);
    const chats = server.chatRequests();
    expect(chats).toHaveLength(3);
    expect(limiter.stats.pauses).toBe(1);
    // Both later requests waited out the second the server asked for.
    expect(chats[1]!.at - chats[0]!.at).toBeGreaterThanOrEqual(950);
    expect(chats[2]!.at - chats[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('a 429 that outlasts the adapter’s retries is tried again after a shared pause', async () => {
    server = await startOpenAIServer([{ status: 429, error: 'no' }, { status: 429, error: 'no' }, { content: 'yes' }]);
    const limiter = new RateLimiter({ rpm: 1000 });
    const model = withRateLimit(
      createOpenAICompatibleModel({ id: 'test', baseURL: server.url, model: 'test-model', stream: false, maxRetries: 0 }),
      limiter,
      { backoffMs: 50 },
    );
    const r = await model.complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(r.message.content).toBe('yes');
    expect(limiter.stats.pauses).toBe(2);
    const once = withRateLimit(
      createOpenAICompatibleModel({ id: 'test', baseURL: server.url, model: 'test-model', stream: false, maxRetries: 0 }),
      new RateLimiter({}),
      { retries: 0 },
    );
    server.push({ status: 429, error: 'still no' });
    await expect(once.complete({ messages: [{ role: 'user', content: 'y' }] })).rejects.toBeInstanceOf(ModelError);
  });
});
