// A one-shot command (scenes, tools, call) writes straight to file descriptors 1 and 2
// and ends as soon as its answer is written (bin/skillbridge.js, hosts/cli/output.ts):
// it never builds process.stdout/process.stderr (sockets on a pipe or a terminal, with
// the net module), and its whole answer still arrives; a pipe whose reader has gone
// ends it quietly (exit 0); a bad input is still one line and exit 2.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binProbe } from './support/bin-probe';

const BIN = join(import.meta.dirname, '../bin/skillbridge.js');

// Preloaded into the command: which Node built-ins it loaded, written at exit.
const probe = binProbe<string[]>(
  `process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_FILE, JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)))));`,
);
afterAll(probe.remove);

function run(args: string[], name: string): { status: number | null; stdout: string; stderr: string; loaded: string[] } {
  const r = probe.run(args, name);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, loaded: r.probed };
}

describe('one-shot commands write to the descriptors and exit at once', () => {
  it('a call prints its whole answer without building the stdio sockets', () => {
    const r = run(['call', '--scene', 'tabletop/fruits', 'pick', '{"object_name":"lemon"}', '--json'], 'call');
    expect(r.status, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as { results: Array<{ ok: boolean }>; facts: string[] };
    expect(answer.results[0]!.ok).toBe(true);
    expect(answer.facts).toContain('holding(robot, lemon_1)');
    expect(r.loaded).not.toContain('net');
    expect(r.loaded).not.toContain('tty');
  }, 180_000);

  it('a bad input is one line on stderr and exit 2, also under --json', () => {
    const bad = run(['tools', '--scene', 'nowhere'], 'bad');
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^skillbridge: .*nowhere/);
    const json = run(['tools', '--scene', 'nowhere', '--json'], 'bad-json');
    expect(json.status).toBe(2);
    expect((JSON.parse(json.stdout) as { error: { code: string } }).error.code).toBeTruthy();
  }, 180_000);

  it('output piped into a reader that has gone (head, true) ends the command quietly', () => {
    // `true` exits before node has started, so the first write meets a closed pipe (EPIPE).
    for (const reader of ['true', 'head -c 20 >/dev/null']) {
      const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" scenes --json | ${reader}`], {
        encoding: 'utf8',
        timeout: 180_000,
      });
      expect(r.status, `${reader}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toBe('');
    }
  }, 180_000);
});
