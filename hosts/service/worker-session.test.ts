import { describe, expect, it } from 'vitest';
import { readHeader } from '../../contract/frames';
import type { RunEvent } from '../../contract/schemas';
import { startOpenAIServer } from '../../test/support/openai-server';
import { existsSync } from 'node:fs';
import { bundledWorker } from './worker-bundle';
import { startWorkerSession } from './worker-session';

describe('WorkerSession', () => {
  it('runs the session on a worker thread: calls, events and transferred pose frames', async () => {
    const api = await startWorkerSession({ paced: true });
    try {
      const frames: Float32Array[] = [];
      const kinds: string[] = [];
      api.onPoses((f) => frames.push(f));
      api.onEvent((e) => kinds.push(e.type));
      const meta = await api.loadScene({ id: 'tabletop/boxes' });
      const r = await api.callTool({ name: 'get_objects', args: {} });
      expect(r.ok).toBe(true);
      await expect(api.callTool({ name: 'pick', args: {}, set: 'no-such-set' })).rejects.toMatchObject({ code: 'invalid_request' });
      await new Promise((res) => setTimeout(res, 300));
      expect(kinds).toContain('scene_loaded');
      expect(frames.length).toBeGreaterThan(0);
      expect(readHeader(frames.at(-1)!).generation).toBe(meta.generation);
      // Paced: simulated time follows the wall clock.
      expect((await api.getSnapshot({})).time).toBeGreaterThan(0.1);
    } finally {
      await api.dispose();
    }
  });
});

describe('WorkerSession started in the background', () => {
  it('returns before the worker is up; a window asking for the scene meanwhile gets the one being loaded', async () => {
    const api = await startWorkerSession({ paced: false, background: true });
    try {
      const loading = api.loadScene({ id: 'tabletop/utensils' });
      // Asked before the load finished: waits for it instead of answering "no scene".
      const current = await api.currentScene({});
      expect(current?.id).toBe('tabletop/utensils');
      expect((await loading).generation).toBe(current?.generation);
    } finally {
      await api.dispose();
    }
  });

  it('bundles the worker from the sources into out/web (the fast start)', async () => {
    const url = await bundledWorker();
    expect(url?.href).toMatch(/out\/web\/sim-worker\.mjs$/);
    expect(existsSync(url!)).toBe(true);
  });

  it('runs the worker from the TypeScript sources through tsx when asked not to bundle it', async () => {
    const api = await startWorkerSession({ paced: false, bundle: false });
    try {
      expect((await api.loadScene({ id: 'tabletop/fruits' })).id).toBe('tabletop/fruits');
      expect((await api.callTool({ name: 'get_objects', args: {} })).ok).toBe(true);
    } finally {
      await api.dispose();
    }
  });

  it('reports a worker that cannot start as the error of the first call', async () => {
    const api = await startWorkerSession({ background: true, workerUrl: new URL('data:text/javascript,throw new Error("boom at start")') });
    try {
      await expect(api.listScenes({})).rejects.toThrow(/boom at start/);
    } finally {
      await api.dispose();
    }
  });
});

describe('WorkerSession agent runs', () => {
  it('runs the agent beside the world, with API keys looked up on the host thread; Stop ends a slow model request at once', async () => {
    const server = await startOpenAIServer(
      [
        { toolCalls: [{ name: 'get_objects', arguments: '{}' }], usage: { prompt_tokens: 20, completion_tokens: 4 } },
        { content: 'I see some fruit.' },
        { content: 'late', delayMs: 10_000 },
      ],
      { apiKey: 'sk-from-keychain' },
    );
    const asked: string[] = [];
    const api = await startWorkerSession({
      paced: true,
      secrets: (scope) => {
        asked.push(scope.baseURL);
        return 'sk-from-keychain';
      },
    });
    try {
      const events: RunEvent[] = [];
      api.onEvent((e) => e.type === 'run' && events.push(e.event));
      await api.loadScene({ id: 'tabletop/fruits' });
      const model = `openai-compatible:test-model@${server.url}`;
      const { runId } = await api.run({ message: 'what do you see?', workflow: 'flat', model });
      await waitFor(() => events.some((e) => e.runId === runId && e.kind === 'final'));
      const mine = events.filter((e) => e.runId === runId);
      expect(mine.find((e) => e.kind === 'final')).toMatchObject({ reason: 'done', text: 'I see some fruit.' });
      expect(mine.some((e) => e.kind === 'text_delta')).toBe(true);
      expect(mine.find((e) => e.kind === 'assistant' && e.usage)).toMatchObject({ usage: { totalTokens: 24 } });
      expect(asked).toContain(server.url);
      const second = await api.run({ message: 'and now?', workflow: 'flat', model });
      await new Promise((r) => setTimeout(r, 300));
      const t0 = Date.now();
      await api.stop({});
      await waitFor(() => events.some((e) => e.runId === second.runId && e.kind === 'final'));
      expect(Date.now() - t0).toBeLessThan(1500);
      expect(events.find((e) => e.runId === second.runId && e.kind === 'final')).toMatchObject({ reason: 'stopped' });
    } finally {
      await api.dispose();
      await server.close();
    }
  });
});

async function waitFor(cond: () => boolean, ms = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
