// A described robot's content, hashed: its structure (links, joints, limits,
// shapes), the sidecar's values and every mesh's vertices. Two runs with robots
// that differ in any of these differ in this hash, whatever the files were called;
// the same robot read from another folder hashes the same.
import { createHash } from 'node:crypto';
import type { LoadedRobot } from './load';

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) && !ArrayBuffer.isView(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

/** 16 hex digits of the robot's content (null parts, a description that could not be read, hash as such). */
export function robotContentHash(loaded: LoadedRobot): string {
  const h = createHash('sha256');
  h.update(canonical({ description: loaded.description, extras: loaded.extras }));
  for (const ref of [...loaded.meshes.keys()].sort()) {
    const m = loaded.meshes.get(ref)!;
    h.update(`\0mesh ${ref} ${m.mesh.format} ${m.mesh.triangles}\0`);
    h.update(new Uint8Array(m.mesh.positions.buffer, m.mesh.positions.byteOffset, m.mesh.positions.byteLength));
  }
  return h.digest('hex').slice(0, 16);
}

/** How a run's identity names the robot: its name and content hash. */
export function robotIdentity(loaded: LoadedRobot): string {
  return `${loaded.description?.name ?? 'unnamed'}@${robotContentHash(loaded)}`;
}
