// serve --robot: whatever acts in the session — the page's tool console, an
// agent run (tool calls, and a program in the sandbox) — acts on the real robot
// through its safety state; the shadow simulator never answers for it. The real
// robot here is robot-api over a simulator, behind a proxy that counts every
// request it receives.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../contract/schemas';
import { SafetyChain } from '../../agents/runtime/safety';
import { openRobot } from '../../robot/sources';
import { type CountingProxy, startCountingProxy } from '../../test/support/fake-robot-server';
import { startRobotApi } from '../robot-api/server';
import { AppService } from '../service/app-service';

type Opened = Awaited<ReturnType<typeof openRobot>> & { kind: 'sim' };
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** The real robot (tabletop/fruits behind robot-api), counted at a proxy; `pressed` starts it e-stopped. */
async function realRobot(pressed: boolean): Promise<{ proxy: CountingProxy; opened: Opened; token: string }> {
  const opened = (await openRobot({ kind: 'sim', scene: 'tabletop/fruits', seed: 1 })) as Opened;
  // Paced from a ticker, as a robot is: its skills take time, and its server answers meanwhile.
  opened.sim.pace(true);
  opened.sim.setSpeed(4);
  const ticker = setInterval(() => opened.sim.tick(performance.now()), 1000 / 60);
  const server = await startRobotApi({ robot: opened.robot, chain: new SafetyChain(opened.robot), log: () => undefined });
  const proxy = await startCountingProxy(server.url);
  if (pressed) opened.sim.inject({ type: 'estop_pressed' });
  cleanup.push(async () => {
    clearInterval(ticker);
    await proxy.close();
    await server.close();
    await opened.close();
  });
  return { proxy, opened, token: server.token };
}

const dir = mkdtempSync(join(tmpdir(), 'sb-serve-robot-'));

async function session(url: string, token: string): Promise<AppService> {
  const s = new AppService({ paced: false, traceDir: join(dir, 'traces'), robot: { kind: 'http', url, token }, scriptFiles: { dir } });
  cleanup.push(() => s.dispose());
  await s.loadScene({ id: 'tabletop/fruits' });
  return s;
}

/** Runs a scripted agent turn and returns its run events once it ends. */
async function runScripted(s: AppService, workflow: string, turns: unknown[]): Promise<RunEvent[]> {
  const file = `turns-${Math.random().toString(36).slice(2)}.json`;
  writeFileSync(join(dir, file), JSON.stringify(turns));
  const events: RunEvent[] = [];
  s.onEvent((e) => e.type === 'run' && events.push(e.event));
  const { runId } = await s.run({ message: 'pick the lemon', workflow, model: `scripted:${file}` });
  const mine = () => events.filter((e) => e.runId === runId);
  await expect.poll(() => mine().some((e) => e.kind === 'final'), { timeout: 30_000 }).toBe(true);
  return mine();
}

const pickCall = { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'pick', arguments: { object_name: 'lemon' } } }] };

describe('serve --robot: every path that acts goes to the real robot, through its safety state', () => {
  it("the tool console on an e-stopped robot: refused, no job reaches the robot, and the robot's state was read", async () => {
    const { proxy, token } = await realRobot(true);
    const s = await session(proxy.url, token);
    const r = await s.callTool({ name: 'pick', args: { object_name: 'lemon' }, set: 'alrm' });
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/emergency stop is pressed/);
    expect(proxy.skills()).toEqual([]);
    expect(proxy.seen).toContain('POST /v1/query/robot.safety');
    // The shadow did not pick either: nothing answered for the robot.
    expect((await s.getSnapshot()).holding).toBeNull();
  }, 60_000);

  it('the tool console on a released robot: the pick is a job on the robot, and the robot holds the lemon', async () => {
    const { proxy, opened, token } = await realRobot(false);
    const s = await session(proxy.url, token);
    const r = await s.callTool({ name: 'pick', args: { object_name: 'lemon' }, set: 'alrm' });
    expect(r, r.content).toMatchObject({ ok: true });
    expect(proxy.skills()).toEqual(['POST /v1/skills/arm.pick']);
    expect(await opened.robot.perception.holding()).toBe('lemon_1');
  }, 60_000);

  it("the page's e-stop stops a console call in flight on the robot: its job is cancelled there", async () => {
    const { proxy, token } = await realRobot(false);
    const s = await session(proxy.url, token);
    const call = s.callTool({ name: 'pick', args: { object_name: 'lemon' }, set: 'alrm' });
    await expect.poll(() => proxy.skills().length, { timeout: 20_000, interval: 20 }).toBe(1);
    await s.injectEvent({ type: 'estop_pressed' });
    const r = await call;
    expect(r.ok).toBe(false);
    expect(
      proxy.seen.some((x) => /^POST \/v1\/jobs\/[\w-]+\/cancel$/.test(x)),
      r.content,
    ).toBe(true);
  }, 60_000);

  it('an agent run (tool calls) on an e-stopped robot: the pick fails, no job reaches the robot', async () => {
    const { proxy, token } = await realRobot(true);
    const s = await session(proxy.url, token);
    const events = await runScripted(s, 'flat', [pickCall, { content: 'done' }]);
    expect(events.find((e) => e.kind === 'tool_result')).toMatchObject({ name: 'pick', ok: false });
    expect(proxy.skills()).toEqual([]);
    expect(proxy.seen).toContain('POST /v1/query/robot.safety');
  }, 60_000);

  it('an agent run whose program runs in the sandbox (alrm/cap) on an e-stopped robot: no job reaches the robot', async () => {
    const { proxy, token } = await realRobot(true);
    const s = await session(proxy.url, token);
    const program = { content: 'Here is the program.\n```javascript\npick("lemon_1");\n```' };
    const events = await runScripted(s, 'alrm/cap', [
      { tool_calls: [{ id: 'e1', type: 'function', function: { name: 'executor', arguments: { task: 'Pick up lemon_1.' } } }] },
      program,
      program,
      program,
      { content: 'could not' },
    ]);
    expect(events.some((e) => e.kind === 'final')).toBe(true);
    expect(proxy.skills()).toEqual([]);
    expect(proxy.seen).toContain('POST /v1/query/robot.safety');
  }, 60_000);

  it("the battery the page reads is the robot's, not the shadow's", async () => {
    const { proxy, token } = await realRobot(false);
    const s = await session(proxy.url, token);
    await s.getBattery({});
    expect(proxy.seen).toContain('POST /v1/query/robot.battery');
  }, 60_000);

  it('a robot that cannot be reached: the console says so and nothing runs in the shadow', async () => {
    const s = await session('http://127.0.0.1:9', 't');
    const r = await s.callTool({ name: 'pick', args: { object_name: 'lemon' }, set: 'alrm' });
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/robot did not open/);
    expect((await s.getSnapshot()).holding).toBeNull();
  }, 60_000);
});
