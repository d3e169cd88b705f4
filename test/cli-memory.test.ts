// A one-shot command (scenes, tools, call) keeps V8's young generation at the size
// it starts with (bin/skillbridge.js): each doubling would be fresh memory, touched
// once and torn down at exit. The answer is unchanged.
import { afterAll, describe, expect, it } from 'vitest';
import { binProbe } from './support/bin-probe';

// Preloaded into the command: the young generation's committed size when the command starts
// (one semi-space; the second is committed at the first scavenge) and at its exit.
const probe = binProbe<{ start: number; end: number }>(
  [
    "const v8 = require('node:v8');",
    "const size = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;",
    'const start = size();',
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_FILE, JSON.stringify({ start, end: size() })));",
  ].join('\n'),
);
afterAll(probe.remove);

function run(args: string[], name: string): { status: number | null; stdout: string; stderr: string; start: number; end: number } {
  const r = probe.run(args, name);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ...r.probed };
}

describe("a one-shot command keeps V8's young generation at its first size", () => {
  it('scenes', () => {
    const r = run(['scenes', '--json'], 'scenes');
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ id: string }>).map((s) => s.id)).toContain('tabletop/fruits');
    expect(r.end).toBeLessThanOrEqual(2 * r.start);
  }, 180_000);

  it('a call, with its answer unchanged', () => {
    const r = run(['call', '--scene', 'tabletop/fruits', 'pick', '{"object_name":"lemon"}', '--json'], 'call');
    expect(r.status, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as { results: Array<{ ok: boolean }>; facts: string[] };
    expect(answer.results[0]!.ok).toBe(true);
    expect(answer.facts).toContain('holding(robot, lemon_1)');
    expect(r.end).toBeLessThanOrEqual(2 * r.start);
  }, 180_000);
});
