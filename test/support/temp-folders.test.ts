// Tests make temporary folders freely; the run's setup (global-setup.ts) points
// TMPDIR into the run's own folder, removed when the run ends, so none is left
// behind in the machine's /tmp whatever a test forgets to clean.
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';

describe('temporary folders of a test run', () => {
  it('are inside the run folder, which the run removes at its end', () => {
    const run = inject('sharedDir');
    expect(path.relative(run, tmpdir()).startsWith('..')).toBe(false);
    expect(tmpdir()).not.toBe(run);
  });

  it('are the same for a command a test starts', () => {
    const child = execFileSync(process.execPath, ['-e', 'process.stdout.write(require("node:os").tmpdir())'], { encoding: 'utf8' });
    expect(child).toBe(tmpdir());
  });
});
