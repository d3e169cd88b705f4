// Trace files made ahead: a conversation's later turns take a spare created on
// the thread pool and renamed, the folder holds only traces besides one hidden
// spare, a missing spare costs nothing but the create, and a process killed in
// the middle of a turn keeps every record written up to that moment.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, call, FakeModel } from '../../test/support/fake-model';
import { look, noRobot } from '../../test/support/runtime-tools';
import { loopWorkflow } from '../workflows/kit/loop';
import { Conversation } from './conversation';
import { readTrace } from './trace';
import { isSpareTraceName, removeTraceSpares, spareStats } from './trace-files';

const workflow = loopWorkflow({
  id: 'test/look',
  title: 'look',
  description: 'look',
  systemPrompt: () => 'sys',
  tools: () => [look],
  limits: { timeLimitMs: null },
});
const tick = () => new Promise((r) => setTimeout(r, 30));
const spares = (dir: string) => readdirSync(dir).filter(isSpareTraceName);
const traces = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
/** Until the folder's spare is made (the thread pool is slow on a busy machine), then one more turn of the loop for its callback. */
async function spareMade(dir: string): Promise<void> {
  for (let i = 0; i < 100 && spares(dir).length === 0; i++) await tick();
  await tick();
}

afterEach(() => removeTraceSpares());

describe('trace files made ahead', () => {
  it("a conversation's later turns take the spare made ahead; the folder holds the traces and one hidden spare", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillbridge-spares-'));
    const s = new Conversation({
      model: new FakeModel([call('look'), answer('A lemon.'), answer('Still a lemon.'), answer('Yes.')]),
      robot: noRobot,
      workflow,
      traceDir: dir,
    });
    const taken0 = spareStats.taken;
    const t1 = await s.send('What do you see?');
    await spareMade(dir);
    expect(spares(dir)).toHaveLength(1);
    const t2 = await s.send('And now?');
    await spareMade(dir);
    const t3 = await s.send('Sure?');
    expect(spareStats.taken - taken0).toBe(2);
    // Each turn's file is its own complete trace under its own name.
    expect(traces(dir).sort()).toEqual([t1, t2, t3].map((t) => t.tracePath!.split('/').pop()).sort());
    const third = readTrace(t3.tracePath!);
    expect(third.header).toMatchObject({ runId: t3.runId, turn: 3 });
    expect(third.records.filter((r) => r.type === 'message' && r.role === 'user').map((r) => r.type === 'message' && r.content)).toEqual([
      'What do you see?',
      'And now?',
      'Sure?',
    ]);
    expect(third.records.at(-1)).toMatchObject({ type: 'end', reason: 'final' });
    expect(readTrace(t1.tracePath!).records.some((r) => r.type === 'tool_result' && r.name === 'look')).toBe(true);
    await tick();
    expect(spares(dir).length).toBeLessThanOrEqual(1);
    removeTraceSpares();
    expect(spares(dir)).toEqual([]);
  });

  it('a spare that went away is replaced by creating the file in the turn', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillbridge-spares-'));
    const s = new Conversation({ model: new FakeModel([answer('One.'), answer('Two.')]), robot: noRobot, workflow, traceDir: dir });
    await s.send('1');
    await spareMade(dir);
    expect(spares(dir)).toHaveLength(1);
    for (const n of spares(dir)) unlinkSync(join(dir, n));
    const created0 = spareStats.created;
    const t2 = await s.send('2');
    expect(spareStats.created - created0).toBe(1);
    expect(readTrace(t2.tracePath!).records.at(-1)).toMatchObject({ type: 'end', reason: 'final' });
  });

  it('removes the spares of processes that are gone, not those of running ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillbridge-spares-'));
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => gone.once('exit', r));
    const stale = `.trace-spare-${gone.pid}-abc123.part`;
    const running = `.trace-spare-${process.ppid}-def456.part`;
    for (const n of [stale, running]) writeFileSync(join(dir, n), '');
    const s = new Conversation({ model: new FakeModel([answer('One.')]), robot: noRobot, workflow, traceDir: dir });
    await s.send('1');
    // The sweep and the next spare run on the thread pool: wait for both (bounded).
    for (let i = 0; i < 100 && (spares(dir).includes(stale) || spares(dir).length < 2); i++) await tick();
    expect(spares(dir)).not.toContain(stale);
    expect(spares(dir)).toContain(running);
    expect(spares(dir)).toHaveLength(2);
  });

  it('a process killed in the middle of a turn keeps every record written before the kill', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillbridge-killed-'));
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../test/support/trace-kill-child.ts'), dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const said = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => b.toString().includes('in tool') && resolve(b.toString()));
      child.once('exit', (code) => reject(new Error(`the child exited (${code}) before its tool ran`)));
    });
    expect(said).toMatch(/trace files from a spare: 1/);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    const files = traces(dir).sort();
    expect(files).toHaveLength(2);
    // The killed turn's file (the spare, renamed) has its header, the history, the model's call and the tool's start.
    const killed = files.map((f) => readTrace(join(dir, f))).find((t) => t.header?.turn === 2)!;
    expect(killed.records.map((r) => r.type)).toEqual(['message', 'message', 'message', 'message', 'message', 'tool_call']);
    expect(killed.records.at(-1)).toMatchObject({ type: 'tool_call', name: 'hang' });
    // The killed process left at most its one hidden spare, which is not a trace.
    expect(spares(dir).length).toBeLessThanOrEqual(1);
  }, 60_000);
});
