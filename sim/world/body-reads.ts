// Reading body state on every step without allocating. Rapier's RigidBody
// getters (`translation()`, `linvel()`, …) fetch the same numbers through one
// shared Float32Array and then build a new object; here the raw set fills a
// scratch array of our own, so a per-step loop over many bodies (the world
// guard, the pose stream) makes no garbage and no wrapper lookups. The values
// are the same 32-bit floats the getters return. `state` and `pose` read the
// numbers straight from Rapier's memory where the build's layout is known
// (body-memory.ts), and through the raw set otherwise; `check` compares the two
// ways on one body and drops the direct one for good at the first difference.
import type { RAPIER } from '../rapier';
import { BodyMemory, bodyLayout, slotOf } from './body-memory';

export class BodyReads {
  /** The last read: x, y, z (translation, velocities) or x, y, z, w (rotation). */
  readonly v = new Float32Array(4);
  private readonly raw: RAPIER.World['bodies']['raw'];

  /** The last `state`: translation, linear velocity, angular velocity. */
  readonly s = new Float32Array(9);
  /** The last `pose`: translation, rotation (x, y, z, w). */
  readonly p = new Float32Array(7);
  private memory: BodyMemory | null;
  private readonly apiState = new Float32Array(9);
  private readonly apiPose = new Float32Array(7);

  constructor(world: RAPIER.World) {
    this.raw = world.bodies.raw;
    const layout = bodyLayout(world);
    this.memory = layout ? new BodyMemory(layout, world) : null;
  }

  /** Whether reads go straight to Rapier's memory (false: through the API). */
  get direct(): boolean {
    return this.memory !== null && this.memory.live;
  }

  /**
   * Rapier's memory opened for a run over many bodies (BodyMemory.open), or null:
   * read through `state`/`pose` then. Call `check` first, as for every use.
   */
  run(): BodyMemory | null {
    const m = this.memory;
    return m && m.open() ? m : null;
  }

  /** Translation, linear and angular velocity of a body, in `s`. */
  state(handle: number): Float32Array {
    const m = this.memory;
    if (m && m.live && m.state(slotOf(handle), this.s)) return this.s;
    return this.stateByApi(handle, this.s);
  }

  /** Translation and rotation of a body, in `p`. */
  pose(handle: number): Float32Array {
    const m = this.memory;
    if (m && m.live && m.pose(slotOf(handle), this.p)) return this.p;
    return this.poseByApi(handle, this.p);
  }

  /**
   * Reads one body both ways; at a difference the direct way is dropped (for every
   * world of this build) and false returned. Readers call it once per use, so a
   * layout that stopped holding is noticed before its numbers are trusted.
   */
  check(handle: number, what: 'state' | 'pose' | 'both' = 'both'): boolean {
    const m = this.memory;
    if (!m || !m.live) return true;
    const slot = slotOf(handle);
    const asleep = m.sleeping(slot);
    // Only what the caller reads: the guard reads state, the pose stream poses (each read is a call into Rapier).
    const state = what !== 'pose';
    const pose = what !== 'state';
    if (
      (!state || (m.state(slot, this.s) && same(this.stateByApi(handle, this.apiState), this.s))) &&
      (!pose || (m.pose(slot, this.p) && same(this.poseByApi(handle, this.apiPose), this.p))) &&
      (asleep < 0 || asleep === (this.raw.rbIsSleeping(handle) ? 1 : 0))
    )
      return true;
    m.layout.broken = true;
    this.memory = null;
    return false;
  }

  /** `check` for the sleeping flag alone (one call into Rapier): for a reader that reads nothing else of this body. */
  checkSleeping(handle: number): boolean {
    const m = this.memory;
    if (!m || !m.live) return true;
    const asleep = m.sleeping(slotOf(handle));
    if (asleep < 0 || asleep === (this.raw.rbIsSleeping(handle) ? 1 : 0)) return true;
    m.layout.broken = true;
    this.memory = null;
    return false;
  }

  private stateByApi(handle: number, out: Float32Array): Float32Array {
    const v = this.v;
    this.raw.rbTranslation(handle, v);
    out[0] = v[0]!;
    out[1] = v[1]!;
    out[2] = v[2]!;
    this.raw.rbLinvel(handle, v);
    out[3] = v[0]!;
    out[4] = v[1]!;
    out[5] = v[2]!;
    this.raw.rbAngvel(handle, v);
    out[6] = v[0]!;
    out[7] = v[1]!;
    out[8] = v[2]!;
    return out;
  }

  private poseByApi(handle: number, out: Float32Array): Float32Array {
    const v = this.v;
    this.raw.rbTranslation(handle, v);
    out[0] = v[0]!;
    out[1] = v[1]!;
    out[2] = v[2]!;
    this.raw.rbRotation(handle, v);
    out[3] = v[0]!;
    out[4] = v[1]!;
    out[5] = v[2]!;
    out[6] = v[3]!;
    return out;
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
    const m = this.memory;
    if (m && m.live) {
      const s = m.sleeping(slotOf(handle));
      if (s >= 0) return s === 1;
    }
    return this.raw.rbIsSleeping(handle);
  }

  dynamic(handle: number): boolean {
    return this.raw.rbIsDynamic(handle);
  }
}

/** Equal float for float, NaN equal to NaN. */
function same(a: Float32Array, b: Float32Array): boolean {
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

const readers = new WeakMap<RAPIER.World, BodyReads>();

/** The last world asked about and its reader: the step asks for the same world every time (a WeakMap lookup is not free). */
let lastWorld: RAPIER.World | undefined;
let lastReader: BodyReads | undefined;

/** The reader of a world (one per world: a restored world is a new one). */
export function bodyReads(world: RAPIER.World): BodyReads {
  if (world === lastWorld) return lastReader!;
  let r = readers.get(world);
  if (!r) {
    r = new BodyReads(world);
    readers.set(world, r);
  }
  lastWorld = world;
  lastReader = r;
  return r;
}
