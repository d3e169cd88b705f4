import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonlSink, type TraceLine, traceLineText } from './trace';

const prior = (role: 'system' | 'user' | 'assistant', content: string, n: number): TraceLine =>
  ({ type: 'message', role, content, prior: true, t: `2026-01-01T00:00:0${n % 10}.000Z`, elapsedMs: 0 }) as TraceLine;
const fresh = (content: string): TraceLine =>
  ({ type: 'message', role: 'user', content, t: '2026-01-01T00:01:00.000Z', elapsedMs: 3 }) as TraceLine;

function written(dir: string, name: string, lines: TraceLine[]): string {
  const s = new JsonlSink(join(dir, name));
  s.writeMany(lines);
  s.close();
  return readFileSync(join(dir, name), 'utf8');
}

const expected = (lines: TraceLine[]) => lines.map((l) => `${traceLineText(l)}\n`).join('');

describe('history written into each turn trace', () => {
  it('writes exactly the lines given, turn after turn, as the history grows, is cut, or changes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillbridge-trace-history-'));
    const h = [prior('system', 'sys', 0), prior('user', 'hé ✓ one', 1), prior('assistant', 'Done.', 2)];
    const turns: TraceLine[][] = [
      [h[0]!, fresh('first')],
      [h[0]!, h[1]!, fresh('second')],
      [h[0]!, h[1]!, h[2]!, fresh('third ✓')],
      // Cut from the middle (a compacted history): the prefix the sink knew no longer applies.
      [h[0]!, h[2]!, fresh('fourth')],
      // A different record in place of one written before.
      [h[0]!, prior('user', 'other', 5), h[2]!, fresh('fifth')],
      // Only prior lines; then none.
      [h[0]!, h[1]!],
      [],
      // Grows past the first buffer.
      [h[0]!, ...Array.from({ length: 400 }, (_, i) => prior('user', `long ${'x'.repeat(300)} ${i}`, i)), fresh('sixth')],
    ];
    turns.forEach((lines, i) => expect(written(dir, `t${i}.jsonl`, lines), `turn ${i}`).toBe(expected(lines)));
  });

  it('makes the directory again when it was removed between turns', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillbridge-trace-history-'));
    const sub = join(dir, 'runs');
    const lines = [prior('system', 'sys', 0), fresh('a')];
    expect(written(sub, 'a.jsonl', lines)).toBe(expected(lines));
    rmSync(sub, { recursive: true });
    expect(written(sub, 'b.jsonl', lines)).toBe(expected(lines));
  });
});
