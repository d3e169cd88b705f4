// The sandbox's memory is limited as a whole: QuickJS shares strings by
// reference, so an array of references to one large string is small inside its
// memory limit and huge once copied out. The final value, a thrown value and an
// API call's arguments leave QuickJS only as JSON text under a cap, so the
// host's memory stays bounded whatever the program builds. And the limit counts
// every allocation: typed arrays, array buffers, strings, arrays and objects all
// live in the one WebAssembly memory the limit caps (QuickJS's own count saw a
// thousand 1 MB typed arrays as 8 KB). The property test draws programs that
// keep or drop allocations of every kind, sizes and counts, some catching the
// error, and checks the memory never passes the cap and the next program runs.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { Sandbox } from './sandbox';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';

const sandbox = new Sandbox();
afterAll(() => sandbox.dispose());

// 2,000 references to one 1 MB string: ~16 KB inside QuickJS, 2 GB as a copy.
const BUILD = 'const s = "x".repeat(1_000_000); const a = []; for (let i = 0; i < 2000; i++) a.push(s);';

const rss = () => process.memoryUsage().rss;

describe('sandbox memory as a whole', () => {
  it('refuses to return a value whose copy would be huge, and the host does not grow', async () => {
    const before = rss();
    const r = await sandbox.run(`${BUILD}\nreturn a;`, { api: {} });
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.error.message).toMatch(/too large|memory/i);
    expect(rss() - before).toBeLessThan(600 * 1024 * 1024);
  }, 30_000);

  it('refuses a thrown value of the same kind', async () => {
    const r = await sandbox.run(`${BUILD}\nthrow a;`, { api: {} });
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r).length).toBeLessThan(100_000);
  }, 30_000);

  it('refuses to send such arguments to an API function (which is never called)', async () => {
    let called = 0;
    const r = await sandbox.run(`${BUILD}\nreturn pick(a);`, { api: { pick: async () => ++called } });
    expect(called).toBe(0);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.error.message).toMatch(/too large/);
  }, 30_000);
});

const MiB = 1024 * 1024;
/** The build's own start (code, stack, first heap) that the limit comes on top of. */
const BASE = 16 * MiB;

describe('the memory limit counts every allocation', () => {
  it('ends 1,000 retained 1 MB typed arrays at the 32 MiB limit; the worker holds no more than limit + 16 MiB', async () => {
    const before = rss();
    const r = await sandbox.run('const a = [];\nfor (let i = 0; i < 1000; i++) a.push(new Uint8Array(1_000_000));\nreturn a.length;', {
      api: {},
    });
    expect(r.ok ? r.value : r.error).toMatchObject({ kind: 'memory', line: 2, message: expect.stringContaining('limit 32 MiB') });
    expect(sandbox.lastHeapBytes).toBeLessThanOrEqual(32 * MiB + BASE);
    // The worker is a thread of this process: its memory shows in the process's RSS.
    expect(rss() - before).toBeLessThan(200 * MiB);
  }, 30_000);

  it('counts array buffers, strings, arrays and objects the same way', async () => {
    const kinds = [
      'k.push(new ArrayBuffer(1_000_000))',
      'k.push(new Float64Array(125_000))',
      'k.push(String(i).repeat(500_000))',
      'k.push(new Array(100_000).fill(i))',
      'k.push({ i, s: "abc" + i })',
    ];
    for (const push of kinds) {
      const r = await sandbox.run(`globalThis.k = [];\nfor (let i = 0; i < 5e6; i++) ${push};\nreturn k.length;`, { api: {} });
      expect(r.ok ? `${push} kept ${String(r.value)}` : r.error.kind).toBe('memory');
      expect(sandbox.lastHeapBytes).toBeLessThanOrEqual(32 * MiB + BASE);
    }
  }, 60_000);

  it('a program with a larger limit may use it, and the next one is held to its own again', async () => {
    const big = await sandbox.run('const a = [];\nfor (let i = 0; i < 100; i++) a.push(new Uint8Array(1_000_000));\nreturn a.length;', {
      api: {},
      limits: { memoryBytes: 128 * MiB },
    });
    expect(big).toMatchObject({ ok: true, value: 100 });
    const small = await sandbox.run('const a = [];\nfor (let i = 0; i < 100; i++) a.push(new Uint8Array(1_000_000));\nreturn a.length;', {
      api: {},
      limits: { memoryBytes: 8 * MiB },
    });
    expect(small.ok ? small.value : small.error.kind).toBe('memory');
    expect(sandbox.lastHeapBytes).toBeLessThanOrEqual(8 * MiB + BASE);
  }, 30_000);

  it('has no SharedArrayBuffer (a growable one wrote past its allocation) and no Atomics', async () => {
    const r = await sandbox.run('return [typeof SharedArrayBuffer, typeof Atomics, typeof globalThis.SharedArrayBuffer];', { api: {} });
    expect(r).toMatchObject({ ok: true, value: ['undefined', 'undefined', 'undefined'] });
  });

  it(
    'whatever a program keeps, the memory stays under the cap and the next program runs (property)',
    async () => {
      const runs = fuzzRuns(16);
      const alloc = fc.constantFrom(
        (n: number) => `new Uint8Array(${n})`,
        (n: number) => `new Float32Array(${Math.ceil(n / 4)})`,
        (n: number) => `new ArrayBuffer(${n})`,
        (n: number) => `new DataView(new ArrayBuffer(${n}))`,
        (n: number) => `"x".repeat(${n}) + i`,
        (n: number) => `new Array(${Math.ceil(n / 8)}).fill(i)`,
        (n: number) => `Array.from({ length: ${Math.ceil(n / 64)} }, (_, j) => ({ j }))`,
        (n: number) => `new Uint8Array(new ArrayBuffer(8, { maxByteLength: ${n} })).buffer.resize(${n})`,
      );
      const program = fc.record({
        alloc,
        bytes: fc.integer({ min: 1, max: 2_000_000 }),
        count: fc.integer({ min: 1, max: 120 }),
        keep: fc.constantFrom('global', 'local', 'drop'),
        catches: fc.boolean(),
        limitMiB: fc.constantFrom(4, 8, 32),
      });
      await fc.assert(
        fc.asyncProperty(program, async (p) => {
          const body = `${p.keep === 'global' ? 'globalThis.k = [];' : 'const k = [];'}\nfor (let i = 0; i < ${p.count}; i++) { const v = ${p.alloc(p.bytes)}; ${p.keep === 'drop' ? '' : 'k.push(v);'} }\nreturn k.length;`;
          const code = p.catches ? `try {\n${body}\n} catch (e) { return "caught " + e.message; }` : body;
          const r = await sandbox.run(code, { api: {}, limits: { memoryBytes: p.limitMiB * MiB } });
          expect(sandbox.lastHeapBytes).toBeLessThanOrEqual(p.limitMiB * MiB + BASE);
          if (!r.ok) expect(r.error.kind).toBe('memory');
          const next = await sandbox.run('return 6 * 7;', { api: {} });
          expect(next).toMatchObject({ ok: true, value: 42 });
        }),
        { seed: fuzzSeed(34), numRuns: runs },
      );
    },
    Math.max(120_000, fuzzRuns(16) * 3000),
  );
});
