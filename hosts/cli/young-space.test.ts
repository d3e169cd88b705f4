// Holding the young generation keeps it at its size while a call allocates, and
// letting it go restores V8's flags: code cached after the hold is accepted by a
// process that never held it (the CLI's code cache is keyed by the flags at start).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULE = join(import.meta.dirname, 'young-space.ts');

/** Runs an ES module (text) in a fresh node that can import TypeScript; its stdout as JSON. */
function run(dir: string, name: string, text: string): unknown {
  const file = join(dir, name);
  writeFileSync(file, text);
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', cwd: import.meta.dirname });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

const CHURN = `
import v8 from 'node:v8';
const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
// Short-lived objects with some survivors (what makes V8 grow its young generation).
const churn = () => { const keep = []; for (let i = 0; i < 4e6; i++) { const o = { x: i * 0.5, y: [i] }; if (i % 50 === 0) keep.push(o); if (keep.length > 2e4) keep.length = 0; } return keep.length; };
`;

describe('young space', () => {
  it('stays at its size while held, grows again once let go, and leaves the code cache valid', () => {
    const dir = mkdtempSync(join(tmpdir(), 'young-space-'));
    try {
      const sizes = run(
        dir,
        'sizes.mjs',
        `${CHURN}
import { holdYoungSpace, releaseYoungSpace } from ${JSON.stringify(MODULE)};
const start = young();
holdYoungSpace();
churn();
const held = young();
releaseYoungSpace();
churn();
const after = young();
console.log(JSON.stringify({ start, held, after }));`,
      ) as { start: number; held: number; after: number };
      expect(sizes.held).toBe(sizes.start);
      expect(sizes.after).toBeGreaterThan(sizes.held);

      const source = 'function f(a) { return a + 1 } f(1);';
      const cache = join(dir, 'cache.bin');
      run(
        dir,
        'produce.mjs',
        `import vm from 'node:vm';
import { writeFileSync } from 'node:fs';
import { holdYoungSpace, releaseYoungSpace } from ${JSON.stringify(MODULE)};
holdYoungSpace();
releaseYoungSpace();
const s = new vm.Script(${JSON.stringify(source)});
s.runInThisContext();
writeFileSync(${JSON.stringify(cache)}, s.createCachedData());
console.log('{}');`,
      );
      const consumed = run(
        dir,
        'consume.mjs',
        `import vm from 'node:vm';
import { readFileSync } from 'node:fs';
const s = new vm.Script(${JSON.stringify(source)}, { cachedData: readFileSync(${JSON.stringify(cache)}) });
console.log(JSON.stringify({ rejected: s.cachedDataRejected }));`,
      ) as { rejected: boolean };
      expect(consumed.rejected).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
