// Reading body state on every step without allocating. Rapier's RigidBody
// getters (`translation()`, `linvel()`, …) fetch the same numbers through one
// shared Float32Array and then build a new object; here the raw set fills a
// scratch array of our own, so a per-step loop over many bodies (the world
// guard, the pose stream) makes no garbage and no wrapper lookups. The values
// are the same 32-bit floats the getters return.
import type { RAPIER } from '../rapier';

export class BodyReads {
  /** The last read: x, y, z (translation, velocities) or x, y, z, w (rotation). */
  readonly v = new Float32Array(4);
  private readonly raw: RAPIER.World['bodies']['raw'];

  constructor(world: RAPIER.World) {
    this.raw = world.bodies.raw;
  }

  translation(handle: number): Float32Array {
    this.raw.rbTranslation(handle, this.v);
    return this.v;
  }

  rotation(handle: number): Float32Array {
    this.raw.rbRotation(handle, this.v);
    return this.v;
  }

  linvel(handle: number): Float32Array {
    this.raw.rbLinvel(handle, this.v);
    return this.v;
  }

  angvel(handle: number): Float32Array {
    this.raw.rbAngvel(handle, this.v);
    return this.v;
  }

  sleeping(handle: number): boolean {
    return this.raw.rbIsSleeping(handle);
  }

  dynamic(handle: number): boolean {
    return this.raw.rbIsDynamic(handle);
  }
}

const readers = new WeakMap<RAPIER.World, BodyReads>();

/** The reader of a world (one per world: a restored world is a new one). */
export function bodyReads(world: RAPIER.World): BodyReads {
  let r = readers.get(world);
  if (!r) {
    r = new BodyReads(world);
    readers.set(world, r);
  }
  return r;
}
