// The app's side of a workflow asking the person: RAIDER's recovery `ask` becomes a
// run event `ask`; the person's answerAsk reaches the plan, which goes on in the
// world. Stop drops an open question.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent, RunEvent } from '../../contract/schemas';
import { AppService } from './app-service';

const dir = mkdtempSync(join(tmpdir(), 'sb-ask-'));

function script(name: string, turns: unknown[]): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(turns));
  return `scripted:${name}.json`;
}

const calls = (...c: Array<[string, Record<string, unknown>]>) => ({
  tool_calls: c.map(([name, args], i) => ({ id: `c_${name}_${i}`, type: 'function', function: { name, arguments: args } })),
});
const plan = (code: string) => ({ content: `\`\`\`javascript\n${code}\n\`\`\`` });

describe('asking the person from the app', () => {
  const session = new AppService({ paced: false, ollamaURL: 'http://127.0.0.1:1/v1', scriptFiles: { dir } });
  const events: AppEvent[] = [];
  session.onEvent((e) => events.push(e));
  const runEvents = (runId: string): RunEvent[] => events.flatMap((e) => (e.type === 'run' && e.event.runId === runId ? [e.event] : []));
  const until = async (runId: string, kind: RunEvent['kind']): Promise<RunEvent> => {
    for (let t0 = Date.now(); Date.now() - t0 < 20_000; await new Promise((r) => setTimeout(r, 10))) {
      const hit = runEvents(runId).find((e) => e.kind === kind);
      if (hit) return hit;
    }
    throw new Error(
      `no ${kind}; events: ${runEvents(runId)
        .map((e) => e.kind)
        .join(', ')}`,
    );
  };
  beforeAll(async () => {
    await session.loadScene({ id: 'tabletop/fruits' });
  });
  afterAll(() => session.dispose());

  it('a recovery plan asks which fruit; the answer from the app picks it', async () => {
    const model = script('fruit', [
      calls(['object_detection', {}]),
      { content: JSON.stringify({ final_response: 'ambiguity', explanation: 'Four fruits are on the table.', category: 'IA' }) },
      plan('const fruit = ask("Which fruit should I pick?");\npick(fruit);'),
      calls(['robot_holding', {}]),
      { content: JSON.stringify({ final_response: 'none', explanation: 'The hand is empty.' }) },
    ]);
    const { runId } = await session.run({ message: 'Pick the fruit.', workflow: 'raider', model, fresh: true });
    const q = await until(runId, 'ask');
    expect(q).toMatchObject({ question: 'Which fruit should I pick?', stage: 'recovery', id: `${runId}/ask_1` });
    expect(await session.answerAsk({ id: 'nope', answer: 'x' })).toMatchObject({ ok: false });
    expect(await session.answerAsk({ id: q.kind === 'ask' ? q.id : '', answer: 'the lemon' })).toEqual({ ok: true, message: 'answered' });
    expect(await until(runId, 'final')).toMatchObject({ reason: 'done' });
    expect(runEvents(runId).find((e) => e.kind === 'answer')).toMatchObject({ answer: 'the lemon', by: 'person', id: `${runId}/ask_1` });
    expect((await session.getSnapshot({})).holding).toBe('lemon_1');
    expect((await session.exportTrace({ runId })).text).toMatch(/"type":"answer".*"answer":"the lemon","by":"person"/);
  });

  it('Stop while the question is open ends the run and drops the question', async () => {
    await session.resetScene({});
    const model = script('stop', [
      calls(['object_detection', {}]),
      { content: JSON.stringify({ final_response: 'ambiguity', explanation: 'Four fruits.' }) },
      plan('pick(ask("Which fruit?"));'),
    ]);
    const { runId } = await session.run({ message: 'Pick the fruit.', workflow: 'raider', model, fresh: true });
    const q = await until(runId, 'ask');
    expect((await session.stop({})).ok).toBe(true);
    expect(await until(runId, 'final')).toMatchObject({ reason: 'stopped' });
    expect(await session.answerAsk({ id: q.kind === 'ask' ? q.id : '', answer: 'lemon' })).toMatchObject({ ok: false });
    expect((await session.getSnapshot({})).holding).toBeNull();
  });
});
