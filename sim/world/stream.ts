// The pose stream: every moving body's pose packed into one Float32Array per
// frame (x, y, z, qx, qy, qz, qw), in a fixed order described once by the scene
// manifest. The renderer applies the latest frame it has; nothing else crosses.
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
  let i = 0;
  for (let k = 0; k < entries.length; k++) {
    const body = entries[k]!.body;
    let r = read.translation(body);
    out[i++] = r[0]!;
    out[i++] = r[1]!;
    out[i++] = r[2]!;
    r = read.rotation(body);
    out[i++] = r[0]!;
    out[i++] = r[1]!;
    out[i++] = r[2]!;
    out[i++] = r[3]!;
  }
  return out;
}
