// Every door of the command line that takes a file, given a named pipe (FIFO)
// with no writer: each answers at once with one line and exit 2, never waits for
// a writer for ever. Run as child processes (the built bundle), so a door that
// still blocks is killed and reported rather than hanging the test run.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const bin = join(import.meta.dirname, '../../bin/skillbridge.js');
const dir = mkdtempSync(join(tmpdir(), 'sb-fifo-'));
const fifo = join(dir, 'pipe.json');
const fifoTrace = join(dir, 'pipe.jsonl');
execFileSync('mkfifo', [fifo, fifoTrace]);
const script = join(dir, 'script.json');
writeFileSync(script, JSON.stringify([{ content: 'done' }]));
const trace = join(dir, 'ok.jsonl');
writeFileSync(
  trace,
  `${JSON.stringify({
    type: 'header',
    format: 'skillbridge-trace/1',
    runId: 'r1',
    scene: 'tabletop/fruits',
    workflow: 'flat',
    model: 'scripted:x.json',
    seed: 1,
    versions: { skillbridge: '0.1.0', node: 'v20' },
    startedAt: '2026-01-01T00:00:00.000Z',
  })}\n`,
);

function cli(args: string[]): Promise<{ code: number | null; err: string; killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let killed = false;
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, 15_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, err, killed });
    });
  });
}

const run = ['run', '--scene', 'tabletop/fruits', '--model', `scripted:${script}`];
const DOORS: Array<[string, string[]]> = [
  ['run --scene', ['run', '--scene', fifo, '--model', `scripted:${script}`, 'hi']],
  ['run --model scripted:', ['run', '--scene', 'tabletop/fruits', '--model', `scripted:${fifo}`, 'hi']],
  ['run --answers', [...run, '--answers', fifo, 'hi']],
  ['run --mcp', [...run, '--mcp', fifo, 'hi']],
  ['run --trace', [...run, '--trace', fifoTrace, 'hi']],
  ['call --scene', ['call', '--scene', fifo, 'get_objects']],
  ['call --script', ['call', '--scene', 'tabletop/fruits', '--script', fifo]],
  ['call --mapping', ['call', '--robot', 'ws://127.0.0.1:9', '--mapping', fifo, 'get_objects']],
  ['mcp --robots', ['mcp', '--robots', fifo]],
  ['trace', ['trace', fifoTrace]],
  ['export TRACE', ['export', fifoTrace, '--mcap', join(dir, 'out.mcap')]],
  ['export --mcap', ['export', trace, '--mcap', fifo]],
  ['report --junit', ['report', 'r1', '--junit', fifo]],
  ['eval --prices', ['eval', '--suite', 'rtw', '--model', `scripted:${script}`, '--prices', fifo]],
];

describe('a named pipe given for a file', () => {
  it.each(DOORS)(
    '%s answers at once with one line, exit 2',
    async (_door, args) => {
      const r = await cli(args);
      expect(r.killed, `${args.join(' ')} waited on the pipe`).toBe(false);
      expect(r.err.trim().split('\n'), r.err).toHaveLength(1);
      expect(r.err).toMatch(/named pipe|FIFO/);
      expect(r.code).toBe(2);
    },
    30_000,
  );
});
