// The pose stream: every moving body's pose packed into one Float32Array per
// frame (x, y, z, qx, qy, qz, qw), in a fixed order described once by the scene
// manifest. The renderer applies the latest frame it has; nothing else crosses.
import type { RAPIER } from '../rapier';
import { type BodyReads, bodyReads } from './body-reads';
import { type BodyMemory, slotOf } from './body-memory';
import type { SimWorld } from './sim-world';

export type StreamedKind = 'object' | 'door' | 'base' | 'arm' | 'person';

export interface StreamEntry {
  /** Entity, person or robot-part id. */
  id: string;
  kind: StreamedKind;
  body: number;
}

/** Bodies whose poses change, in a stable order: objects (scene order), doors, people, robot (base, arm parts, a described arm's other links). */
export function streamEntries(sim: SimWorld): StreamEntry[] {
  const out: StreamEntry[] = [];
  for (const e of sim.entities.values()) {
    if (!e.fixed) out.push({ id: e.id, kind: 'object', body: e.body });
    if (e.door) out.push({ id: `${e.id}#door`, kind: 'door', body: e.door.body });
  }
  for (const p of sim.people.values()) out.push({ id: p.spec.id, kind: 'person', body: p.body });
  out.push({ id: 'robot#base', kind: 'base', body: sim.bodyLinks.base });
  const arm = sim.bodyLinks.arm;
  if (arm) {
    for (const [part, body] of Object.entries(arm)) out.push({ id: `robot#${part}`, kind: 'arm', body });
  }
  // A described arm's links beyond those parts (wrists, flange), by link name: every link is drawn where it is.
  const chain = sim.bodyLinks.chain;
  if (chain)
    for (const [link, body] of chain.bodies)
      if (sim.bodyLinks.armExtras.has(body)) out.push({ id: `robot#link:${link}`, kind: 'arm', body });
  return out;
}

// x, y, z, qx, qy, qz, qw: the layout contract/frames.ts streams (FLOATS_PER_POSE); sim may not import the contract.
const POSE_FLOATS = 7;

export function packPoses(
  sim: SimWorld,
  entries: readonly StreamEntry[],
  out = new Float32Array(entries.length * POSE_FLOATS),
): Float32Array {
  // Allocation-free reads: the stream packs every moving body 60 times a second.
  const read = bodyReads(sim.world);
  if (entries.length) read.check(entries[0]!.body, 'pose');
  let i = 0;
  for (let k = 0; k < entries.length; k++) {
    out.set(read.pose(entries[k]!.body), i);
    i += POSE_FLOATS;
  }
  return out;
}

/**
 * Rapier puts a body to sleep only after it has been still for 2 s of simulated
 * time (its default activation), so an object asleep at two frames less than
 * this apart slept in between.
 */
const SLEPT_THROUGH_S = 1;

/**
 * Packs frames for one stream, reading only what can have moved since its last
 * frame of the same world: an object asleep then and now (frames less than a
 * second apart) is where it was (every teleport in the simulation wakes the
 * body), so its pose is copied from that frame. Doors, people and the robot are
 * kinematic and always read. A sleep test is one call into Rapier without a
 * callback, a pose read (where the build's layout is not known) two calls with seven: a resting kitchen packs in a
 * fraction of the time. A new world (a restore builds one) is read in full.
 */
export class PosePacker {
  private readonly last: Float32Array;
  /** 1 where the object slept when last read. */
  private readonly slept: Uint8Array;
  private world: RAPIER.World | undefined;
  private time = 0;
  /** Object poses read in the last frame (the rest were copied), for the tests and the benchmark. */
  lastReads = 0;

  /** Each entry's arena slot (body-memory.ts). */
  private readonly slots: Uint32Array;

  constructor(readonly entries: readonly StreamEntry[]) {
    this.last = new Float32Array(entries.length * POSE_FLOATS);
    this.slept = new Uint8Array(entries.length);
    this.slots = Uint32Array.from(entries, (e) => slotOf(e.body));
  }

  pack(sim: SimWorld, out: Float32Array = new Float32Array(this.entries.length * POSE_FLOATS)): Float32Array {
    const read = bodyReads(sim.world);
    if (this.entries.length) read.check(this.entries[0]!.body, 'pose');
    const all = this.world !== sim.world || !(sim.time >= this.time && sim.time - this.time < SLEPT_THROUGH_S);
    this.world = sim.world;
    this.time = sim.time;
    const m = read.run();
    this.lastReads = m && m.sleepB >= 0 ? this.fromMemory(m, all) : this.fromApi(read, all);
    out.set(this.last);
    return out;
  }

  /** Poses straight from Rapier's memory (body-memory.ts): a few typed-array reads per body. */
  private fromMemory(m: BodyMemory, all: boolean): number {
    const { last, slept, entries, slots } = this;
    const f = m.floats;
    const u8 = m.bytes;
    const { base, strideF, tF, rF, sleepB } = m;
    let reads = 0;
    for (let k = 0, i = 0; k < entries.length; k++, i += POSE_FLOATS) {
      const slot = slots[k]!;
      if (slot >= m.slots) {
        // Not in the arena as read (cannot happen while the handles are this world's): through the API.
        if (this.readOne(bodyReads(this.world!), k, i, all)) reads++;
        continue;
      }
      const e = base + slot * strideF;
      if (entries[k]!.kind === 'object') {
        const sleeping = u8[e * 4 + sleepB] === 1;
        if (sleeping && slept[k] && !all) continue;
        slept[k] = sleeping ? 1 : 0;
        reads++;
      }
      const t = e + tF;
      const r = e + rF;
      last[i] = f[t]!;
      last[i + 1] = f[t + 1]!;
      last[i + 2] = f[t + 2]!;
      last[i + 3] = f[r]!;
      last[i + 4] = f[r + 1]!;
      last[i + 5] = f[r + 2]!;
      last[i + 6] = f[r + 3]!;
    }
    return reads;
  }

  private fromApi(read: BodyReads, all: boolean): number {
    let reads = 0;
    for (let k = 0, i = 0; k < this.entries.length; k++, i += POSE_FLOATS) if (this.readOne(read, k, i, all)) reads++;
    return reads;
  }

  /** One entry's pose into `last`, unless it is an object that slept through; true when an object was read. */
  private readOne(read: BodyReads, k: number, i: number, all: boolean): boolean {
    const e = this.entries[k]!;
    if (e.kind === 'object') {
      const sleeping = read.sleeping(e.body);
      if (sleeping && this.slept[k] && !all) return false;
      this.slept[k] = sleeping ? 1 : 0;
    }
    this.last.set(read.pose(e.body), i);
    return e.kind === 'object';
  }
}
