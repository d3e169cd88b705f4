// The code_run record: a tool that runs a model's program in the sandbox reports
// it through ctx.codeRun; the trace keeps the code, how it ended, the output and
// each API call with its result, under the calling tool call and stage.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answer, call, FakeModel } from '../../test/support/fake-model';
import { noRobot } from '../../test/support/runtime-tools';
import { runProgram } from '../sandbox';
import { codeRunOf } from './code-run';
import { defineTool } from '../tools/tool';
import { Conversation } from './conversation';
import { MemorySink, formatTrace } from './trace';
import type { Workflow } from './workflow';

const runCode = defineTool({
  name: 'run_program',
  description: 'Runs a program against a tiny counter API.',
  category: 'action',
  params: z.strictObject({ code: z.string() }),
  card: { outputs: 'the calls and the result', whenToUse: 'in tests', dimension: 'execution' },
  execute: async ({ code }, ctx) => {
    let n = 0;
    const t0 = performance.now();
    const r = await runProgram(code, {
      api: {
        add: async (args) => (n += Number((args as unknown[])[0])),
        fail: async () => {
          throw new Error('the gripper is empty');
        },
      },
      signal: ctx.signal,
    });
    ctx.codeRun?.(codeRunOf('program_1', code, r, performance.now() - t0));
    return { ok: r.ok, content: r.ok ? `count is ${n}` : r.error.message };
  },
});

const wf: Workflow = {
  id: 'test/code',
  title: 'code',
  description: 'runs code',
  stages: ['executor'],
  systemPrompt: () => 'sys',
  run: async (ctx) => {
    const r = await ctx.flow({ stage: 'executor', tools: [runCode] });
    return { reason: r.reason, final: r.final };
  },
};

describe('code_run records', () => {
  it('carry the program, its per-call results and how it ended, nested under the tool call and stage', async () => {
    const code = 'add(2);\nadd(3);\nprint("done adding");\nfail();';
    const model = new FakeModel([call('run_program', { code }), answer('It failed at the last step.')]);
    const sink = new MemorySink();
    const c = new Conversation({ model, workflow: wf, robot: noRobot, traceSinks: () => [sink] });
    expect((await c.send('count')).final).toBe('It failed at the last step.');
    const toolCall = sink.records.find((r) => r.type === 'tool_call')!;
    const run = sink.records.find((r) => r.type === 'code_run');
    expect(run).toMatchObject({
      stage: 'executor',
      id: 'program_1',
      toolCallId: toolCall.type === 'tool_call' ? toolCall.id : '',
      language: 'javascript',
      code,
      ok: false,
      error: { kind: 'api_error', line: 4 },
      output: expect.stringContaining('done adding'),
      calls: [
        { seq: 1, name: 'add', args: [2], ok: true, result: '2' },
        { seq: 2, name: 'add', args: [3], ok: true, result: '5' },
        { seq: 3, name: 'fail', ok: false, error: expect.stringContaining('the gripper is empty') },
      ],
    });
    // The code_run comes before the call's result, so a reader sees the program, then what the tool answered.
    expect(sink.records.findIndex((r) => r.type === 'code_run')).toBeLessThan(sink.records.findIndex((r) => r.type === 'tool_result'));
    const text = formatTrace(sink.lines);
    expect(text).toMatch(/\[executor\] program program_1 \(3 calls, \d+ ms\) ended: api_error at line 4/);
    expect(text).toMatch(/2\. add \[3\] → 5/);
  }, 20_000);
});
