// The sandbox's memory is limited as a whole: QuickJS shares strings by
// reference, so an array of references to one large string is small inside its
// memory limit and huge once copied out. The final value, a thrown value and an
// API call's arguments leave QuickJS only as JSON text under a cap, so the
// host's memory stays bounded whatever the program builds.
import { afterAll, describe, expect, it } from 'vitest';
import { Sandbox } from './sandbox';

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
