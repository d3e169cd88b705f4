import { describe, expect, it } from 'vitest';
import { readHeader } from '../../electron/contract/frames';
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
