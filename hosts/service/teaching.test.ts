// The teacher's controls in the session service: pausing and single-stepping the
// physics, seed and noise, the e-stop ending a run, exercise checks, and runs
// kept with their poses for replay.
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeFrames, poseOffset } from '../../contract/frames';
import type { AppEvent, RunEvent } from '../../contract/schemas';
import { AppService as Session } from './app-service';

const dir = mkdtempSync(join(tmpdir(), 'sb-teach-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function script(name: string, turns: unknown[]): string {
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(turns));
  return `scripted:${name}.json`;
}
const call = (name: string, args: Record<string, unknown>, id = `c_${name}`) => ({
  tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
});

function events(session: Session) {
  const all: AppEvent[] = [];
  session.onEvent((e) => all.push(e));
  const final = async (runId: string, ms = 30_000): Promise<Extract<RunEvent, { kind: 'final' }>> => {
    const t0 = Date.now();
    for (;;) {
      const hit = all.find((e) => e.type === 'run' && e.event.runId === runId && e.event.kind === 'final');
      if (hit?.type === 'run' && hit.event.kind === 'final') return hit.event;
      if (Date.now() - t0 > ms) throw new Error('no final event');
      await sleep(20);
    }
  };
  return { all, final };
}

describe('the physics clock (paced, as in the app)', () => {
  const session = new Session({ paced: true });
  afterAll(() => session.dispose());

  it('pauses time, steps it by whole physics steps, and resumes without catching up', async () => {
    await session.loadScene({ id: 'tabletop/fruits' });
    const seen = events(session);
    await sleep(150);
    const paused = await session.setPaused({ paused: true });
    expect(paused.paused).toBe(true);
    await sleep(300);
    expect((await session.getSimState({})).time).toBe(paused.time);
    const stepped = await session.stepPhysics({ steps: 24 });
    expect(stepped.time).toBeCloseTo(paused.time + 24 * stepped.dt, 6);
    expect(seen.all.some((e) => e.type === 'sim_state' && e.state.paused)).toBe(true);
    const resumed = await session.setPaused({ paused: false });
    await sleep(300);
    const later = (await session.getSimState({})).time;
    // About 0.3 s passed, not the 0.45 s since pausing.
    expect(later - resumed.time).toBeGreaterThan(0.1);
    expect(later - resumed.time).toBeLessThan(0.42);
    await expect(session.stepPhysics({ steps: 1 })).rejects.toThrow(/pause it before stepping/);
  });

  it('a paused world holds a running skill until it resumes', async () => {
    await session.resetScene({});
    await session.setPaused({ paused: true });
    const picking = session.callTool({ name: 'pick', args: { object_name: 'lemon' } });
    await sleep(400);
    expect((await session.getSnapshot({})).holding).toBeNull();
    await session.setPaused({ paused: false });
    expect((await picking).content).toMatch(/picked up lemon_1/);
  });
});

describe('seed, noise, e-stop, exercises and runs (headless)', () => {
  const session = new Session({ paced: false, traceDir: join(dir, 'traces'), scriptFiles: { dir } });
  const seen = events(session);
  afterAll(() => session.dispose());

  it('seed and noise apply when the scene is next built', async () => {
    await session.loadScene({ id: 'tabletop/fruits' });
    expect(await session.getWorldSettings({})).toEqual({
      seed: 1,
      noise: { distanceSigma: 0, detectionDropout: 0, skillFailureRate: 0 },
    });
    await session.setWorldSettings({ seed: 7, noise: { distanceSigma: 0, detectionDropout: 0, skillFailureRate: 1 } });
    await session.resetScene({});
    // Every manipulation skill fails on its own at rate 1.
    const r = await session.callTool({ name: 'pick', args: { object_name: 'lemon' } });
    expect(r.ok).toBe(false);
    await session.setWorldSettings({ seed: 1, noise: { distanceSigma: 0, detectionDropout: 0, skillFailureRate: 0 } });
    await session.resetScene({});
    expect((await session.callTool({ name: 'pick', args: { object_name: 'lemon' } })).ok).toBe(true);
  });

  it('an exercise is ✗ with what is missing, then ✓ once the world and the calls say so', async () => {
    await session.resetScene({});
    const list = await session.listExercises({});
    expect(list.map((e) => e.id)).toContain('fruits-lemon-bowl');
    const before = await session.checkExercise({ id: 'fruits-lemon-bowl' });
    expect(before).toMatchObject({ ok: false, passed: 1, total: 2 });
    expect(before.checks.children?.[0]).toMatchObject({ ok: false, label: 'lemon_1 is in bowl_1', missing: 'now: on(lemon_1, table_1)' });
    await session.callTool({ name: 'pick', args: { object_name: 'lemon' } });
    await session.callTool({ name: 'place', args: { target: 'bowl' } });
    const after = await session.checkExercise({ id: 'fruits-lemon-bowl' });
    expect(after).toMatchObject({ ok: true, passed: 2, total: 2 });
    expect(seen.all.filter((e) => e.type === 'exercise').at(-1)).toMatchObject({ score: { id: 'fruits-lemon-bowl', ok: true } });
    // The order of calls counts: nothing was looked at before the pick.
    expect((await session.checkExercise({ id: 'fruits-look-first' })).checks.children?.[0]).toMatchObject({
      ok: false,
      missing: 'get_objects was not called',
    });
  });

  it('a teacher uploads a card; a wrong one is refused naming the field', async () => {
    const card = { id: 'my-plum', scene: 'tabletop/fruits', title: 'Plum', task: 'Plum in the bowl', goal: { fact: 'in(plum_1, bowl_1)' } };
    expect(await session.addExercise({ text: JSON.stringify(card) })).toMatchObject({ id: 'my-plum', source: 'uploaded' });
    expect((await session.listExercises({})).map((e) => e.id)).toContain('my-plum');
    await expect(session.addExercise({ text: JSON.stringify({ ...card, goal: { fact: 'plum in bowl' } }) })).rejects.toThrow(
      /the exercise card: goal\.fact: a fact such as/,
    );
    await expect(session.addExercise({ text: JSON.stringify({ ...card, goal: { fact: 'in(plum_9, bowl_1)' } }) })).rejects.toThrow(
      /goal names "plum_9", which tabletop\/fruits does not have/,
    );
    await expect(session.checkExercise({ id: 'farm-survey' })).rejects.toThrow(/set in farm; load that scene/);
  });

  it("a run asked a task card's task gets the card's goal checked on the world: its mark comes from that, not from the answer", async () => {
    const outcome = async (name: string, turns: unknown[], message = 'Put the lemon in the bowl.') => {
      await session.resetScene({});
      const { runId } = await session.run({ message, workflow: 'flat', model: script(name, turns), fresh: true, approval: 'auto' });
      await seen.final(runId);
      return (await session.listRuns({})).find((r) => r.runId === runId)?.outcome;
    };
    const pick = call('pick', { object_name: 'lemon' }, 'c1');
    // The calls succeeded, the answer is false: the lemon is still in the hand.
    expect(await outcome('goal-false', [pick, { content: 'The lemon is in the bowl.' }])).toBe('contradicted');
    const note = seen.all.filter((e) => e.type === 'run' && e.event.kind === 'note').at(-1);
    expect(note).toMatchObject({ event: { data: { goalCheck: { title: 'Lemon in the bowl', ok: false } } } });
    expect(await outcome('goal-met', [pick, call('place', { target: 'bowl' }, 'c2'), { content: 'Done.' }])).toBe('met');
    // In other words than a card's task: nothing checks it, and it is not marked met.
    expect(await outcome('goal-none', [pick, { content: 'Picked.' }], 'pick the lemon')).toBe('answered');
  });

  it('keeps every run with its poses; a replay has the trace and frames from the lemon on the table to the lemon lifted', async () => {
    await session.resetScene({});
    const model = script('replay', [call('pick', { object_name: 'lemon' }), { content: 'Picked.' }]);
    const { runId } = await session.run({ message: 'pick the lemon', workflow: 'flat', model, fresh: true });
    expect((await seen.final(runId)).reason).toBe('done');
    const runs = await session.listRuns({});
    expect(runs.at(-1)).toMatchObject({ runId, message: 'pick the lemon', running: false, reason: 'done', toolCalls: 1, poses: true });
    const replay = await session.getRunReplay({ runId });
    expect(replay.trace.records.some((r) => r.type === 'tool_call')).toBe(true);
    const rec = replay.poses!;
    const frames = decodeFrames(rec.frames, rec.frameLength);
    expect(frames.length).toBe(rec.count);
    expect(frames.length).toBeGreaterThanOrEqual(2);
    const lemon = rec.meta.objects.find((o) => o.id === 'lemon_1')!.body.stream!;
    const y = (f: Float32Array) => f[poseOffset(lemon) + 1]!;
    expect(y(frames.at(-1)!)).toBeGreaterThan(y(frames[0]!) + 0.05);
    // Written beside the trace, for runs older than the session's memory.
    await sleep(100);
    expect(existsSync(join(dir, 'traces', `${runId}.poses.json`))).toBe(true);
  });
});

describe('the e-stop ends an agent run (paced)', () => {
  const session = new Session({ paced: true, scriptFiles: { dir } });
  const seen = events(session);
  afterAll(() => session.dispose());

  it('the running skill reports the e-stop and the run stops', async () => {
    await session.loadScene({ id: 'tabletop/fruits' });
    const model = script('estop', [call('pick', { object_name: 'lemon' }), call('pick', { object_name: 'peach' }, 'c2'), { content: 'x' }]);
    const { runId } = await session.run({ message: 'pick', workflow: 'flat', model });
    await sleep(300);
    await session.injectEvent({ type: 'estop_pressed' });
    const fin = await seen.final(runId);
    expect(fin.reason).toBe('stopped');
    expect(fin.detail).toMatch(/emergency stop/);
    const result = seen.all.find((e) => e.type === 'run' && e.event.kind === 'tool_result');
    expect(result?.type === 'run' && result.event.kind === 'tool_result' && result.event.content).toMatch(/emergency stop|estop/i);
    await session.injectEvent({ type: 'estop_released' });
  });
});
