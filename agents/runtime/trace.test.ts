import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answer, call, FakeModel } from '../../test/support/fake-model';
import { look, noRobot } from '../../test/support/runtime-tools';
import { runFlow } from './flow';
import { MemorySink, Trace, formatTrace, parseTrace, readTrace, traceNotes } from './trace';

const dir = () => mkdtempSync(join(tmpdir(), 'skillbridge-trace-'));
const header = { runId: 'run-1', scene: 'tabletop/fruits', workflow: 'rtw/basic', model: 'fake:model', seed: 7 };
const usage = { promptTokens: 12, completionTokens: 3, totalTokens: 15 };

async function tracedRun(path: string, extra: MemorySink[] = []) {
  const trace = Trace.toFile(path, header, extra);
  const model = new FakeModel([
    call('lok'),
    call('look', {}, { usage }),
    answer('A lemon.', { usage, reasoning: 'The look result names a lemon.' }),
  ]);
  await runFlow({
    model,
    messages: [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'What do you see?' },
    ],
    tools: () => [look],
    robot: noRobot,
    trace,
    newFrom: 1,
  });
  trace.close();
}

describe('trace files', () => {
  it('writes a header line, then one stamped record per event, in order', async () => {
    const path = join(dir(), 'nested', 'run-1.jsonl');
    await tracedRun(path);
    const lines = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      type: 'header',
      format: 'skillbridge-trace/1',
      ...header,
      versions: { skillbridge: expect.any(String), node: process.version },
    });
    expect(lines.slice(1).map((l) => l['type'])).toEqual([
      'message', // system (prior)
      'message', // user
      'message', // assistant -> lok
      'tool_call',
      'warning',
      'tool_result',
      'message', // assistant -> look
      'tool_call',
      'tool_result',
      'message', // final text
      'final',
      'end',
    ]);
    expect(lines[1]).toMatchObject({ role: 'system', prior: true });
    expect(lines[2]).not.toHaveProperty('prior');
    for (const l of lines.slice(1)) {
      expect(typeof l['t']).toBe('string');
      expect(l['elapsedMs']).toBeGreaterThanOrEqual(0);
    }
    const { header: h, records, truncated } = readTrace(path);
    expect(h.runId).toBe('run-1');
    expect(truncated).toBeUndefined();
    expect(records.find((r) => r.type === 'message' && r.usage)).toMatchObject({ usage });
    expect(records.find((r) => r.type === 'tool_result' && r.ok)).toMatchObject({
      name: 'look',
      result: 'I see a lemon and a bowl.',
      durationMs: expect.any(Number),
    });
    expect(records.at(-1)).toMatchObject({ type: 'end', reason: 'final', iterations: 3, toolCalls: 2, usage: { totalTokens: 30 } });
  });

  it('keeps every record written before a crash: a line cut mid-write is reported, not fatal', async () => {
    const path = join(dir(), 'run.jsonl');
    await tracedRun(path);
    const text = readFileSync(path, 'utf8');
    const cut = text.slice(0, text.lastIndexOf('"reason"'));
    writeFileSync(path, cut);
    const r = readTrace(path);
    expect(r.records.at(-1)).toMatchObject({ type: 'final', answer: 'A lemon.' });
    expect(r.records).toHaveLength(11);
    expect(r.truncated).toMatchObject({ line: 13, text: expect.stringContaining('"type":"end"') });
    expect(formatTrace(r)).toContain('(line 13 was cut off mid-write and is not shown)');
  });

  it('leaves a damaged line in the middle out, naming it, and reads the rest', async () => {
    const path = join(dir(), 'run.jsonl');
    await tracedRun(path);
    const lines = readFileSync(path, 'utf8').split('\n');
    const whole = parseTrace(lines.join('\n'), 'run.jsonl');
    lines[3] = JSON.stringify({ type: 'tool_call', id: 'x' });
    const bad = parseTrace(lines.join('\n'), 'run.jsonl');
    expect(bad.skipped).toEqual([{ line: 4, reason: expect.stringMatching(/^bad record: /) }]);
    expect(bad.records).toHaveLength(whole.records.length - 1);
    lines[3] = '{not json';
    expect(parseTrace(lines.join('\n'), 'run.jsonl').skipped).toEqual([{ line: 4, reason: 'not valid JSON: {not json' }]);
    expect(traceNotes(parseTrace(lines.join('\n'), 'run.jsonl'))).toEqual(['line 4 was left out: not valid JSON: {not json']);
    expect(() => parseTrace('', 'empty.jsonl')).toThrow(/no header/);
    expect(() => parseTrace('{"type":"message"}\n', 'x')).toThrow(/x:1: not a trace header/);
  });

  it('formats a trace as readable text', async () => {
    const path = join(dir(), 'run.jsonl');
    await tracedRun(path);
    const text = formatTrace(readTrace(path));
    expect(text).toContain('run run-1');
    expect(text).toContain('scene tabletop/fruits  workflow rtw/basic  model fake:model  seed 7');
    expect(text).toMatch(/\[\s+\d+\.\d\ds\] \(earlier\) system: sys/);
    expect(text).toContain('→ lok {}');
    expect(text).toContain('! made_up_tool_name: Warning (made_up_tool_name): there is no tool named "lok". Did you mean "look"?');
    expect(text).toContain('← look ok in');
    expect(text).toContain('assistant: (thinking) The look result names a lemon.');
    expect(text).toContain('final: A lemon.');
    expect(text).toMatch(/end: final after 3 iteration\(s\), 2 tool call\(s\), 30 tokens/);
  });

  it('feeds the same lines to an in-memory sink and its listeners while writing the file', async () => {
    const mem = new MemorySink();
    const heard: string[] = [];
    mem.subscribe((l) => heard.push(l.type));
    const path = join(dir(), 'run.jsonl');
    await tracedRun(path, [mem]);
    expect(mem.header).toMatchObject({ runId: 'run-1' });
    expect(heard[0]).toBe('header');
    expect(mem.lines).toEqual([readTrace(path).header, ...readTrace(path).records]);
  });

  it('drops a sink that fails instead of failing the run', () => {
    const bad = {
      write: () => {
        throw new Error('disk full');
      },
    };
    const mem = new MemorySink();
    const trace = new Trace({ sinks: [bad, mem] });
    trace.record({ type: 'final', answer: 'a' });
    trace.record({ type: 'final', answer: 'b' });
    expect(trace.failures).toHaveLength(1);
    expect(mem.records).toHaveLength(2);
  });
});
