import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent, RunEvent } from '../../contract/schemas';
import { AppService } from './app-service';

const dir = mkdtempSync(join(tmpdir(), 'sb-agent-'));

/** A script in the host's scripts folder; a page names it by its name only. */
function script(name: string, turns: unknown[]): string {
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(turns));
  return `scripted:${name}.json`;
}

const call = (name: string, args: Record<string, unknown>) => ({
  tool_calls: [{ id: `c_${name}`, type: 'function', function: { name, arguments: args } }],
});

function collect(session: AppService) {
  const events: AppEvent[] = [];
  session.onEvent((e) => events.push(e));
  const runEvents = (runId: string): RunEvent[] => events.flatMap((e) => (e.type === 'run' && e.event.runId === runId ? [e.event] : []));
  const until = async (runId: string, pred: (e: RunEvent) => boolean, ms = 20_000): Promise<RunEvent> => {
    const t0 = Date.now();
    for (;;) {
      const hit = runEvents(runId).find(pred);
      if (hit) return hit;
      if (Date.now() - t0 > ms)
        throw new Error(
          `timed out; events: ${runEvents(runId)
            .map((e) => e.kind)
            .join(', ')}`,
        );
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { events, runEvents, until };
}

describe('agent runs in the session service (headless)', () => {
  const traceDir = join(dir, 'traces');
  const session = new AppService({ paced: false, traceDir, ollamaURL: 'http://127.0.0.1:1/v1', scriptFiles: { dir } });
  const c = collect(session);
  beforeAll(async () => {
    await session.loadScene({ id: 'tabletop/fruits' });
  });
  afterAll(() => session.dispose());

  it('lists workflows with their system prompt for this robot, and finds no Ollama on a closed port', async () => {
    const wf = await session.listWorkflows({});
    expect(wf.map((w) => w.id)).toContain('flat');
    expect(wf.find((w) => w.id === 'flat')!.systemPrompt.length).toBeGreaterThan(50);
    expect((await session.detectModels({})).ollama.reachable).toBe(false);
  });

  it("an edited system prompt replaces the workflow's prompt in the trace", async () => {
    const model = script('prompt', [{ content: 'ok' }]);
    const { runId } = await session.run({
      message: 'hello',
      workflow: 'flat',
      model,
      fresh: true,
      systemPrompt: 'You are a terse robot. Custom preset.',
    });
    await c.until(runId, (e) => e.kind === 'final');
    const text = (await session.exportTrace({ runId })).text;
    expect(text).toContain('You are a terse robot. Custom preset.');
  });

  it('a scripted run moves the robot, streams events in order and writes a trace that exports and imports', async () => {
    const model = script('pick', [
      call('pick', { object_name: 'lemon' }),
      { content: 'I picked up the lemon.', reasoning_content: 'The pick succeeded.' },
    ]);
    const { runId, tracePath } = await session.run({ message: 'pick the lemon', workflow: 'flat', model });
    const fin = await c.until(runId, (e) => e.kind === 'final');
    expect(fin).toMatchObject({ reason: 'done', text: 'I picked up the lemon.', toolCalls: 1 });
    const kinds = c.runEvents(runId).map((e) => e.kind);
    expect(kinds[0]).toBe('started');
    expect(kinds.indexOf('tool_call')).toBeLessThan(kinds.indexOf('tool_result'));
    expect(kinds.indexOf('tool_result')).toBeLessThan(kinds.indexOf('final'));
    const result = c.runEvents(runId).find((e) => e.kind === 'tool_result');
    expect(result).toMatchObject({ name: 'pick', ok: true });
    // A thinking model's reasoning streams apart from the answer and stays on the turn.
    expect(c.runEvents(runId).find((e) => e.kind === 'reasoning_delta')).toMatchObject({ text: 'The pick succeeded.' });
    expect(c.runEvents(runId).find((e) => e.kind === 'assistant' && e.text === 'I picked up the lemon.')).toMatchObject({
      reasoning: 'The pick succeeded.',
    });
    expect((await session.getSnapshot({})).holding).toBe('lemon_1');
    const activity = c.events.filter((e) => e.type === 'tool_activity' && e.source === 'agent');
    expect(activity.map((e) => e.type === 'tool_activity' && e.phase)).toEqual(['start', 'end']);
    expect(activity[0]!.type === 'tool_activity' && activity[0]!.targets).toContain('lemon_1');
    expect(tracePath && existsSync(tracePath)).toBe(true);
    const exported = await session.exportTrace({ runId });
    const imported = await session.importTrace({ text: exported.text });
    expect(imported.header['runId']).toBe(runId);
    expect(imported.records.some((r) => r.type === 'tool_call')).toBe(true);
    expect(imported.records.some((r) => r.type === 'message' && r['reasoning'] === 'The pick succeeded.')).toBe(true);
    await expect(session.importTrace({ text: '{"nope":1}\n' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('asks before acting: approve runs the call, reject passes the note to the model', async () => {
    await session.resetScene({});
    const model = script('ask', [call('pick', { object_name: 'lemon' }), call('pick', { object_name: 'peach' }), { content: 'done' }]);
    const { runId } = await session.run({ message: 'pick', workflow: 'flat', model, approval: 'ask', fresh: true });
    const q1 = await c.until(runId, (e) => e.kind === 'approval_request');
    expect(q1).toMatchObject({ tool: 'pick', args: { object_name: 'lemon' } });
    expect(await session.answerApproval({ id: q1.kind === 'approval_request' ? q1.id : '', decision: 'approve' })).toMatchObject({
      ok: true,
    });
    await c.until(runId, (e) => e.kind === 'tool_result' && e.ok);
    const q2 = await c.until(runId, (e) => e.kind === 'approval_request' && e.id !== (q1.kind === 'approval_request' ? q1.id : ''));
    await session.answerApproval({ id: q2.kind === 'approval_request' ? q2.id : '', decision: 'reject', note: 'not the peach' });
    const rejected = await c.until(runId, (e) => e.kind === 'tool_result' && !e.ok);
    expect(rejected).toMatchObject({ status: 'rejected', content: expect.stringMatching(/not the peach/) });
    expect(await c.until(runId, (e) => e.kind === 'final')).toMatchObject({ reason: 'done' });
    expect((await session.answerApproval({ id: 'approval-999', decision: 'approve' })).ok).toBe(false);
  });

  it('refuses a second run while one is going, a bad spec, and a non-json scripted file', async () => {
    await expect(session.run({ message: 'x', workflow: 'flat', model: 'gpt4' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(session.run({ message: 'x', workflow: 'flat', model: 'scripted:/etc/passwd' })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(session.run({ message: 'x', workflow: 'nope', model: script('n', [{ content: 'hi' }]) })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    const p = await session.probeModel({ spec: 'openai-compatible:m@http://127.0.0.1:1/v1' });
    expect(p.reachable).toBe(false);
    expect(p.error?.message).toBeTruthy();
  });
});

describe('agent runs in the session service (paced): Stop and the emergency stop reach a running skill', () => {
  const session = new AppService({ paced: true, scriptFiles: { dir } });
  const c = collect(session);
  beforeAll(async () => {
    await session.loadScene({ id: 'tabletop/fruits' });
  });
  afterAll(() => session.dispose());

  it('stop mid-run ends it at once with reason stopped', async () => {
    const model = script('slow', [call('pick', { object_name: 'lemon' }), { content: 'done' }]);
    const { runId } = await session.run({ message: 'pick the lemon', workflow: 'flat', model });
    await c.until(runId, (e) => e.kind === 'tool_call');
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    expect((await session.stop({})).ok).toBe(true);
    const fin = await c.until(runId, (e) => e.kind === 'final', 3000);
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(fin).toMatchObject({ reason: 'stopped' });
    expect(c.runEvents(runId).some((e) => e.kind === 'stop')).toBe(true);
    expect((await session.getSnapshot({})).holding).toBeNull();
  });

  it('an injected emergency stop reaches the running skill: its result says estop', async () => {
    await session.resetScene({});
    const model = script('estop', [call('pick', { object_name: 'lemon' }), { content: 'the emergency stop is pressed' }]);
    const { runId } = await session.run({ message: 'pick the lemon', workflow: 'flat', model, fresh: true });
    await c.until(runId, (e) => e.kind === 'tool_call');
    await new Promise((r) => setTimeout(r, 200));
    await session.injectEvent({ type: 'estop_pressed' });
    const result = await c.until(runId, (e) => e.kind === 'tool_result', 5000);
    expect(result).toMatchObject({ ok: false, content: expect.stringMatching(/estop|emergency stop/i) });
    await c.until(runId, (e) => e.kind === 'final');
    await session.injectEvent({ type: 'estop_released' });
  });
});
