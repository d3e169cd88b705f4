// The command line under bad input and signals: numbers out of range, a folder
// for a trace, damaged traces, SIGTERM mid-run, Ctrl-C at an approval prompt.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'skillbridge-hard-'));
const header = JSON.stringify({
  type: 'header',
  format: 'skillbridge-trace/1',
  runId: 'r1',
  scene: 'tabletop/fruits',
  workflow: 'flat',
  model: 'scripted:x.json',
  seed: 1,
  versions: { skillbridge: '0.1.0', node: 'v20' },
  startedAt: '2026-01-01T00:00:00.000Z',
});
const msg = (content: string) => JSON.stringify({ type: 'message', role: 'user', content, t: '2026-01-01T00:00:00.000Z', elapsedMs: 0 });
const end = JSON.stringify({
  type: 'end',
  reason: 'final',
  iterations: 1,
  toolCalls: 0,
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  durationMs: 5,
  t: '2026-01-01T00:00:00.000Z',
  elapsedMs: 5,
});

describe('bad options exit 2 with one line', () => {
  it('a folder given to trace', async () => {
    const r = await cli('trace', dir);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/is a folder/);
  });

  it('time limits and iteration caps that cannot work', async () => {
    for (const [flag, value, why] of [
      ['--time-limit', '1e-9', /--time-limit must be 0.1 to 86400 \(or 0 for none\)/],
      ['--time-limit=-5', undefined, /--time-limit must be/],
      ['--time-limit', 'Infinity', /--time-limit must be a number/],
      ['--max-iterations', '0', /--max-iterations must be 1 to 1000/],
      ['--max-iterations', '1e9', /--max-iterations must be 1 to 1000/],
    ] as const) {
      const opt = value === undefined ? [flag] : [flag, value];
      const r = await cli('run', '--scene', 'tabletop/fruits', '--model', 'scripted:x.json', ...opt, 'hi');
      expect(r.code).toBe(2);
      expect(r.err).toMatch(why);
    }
  });
});

describe('reading traces', () => {
  it('a UTF-8 BOM and CRLF line ends are read', async () => {
    const file = join(dir, 'bom.jsonl');
    writeFileSync(file, `\uFEFF${header}\r\n${msg('hello')}\r\n${end}\r\n`);
    const r = await cli('trace', file);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/user: hello/);
    expect(r.err).toBe('');
  });

  it('a corrupt line in the middle is left out and reported; the rest is read', async () => {
    const file = join(dir, 'corrupt.jsonl');
    writeFileSync(file, `${header}\n${msg('first')}\n{"type":"mess\u0000age", broken\n${msg('second')}\n${end}\n`);
    const r = await cli('trace', file);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/first[\s\S]*second/);
    expect(r.err).toMatch(/line 3 was left out: not valid JSON/);
  });

  it('a run without an end record is flagged as cut off', async () => {
    const file = join(dir, 'cut.jsonl');
    writeFileSync(file, `${header}\n${msg('started')}\n`);
    const r = await cli('trace', file);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/no end record: it was cut off/);
  });
});

/** Starts `skillbridge run --approve ask` on a pick; resolves once it waits at the prompt. */
function atApprovalPrompt(trace: string) {
  const script = join(dir, `pick-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    script,
    JSON.stringify([{ tool_calls: [{ function: { name: 'pick', arguments: { object_name: 'lemon_1' } } }] }, { content: 'ok' }]),
  );
  const child = spawn(
    process.execPath,
    [
      join(import.meta.dirname, '../../bin/skillbridge.js'),
      'run',
      '--scene',
      'tabletop/fruits',
      '--workflow',
      'flat',
      '--model',
      `scripted:${script}`,
      '--approve',
      'ask',
      '--time-limit',
      '0',
      '--trace',
      trace,
      'pick the lemon',
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  const waiting = new Promise<void>((resolve, reject) => {
    const t = setInterval(() => {
      if (/Approve pick/.test(output)) {
        clearInterval(t);
        resolve();
      }
    }, 20);
    void exited.then(() => reject(new Error(`exited early: ${output}`)));
  });
  return { child, waiting, exited, output: () => output };
}

describe('signals during a run', () => {
  it('Ctrl-C at an approval prompt stops the turn and the process ends (stdin is let go)', async () => {
    const trace = join(dir, 'sigint.jsonl');
    const run = atApprovalPrompt(trace);
    await run.waiting;
    run.child.kill('SIGINT');
    const code = await run.exited; // stdin stays open: the old prompt kept the process waiting here
    expect(code).toBe(0);
    expect(run.output()).toMatch(/turn ended: stopped/);
    expect(readFileSync(trace, 'utf8')).toMatch(/"type":"stop"[\s\S]*"type":"end"/);
  }, 60_000);

  it('SIGTERM stops the running turn, writes its stop and end records, and exits 143', async () => {
    const trace = join(dir, 'sigterm.jsonl');
    const run = atApprovalPrompt(trace);
    await run.waiting;
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(143);
    const text = readFileSync(trace, 'utf8');
    expect(text).toMatch(/"type":"stop"[^\n]*SIGTERM/);
    expect(text).toMatch(/"type":"end","reason":"stopped"/);
  }, 60_000);
});

describe('a retried model stream', () => {
  it("prints the abandoned attempt's partial text on its own line, not joined to the retry's", async () => {
    const { startOpenAIServer } = await import('../../test/support/openai-server');
    const server = await startOpenAIServer([
      { content: 'ABANDONED-PARTIAL-TEXT-XYZ', textChunkSize: 4, dropAfterChunks: 3 },
      { content: 'Second attempt answer.' },
    ]);
    try {
      const child = spawn(
        process.execPath,
        [
          join(import.meta.dirname, '../../bin/skillbridge.js'),
          'run',
          '--scene',
          'tabletop/fruits',
          '--workflow',
          'flat',
          '--model',
          `openai-compatible:test-model@${server.url}`,
          '--trace',
          join(dir, 'retry.jsonl'),
          'hello',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      await new Promise((r) => child.on('exit', r));
      const lines = out.split('\n');
      const partial = lines.find((l) => l.startsWith('model: ABAN'));
      expect(partial).toBeDefined();
      expect(partial).not.toMatch(/Second/);
      expect(lines).toContain('model: Second attempt answer.');
    } finally {
      await server.close();
    }
  }, 60_000);
});
