// The pose stream: every moving body's pose packed into one Float32Array per
// frame (x, y, z, qx, qy, qz, qw), in a fixed order described once by the scene
// manifest. The renderer applies the latest frame it has; nothing else crosses.
import type { RAPIER } from '../rapier';
import { bodyReads } from './body-reads';
import type { SimWorld } from './sim-world';

export type StreamedKind = 'object' | 'door' | 'base' | 'arm' | 'person';

export interface StreamEntry {
  /** Entity, person or robot-part id. */
  id: string;
  kind: StreamedKind;
  body: number;
}

/** Bodies whose poses change, in a stable order: objects (scene order), doors, people, robot. */
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
  if (entries.length) read.check(entries[0]!.body);
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

  constructor(readonly entries: readonly StreamEntry[]) {
    this.last = new Float32Array(entries.length * POSE_FLOATS);
    this.slept = new Uint8Array(entries.length);
  }

  pack(sim: SimWorld, out: Float32Array = new Float32Array(this.entries.length * POSE_FLOATS)): Float32Array {
    const read = bodyReads(sim.world);
    if (this.entries.length) read.check(this.entries[0]!.body);
    const all = this.world !== sim.world || !(sim.time >= this.time && sim.time - this.time < SLEPT_THROUGH_S);
    this.world = sim.world;
    this.time = sim.time;
    const { last, slept, entries } = this;
    let reads = 0;
    for (let k = 0, i = 0; k < entries.length; k++, i += POSE_FLOATS) {
      const e = entries[k]!;
      if (e.kind === 'object') {
        const sleeping = read.sleeping(e.body);
        if (sleeping && slept[k] && !all) continue;
        slept[k] = sleeping ? 1 : 0;
        reads++;
      }
      last.set(read.pose(e.body), i);
    }
    this.lastReads = reads;
    out.set(last);
    return out;
  }
}
