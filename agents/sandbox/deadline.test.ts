// After a sandboxed program's deadline no API call reaches the robot: a call the
// program made in time but that the host only reads after the deadline (its
// event loop was busy) is refused, not run late.
import { afterAll, describe, expect, it } from 'vitest';
import { Sandbox } from './sandbox';

const sandbox = new Sandbox();
afterAll(() => sandbox.dispose());

describe('the sandbox deadline', () => {
  it('a call read after the deadline is not run', async () => {
    const robot: string[] = [];
    const api = {
      pick: async () => {
        robot.push('pick');
        return 'picked';
      },
    };
    // Warm the worker, so the run below starts at once.
    await sandbox.run('return 1', { api });
    const running = sandbox.run('const t = Date.now(); while (Date.now() - t < 100) {}\nawait pick({ object_name: "lemon_1" });', {
      api,
      limits: { timeMs: 300 },
    });
    await new Promise((r) => setImmediate(r)); // the run has been sent to the worker
    // The host is busy past the deadline (but within the watchdog's grace): the call waits unread.
    const until = performance.now() + 600;
    while (performance.now() < until) {
      // busy
    }
    const r = await running;
    expect(robot).toEqual([]);
    expect(r.calls[0]?.outcome).toMatchObject({ ok: false, error: expect.stringMatching(/was not run: the program's time limit/) });
  }, 30_000);
});
