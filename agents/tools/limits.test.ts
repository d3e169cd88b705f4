// Tool arguments and results from a model are capped, numbers are finite and
// bounded, and a huge argument is neither run nor echoed whole into the trace.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answer, call, FakeModel } from '../../test/support/fake-model';
import { noRobot } from '../../test/support/runtime-tools';
import { runFlow } from '../runtime/flow';
import { MemorySink, Trace } from '../runtime/trace';
import { MAX_TOOL_ARGUMENT_CHARS, MAX_TOOL_RESULT_CHARS } from './limits';
import { defineTool } from './tool';

const card = { outputs: 'text', whenToUse: 'tests', dimension: 'execution' as const };
const move = defineTool({
  name: 'move_to',
  description: 'Moves to a point.',
  category: 'action',
  params: z.strictObject({ x: z.number(), y: z.number(), label: z.string().optional() }),
  card,
  execute: (a) => ({ ok: true, content: `moved to ${a.x}, ${a.y}` }),
});
const chatty = defineTool({
  name: 'chatty',
  description: 'Says a lot.',
  category: 'information',
  params: z.strictObject({}),
  card,
  execute: () => ({ ok: true, content: 'blah '.repeat(100_000) }),
});

describe('tool argument limits', () => {
  it('refuses non-finite and absurd numbers, naming the field', () => {
    const inf = move.parse('{"x": 1e999, "y": 0}');
    expect(inf).toMatchObject({ ok: false, message: expect.stringMatching(/x: Infinity is not a finite number/) });
    const huge = move.parse('{"x": 0, "y": 1e308}');
    expect(huge).toMatchObject({ ok: false, message: expect.stringMatching(/y: 1e\+308 is out of range/) });
    expect(move.parse('{"x": 0.5, "y": -2}')).toMatchObject({ ok: true });
  });

  it('refuses arguments over the size limit before parsing them', () => {
    const big = JSON.stringify({ x: 1, y: 2, label: 'a'.repeat(1_000_000) });
    const r = move.parse(big);
    expect(r).toMatchObject({
      ok: false,
      message: expect.stringMatching(new RegExp(`${big.length} characters, over the limit of ${MAX_TOOL_ARGUMENT_CHARS}`)),
    });
  });

  it('a 1 MB argument from a model is not run, and the history and the trace keep only its start', async () => {
    const big = JSON.stringify({ x: 1, y: 2, label: 'a'.repeat(1_000_000) });
    const model = new FakeModel([call('move_to', big), call('chatty'), answer('done')]);
    const sink = new MemorySink();
    const r = await runFlow({
      model,
      messages: [{ role: 'user', content: 'go' }],
      tools: () => [move, chatty],
      robot: noRobot,
      trace: new Trace({ sinks: [sink] }),
    });
    expect(r.reason).toBe('final');
    const traced = JSON.stringify(sink.lines);
    expect(traced.length).toBeLessThan(100_000);
    const result = sink.records.find((x) => x.type === 'tool_result' && x.name === 'move_to');
    expect(result).toMatchObject({ status: 'invalid_arguments', error: expect.stringMatching(/over the limit/) });
    const sent = model.requests[1]!.messages.find((m) => m.role === 'assistant');
    expect(JSON.stringify(sent).length).toBeLessThan(1000);
    // A huge result reaches the model cut to the limit, with a note.
    const chattyResult = r.messages.find((m) => m.role === 'tool' && (m.content ?? '').includes('blah'));
    expect(chattyResult?.content?.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 200);
    expect(chattyResult?.content).toMatch(/the rest was cut/);
  });
});
