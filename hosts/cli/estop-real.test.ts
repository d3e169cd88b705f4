// The page's e-stop and Stop reach a real robot (serve --robot): the running
// job on the robot is cancelled at once, not left to finish its motion.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../contract/schemas';
import { SafetyChain } from '../../agents/runtime/safety';
import type { Job } from '../../robot/http/protocol';
import { openRobot } from '../../robot/sources';
import { type RobotApiServer, startRobotApi } from '../robot-api/server';
import { AppService } from '../service/app-service';

type Opened = Awaited<ReturnType<typeof openRobot>> & { kind: 'sim' };
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function realRobot(): Promise<{ server: RobotApiServer; jobs: Job[] }> {
  const opened = (await openRobot({ kind: 'sim', scene: 'tabletop/fruits', seed: 1 })) as Opened;
  opened.sim.pace(true);
  const ticker = setInterval(() => opened.sim.tick(performance.now()), 1000 / 60);
  const jobs: Job[] = [];
  const server = await startRobotApi({
    robot: opened.robot,
    chain: new SafetyChain(opened.robot),
    log: () => undefined,
  });
  // Follow the jobs as the robot reports them.
  const es = await fetch(`${server.url}/v1/events?token=${server.token}`);
  const reader = es.body!.getReader();
  void (async () => {
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buf += new TextDecoder().decode(value);
      for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (block.includes('event: job')) jobs.push(JSON.parse(block.split('data: ')[1]!) as Job);
      }
    }
  })();
  cleanup.push(async () => {
    await reader.cancel().catch(() => undefined);
    clearInterval(ticker);
    await server.close();
    await opened.close();
  });
  return { server, jobs };
}

describe('serve --robot: the e-stop and Stop', () => {
  for (const how of ['estop', 'stop'] as const) {
    it(`${how === 'estop' ? "the page's e-stop" : 'Stop'} cancels the running job on the robot at once`, async () => {
      const { server, jobs } = await realRobot();
      const dir = mkdtempSync(join(tmpdir(), 'sb-estop-'));
      writeFileSync(
        join(dir, 'turns.json'),
        JSON.stringify([
          { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'pick', arguments: { object_name: 'lemon' } } }] },
          { content: 'done' },
        ]),
      );
      const session = new AppService({ paced: true, robot: { kind: 'http', url: server.url, token: server.token }, scriptFiles: { dir } });
      cleanup.push(() => session.dispose());
      const events: RunEvent[] = [];
      session.onEvent((e) => e.type === 'run' && events.push(e.event));
      await session.loadScene({ id: 'tabletop/fruits' });
      await session.run({ message: 'pick the lemon', workflow: 'flat', model: 'scripted:turns.json' });
      await expect.poll(() => jobs.some((j) => j.status === 'running'), { timeout: 15_000 }).toBe(true);
      const id = jobs.find((j) => j.status === 'running')!.id;
      if (how === 'estop') await session.injectEvent({ type: 'estop_pressed' });
      else await session.stop({});
      // The robot reports the job cancelled well before the 2 s a skill is given to report the e-stop itself.
      await expect.poll(() => jobs.some((j) => j.id === id && j.status === 'cancelled'), { timeout: 1500, interval: 50 }).toBe(true);
      await expect.poll(() => events.some((e) => e.kind === 'final'), { timeout: 5000 }).toBe(true);
    }, 60_000);
  }
});
