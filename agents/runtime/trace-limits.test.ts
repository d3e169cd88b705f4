// A trace line has a size cap: a record with a huge string (a tool's 20 MB
// answer) is written as one line under the cap, saying what was cut, and still reads back.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_TRACE_LINE_BYTES, Trace, readTrace } from './trace';

describe('trace line size', () => {
  it('cuts the long strings of an oversized record and keeps the rest', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sb-trace-cap-')), 'run.jsonl');
    const trace = Trace.toFile(file, { runId: 'r1', scene: 'tabletop/fruits', workflow: 'flat', model: 'scripted:x.json', seed: 1 });
    trace.record({ type: 'message', role: 'user', content: 'x'.repeat(20_000_000) });
    trace.record({ type: 'message', role: 'user', content: 'short' });
    trace.close();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(Buffer.byteLength(l)).toBeLessThanOrEqual(MAX_TRACE_LINE_BYTES);
    const recs = readTrace(file).records;
    expect(recs[0]).toMatchObject({ type: 'message', content: expect.stringMatching(/…\[cut: \d+ more characters\]$/) });
    expect(recs[1]).toMatchObject({ type: 'message', content: 'short' });
  });
});
