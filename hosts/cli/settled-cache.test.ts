// `skillbridge call` keeps settled worlds in the user's cache folder: a call on a
// world restored at rest must give exactly what a call on a world that stepped
// itself to rest gives, and a cache file that does not fit is never trusted.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSim } from '../../robot/sim/open';
import { SettledFiles } from '../../robot/sim/settled-files';
import type { SettleStart, SettledStore } from '../../sim/world/sim-world';
import { findTool } from './commands/call';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'sb-settled-'));
  dirs.push(d);
  return d;
}

/** A store that says what it handed out. */
class Watched implements SettledStore {
  hits = 0;
  saves = 0;
  constructor(readonly inner: SettledStore) {}
  load(start: SettleStart): Uint8Array | undefined {
    const b = this.inner.load(start);
    if (b) this.hits++;
    return b;
  }
  save(start: SettleStart, settled: Uint8Array): void {
    this.saves++;
    this.inner.save(start, settled);
  }
}

/** Every entity's pose, exactly. */
function poses(control: Awaited<ReturnType<typeof openSim>>['control']): Record<string, unknown> {
  const w = control.world;
  return Object.fromEntries([...w.entities.keys()].sort().map((id) => [id, w.pose(id)]));
}

/** What `skillbridge call --scene SCENE pick {object_name}` does, with the poses before and after. */
async function callPick(scene: string, object: string, settled?: SettledStore) {
  const { robot, control } = await openSim(scene, { seed: 1, ...(settled ? { settled } : {}) });
  const atRest = poses(control);
  const { tool } = await findTool(robot, 'pick', undefined);
  const r = await tool.call({ object_name: object }, { robot, signal: new AbortController().signal, state: new Map() });
  const after = { result: { ok: r.ok, content: r.content }, atRest, poses: poses(control), facts: control.facts(), time: control.time() };
  control.dispose();
  return after;
}

describe('settled worlds kept between calls', () => {
  it('a call on a restored world gives the same tool result and the same object poses as one that settled itself', async () => {
    const store = new Watched(new SettledFiles(tempDir()));
    const plain = await callPick('tabletop/fruits', 'lemon');
    const first = await callPick('tabletop/fruits', 'lemon', store);
    expect(store.hits).toBe(0);
    expect(store.saves).toBe(1);
    const cached = await callPick('tabletop/fruits', 'lemon', store);
    expect(store.hits).toBe(1);
    expect(plain.result.ok).toBe(true);
    expect(first).toEqual(plain);
    expect(cached).toEqual(plain);
  });

  it('keeps one file per starting world: another scene is not served the first one', async () => {
    const dir = tempDir();
    const store = new Watched(new SettledFiles(dir));
    await callPick('tabletop/fruits', 'lemon', store);
    const boxes = await callPick('tabletop/boxes', 'toy block', store);
    expect(store.hits).toBe(0);
    expect(readdirSync(dir).filter((f) => f.endsWith('.bin'))).toHaveLength(2);
    expect(boxes).toEqual(await callPick('tabletop/boxes', 'toy block'));
  });

  it('ignores a damaged, truncated or foreign cache file and settles by stepping, with the same result', async () => {
    const dir = tempDir();
    const plain = await callPick('tabletop/fruits', 'lemon');
    await callPick('tabletop/fruits', 'lemon', new SettledFiles(dir));
    const [name] = readdirSync(dir);
    const file = path.join(dir, name!);
    const good = readFileSync(file);
    const damaged = Buffer.from(good);
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 100) ^ 0x40, damaged.length - 100); // one bit of the settled physics
    const foreign = Buffer.from(good);
    foreign.writeUInt8(foreign.readUInt8(20) ^ 0x01, 20); // the key it was saved under
    for (const bad of [damaged, good.subarray(0, good.length - 7), foreign, Buffer.from('not a settled world'), Buffer.alloc(0)]) {
      writeFileSync(file, bad);
      const store = new Watched(new SettledFiles(dir));
      expect(await callPick('tabletop/fruits', 'lemon', store)).toEqual(plain);
      expect(store.hits).toBe(0);
      // Written anew, it serves the next call.
      expect(readFileSync(file).equals(good)).toBe(true);
    }
  });

  it('does not restore intact bytes of another world (a store that hands out the wrong scene)', async () => {
    let boxes: Uint8Array | undefined;
    await callPick('tabletop/boxes', 'toy block', { load: () => undefined, save: (_s, b) => void (boxes = b) });
    let handed = 0;
    const wrong: SettledStore = { load: () => (handed++, boxes), save: () => undefined };
    const r = await callPick('tabletop/fruits', 'lemon', wrong);
    expect(handed).toBe(1);
    expect(r).toEqual(await callPick('tabletop/fruits', 'lemon'));
  });

  it('a folder it cannot write is no error: the call steps as without a cache', async () => {
    const file = path.join(tempDir(), 'a-file');
    writeFileSync(file, 'x');
    const store = new Watched(new SettledFiles(path.join(file, 'settled')));
    const r = await callPick('tabletop/fruits', 'lemon', store);
    expect(r.result.ok).toBe(true);
    expect(store.saves).toBe(1);
  });
});
