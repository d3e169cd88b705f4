// The desktop app's path for local models, minus Electron: the host thread injects a
// launcher (there utilityProcess, here a counting fork), and runs on the session's
// worker thread start their model process through it — two runs, one process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppEvent, RunEvent } from '../../contract/schemas';
import { writeTinyGguf } from '../../test/support/tiny-gguf';
import { forkLauncher } from '../../agents/models/local/process-launcher';
import { setModelProcessLauncher } from './model-processes';
import { startWorkerSession } from './worker-session';

const dir = mkdtempSync(path.join(tmpdir(), 'sb-relay-'));
afterAll(() => {
  setModelProcessLauncher();
  rmSync(dir, { recursive: true, force: true });
});

describe("local models on the session's worker thread with a host's launcher", () => {
  it('start through the host thread, and two runs share one process', async () => {
    writeTinyGguf(path.join(dir, 'tiny.gguf'));
    const scripts: string[] = [];
    setModelProcessLauncher((script) => {
      scripts.push(script);
      return forkLauncher(script);
    });
    const prev = process.env['SKILLBRIDGE_LOCAL_MAX_TOKENS'];
    process.env['SKILLBRIDGE_LOCAL_MAX_TOKENS'] = '24';
    const api = await startWorkerSession({ paced: false, modelsDir: dir, traceDir: path.join(dir, 'traces') });
    if (prev === undefined) delete process.env['SKILLBRIDGE_LOCAL_MAX_TOKENS'];
    else process.env['SKILLBRIDGE_LOCAL_MAX_TOKENS'] = prev;
    const events: RunEvent[] = [];
    api.onEvent((e: AppEvent) => {
      if (e.type === 'run') events.push(e.event);
    });
    const ended = async (runId: string): Promise<RunEvent> => {
      for (let i = 0; i < 24_000; i++) {
        const hit = events.find((e) => e.runId === runId && (e.kind === 'final' || e.kind === 'error'));
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`run ${runId} did not end: ${events.map((e) => e.kind).join(', ')}`);
    };
    try {
      await api.loadScene({ id: 'tabletop/fruits' });
      for (const message of ['hi', 'hello']) {
        const { runId } = await api.run({ message, workflow: 'flat', model: 'local:tiny', fresh: true });
        const end = await ended(runId);
        expect(end.kind, JSON.stringify(end)).toBe('final');
      }
      // Started on this thread (the worker cannot fork where the host injected a launcher), once.
      expect(scripts).toHaveLength(1);
      expect(scripts[0]).toMatch(/llama-process\.mjs$/);
    } finally {
      await api.dispose();
    }
  }, 300_000);
});
