// `skillbridge run --model local:FILE.gguf` end to end, through the real bin script
// (the command-line bundle, its model process beside it) on a tiny generated model:
// a tool call the grammar made reaches the robot, its result goes back, and the
// trace has tokens and timing. And a file that is no model: one line, exit 2.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTinyGguf } from '../../test/support/tiny-gguf';

const BIN = join(import.meta.dirname, '../../bin/skillbridge.js');

function skillbridge(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...process.env, SKILLBRIDGE_LOCAL_MAX_TOKENS: '160' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Rec {
  type: string;
  role?: string;
  name?: string;
  tool_calls?: unknown[];
  usage?: { promptTokens: number; completionTokens: number; timeToFirstTokenMs?: number; tokensPerSecond?: number };
}

describe('run --model local:FILE.gguf', () => {
  it('runs a tool-calling conversation on the generated model, with tokens and timing in the trace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-local-cli-'));
    const model = writeTinyGguf(join(dir, 'tiny.gguf'));
    const trace = join(dir, 'run.jsonl');
    const r = skillbridge([
      'run',
      '--scene',
      'tabletop/fruits',
      '--workflow',
      'flat',
      '--model',
      `local:${model}`,
      '--max-iterations',
      '2',
      '--time-limit',
      '600',
      '--trace',
      trace,
      '--json',
      'What do you see?',
    ]);
    expect(r.stderr).not.toMatch(/at .*\.(m?js|ts):\d+/);
    const recs = readFileSync(trace, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Rec);
    const calls = recs.filter((e) => e.type === 'tool_call');
    const results = recs.filter((e) => e.type === 'tool_result');
    expect(calls.length).toBeGreaterThan(0);
    expect(results.length).toBe(calls.length);
    expect(results.map((e) => e.name)).toEqual(calls.map((e) => e.name));
    const turns = recs.filter((e) => e.type === 'message' && e.role === 'assistant' && e.usage);
    expect(turns.length).toBeGreaterThan(1); // the tool result went back for a second turn
    for (const t of turns) {
      expect(t.usage?.promptTokens).toBeGreaterThan(0);
      expect(t.usage?.completionTokens).toBeGreaterThan(0);
      expect(t.usage?.timeToFirstTokenMs).toBeGreaterThan(0);
    }
    expect(turns[1]!.usage!.promptTokens).toBeGreaterThan(turns[0]!.usage!.promptTokens);
  }, 620_000);

  it('answers a file that is no model with one line and exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-local-cli-'));
    const junk = join(dir, 'junk.gguf');
    writeFileSync(junk, 'GGUF and then nothing a model needs');
    const r = skillbridge(['run', '--scene', 'tabletop/fruits', '--model', `local:${junk}`, 'hi']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(junk);
    expect(r.stderr).not.toMatch(/at .*\.(m?js|ts):\d+/);
  }, 620_000);
});
