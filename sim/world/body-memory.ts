// Body state read straight from Rapier's linear memory. Every read through
// Rapier's API (translation, velocities) is a call into WebAssembly that calls
// back into JavaScript once per number: nine crossings of the boundary and
// three calls per body for the world guard, which checks every awake body after
// every step. The numbers themselves sit in the body arena in the module's
// memory, so a typed-array view reads them for a few nanoseconds.
//
// Nothing about the layout is assumed: it is found once per Rapier build by a
// probe world whose bodies have distinct translations, rotations, velocities,
// offset centres of mass and a kinematic target apart from the pose, and taken
// only when every quantity sits at exactly one place in every body's entry.
// Where it is not found (another build, no memory captured) the readers use the
// API. The probe costs a one-shot `call` ~8 ms; where the build can keep what it
// found (the command-line bundle, beside its wasm file), the next process takes the
// stored layout once it reads every body of the first world asking exactly as the
// API does, and probes again otherwise. The readers spot-check one body against the API every time they are used
// (body-reads.ts) and drop the direct path for good at the first difference.
import { phase } from '../../base/phase';
import { type RAPIER, type Rapier, type WasmMemory, rapierLayoutStores, rapierMemories } from '../rapier';

/** Where a build keeps a body's state, in bytes. */
export interface BodyLayout {
  memory: WasmMemory;
  /** The raw body-set class of this build (tells a world's build). */
  rawClass: unknown;
  /** From the raw set's pointer to the arena's data pointer and its length (entries). */
  arenaPtr: number;
  arenaLen: number;
  /** Bytes per arena entry, and the offsets inside one of translation, rotation (x, y, z, w), linear and angular velocity. */
  stride: number;
  translation: number;
  rotation: number;
  linvel: number;
  angvel: number;
  /** Offset of the sleeping flag (one byte), or -1 when it was not found (sleep tests go through the API). */
  sleeping: number;
  /** Set at the first difference from the API: the layout is not used again. */
  broken: boolean;
  /** Reads go through the API while set (the benchmark's figure for the reads as they were). */
  off: boolean;
  /** Taken from the build's store rather than found by the probe. */
  stored?: boolean;
}

const OFFSETS = ['arenaPtr', 'arenaLen', 'stride', 'translation', 'rotation', 'linvel', 'angvel', 'sleeping'] as const;

function storable(l: BodyLayout): Record<(typeof OFFSETS)[number], number> {
  return Object.fromEntries(OFFSETS.map((k) => [k, l[k]])) as Record<(typeof OFFSETS)[number], number>;
}

/**
 * A stored layout, if it is well formed and reads every body of `world` (its
 * translation, rotation, velocities and sleep) exactly as the API does; else null.
 */
function storedLayout(value: unknown, memory: WasmMemory, world: RAPIER.World): BodyLayout | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const ints = OFFSETS.map((k) => v[k]);
  if (!ints.every((x) => Number.isInteger(x) && Math.abs(x as number) <= MAX_STRIDE * 4)) return null;
  const l = storable(v as unknown as BodyLayout);
  if (l.stride <= 0 || l.stride > MAX_STRIDE || l.stride % 4) return null;
  for (const k of ['translation', 'rotation', 'linvel', 'angvel'] as const) if (l[k] < 0 || l[k] % 4 || l[k] + 16 > l.stride) return null;
  if (l.sleeping >= l.stride) return null;
  const layout: BodyLayout = { ...l, memory, rawClass: world.bodies.raw.constructor, broken: false, off: false, stored: true };
  const reader = new BodyMemory(layout, world);
  const state = new Float32Array(9);
  const pose = new Float32Array(7);
  let ok = true;
  world.bodies.forEach((b) => {
    if (!ok) return;
    const slot = slotOf(b.handle);
    if (!reader.state(slot, state) || !reader.pose(slot, pose)) {
      ok = false;
      return;
    }
    const t = b.translation();
    const q = b.rotation();
    const lv = b.linvel();
    const w = b.angvel();
    const api = f32s(t.x, t.y, t.z, lv.x, lv.y, lv.z, w.x, w.y, w.z, t.x, t.y, t.z, q.x, q.y, q.z, q.w);
    const got = [...state, ...pose];
    const asleep = reader.sleeping(slot);
    if (got.some((x, j) => !Object.is(x, api[j])) || (asleep >= 0 && asleep !== (b.isSleeping() ? 1 : 0))) ok = false;
  });
  return ok ? layout : null;
}

/** Larger than any body entry (a few hundred bytes in 0.20 and 0.21). */
const MAX_STRIDE = 4096;

const layouts = new Map<Rapier, BodyLayout | null>();

/** Forgets every layout found, so the next use looks again (tests: the search in a given state of memory). */
export function forgetLayouts(): void {
  layouts.clear();
}

/** The layout for this world's build, found on first use; null: read through the API. */
export function bodyLayout(world: RAPIER.World): BodyLayout | null {
  const raw = world.bodies.raw;
  for (const [R, memory] of rapierMemories) {
    let layout = layouts.get(R);
    if (layout === undefined) {
      const store = rapierLayoutStores.get(R);
      layout = (store && world instanceof R.World ? storedLayout(store.load(), memory, world) : null) ?? findLayout(R, memory);
      if (layout && store && layout.stored === false) store.save(storable(layout));
      phase(layout?.stored ? 'body-layout-stored' : 'body-layout-probed');
      layouts.set(R, layout);
    }
    if (layout && raw instanceof (layout.rawClass as new () => unknown)) return layout.broken ? null : layout;
  }
  return null;
}

const f64 = new Float64Array(1);
const u32OfF64 = new Uint32Array(f64.buffer);

/** A body handle's arena slot (the handle's bits: index low, generation high). */
export function slotOf(handle: number): number {
  f64[0] = handle;
  return u32OfF64[0]!;
}

/** The wasm-bindgen pointer of a raw object (not in Rapier's typings). */
function pointerOf(raw: object): number {
  const p = (raw as { __wbg_ptr?: unknown }).__wbg_ptr;
  return typeof p === 'number' ? p : -1;
}

/** Reads one world's bodies from memory by arena slot. */
export class BodyMemory {
  private u32: Uint32Array;
  private f32: Float32Array;
  private u8: Uint8Array;
  private readonly setWord: number;

  constructor(
    readonly layout: BodyLayout,
    world: RAPIER.World,
  ) {
    this.u32 = new Uint32Array(layout.memory.buffer);
    this.f32 = new Float32Array(layout.memory.buffer);
    this.u8 = new Uint8Array(layout.memory.buffer);
    this.setWord = pointerOf(world.bodies.raw) >> 2;
  }

  /** Whether reads may come from memory now. */
  get live(): boolean {
    return !this.layout.broken && !this.layout.off;
  }

  // A run over many bodies (open): the arena's place and the layout's offsets read
  // once, so each body costs a few typed-array reads. Valid until bodies are added.
  /** Float index of slot 0's entry, and the slots in the arena. */
  base = 0;
  slots = 0;
  /** Floats per entry; offsets in floats of translation, rotation, linear and angular velocity. */
  strideF = 0;
  tF = 0;
  rF = 0;
  vF = 0;
  wF = 0;
  /** Byte offset of the sleeping flag, -1 when unknown. */
  sleepB = -1;

  /** Rapier's memory as floats and bytes (views of the current buffer after open). */
  get floats(): Float32Array {
    return this.f32;
  }

  get bytes(): Uint8Array {
    return this.u8;
  }

  /** Prepares a run over many bodies; false when reads may not come from memory now. */
  open(): boolean {
    if (!this.live) return false;
    this.fresh();
    const u = this.u32;
    const L = this.layout;
    const ptr = u[this.setWord + (L.arenaPtr >> 2)]!;
    if (ptr % 4) return false;
    this.slots = u[this.setWord + (L.arenaLen >> 2)]!;
    this.base = ptr >> 2;
    this.strideF = L.stride >> 2;
    this.tF = L.translation >> 2;
    this.rF = L.rotation >> 2;
    this.vF = L.linvel >> 2;
    this.wF = L.angvel >> 2;
    this.sleepB = L.sleeping;
    return true;
  }

  /** A memory that grew detaches the old views (their length reads 0). */
  private fresh(): void {
    if (this.u32.length === 0) {
      this.u32 = new Uint32Array(this.layout.memory.buffer);
      this.f32 = new Float32Array(this.layout.memory.buffer);
      this.u8 = new Uint8Array(this.layout.memory.buffer);
    }
  }

  /** The first float of the entry in `slot`, or -1 when the arena has no such slot. */
  private entry(slot: number): number {
    this.fresh();
    const u = this.u32;
    // The arena is read anew each time: adding bodies may move it.
    if (slot >= u[this.setWord + (this.layout.arenaLen >> 2)]!) return -1;
    return (u[this.setWord + (this.layout.arenaPtr >> 2)]! + slot * this.layout.stride) >> 2;
  }

  /** Translation, linear and angular velocity into out[0..8]; false when the slot is not in the arena. */
  state(slot: number, out: Float32Array): boolean {
    const e = this.entry(slot);
    if (e < 0) return false;
    const f = this.f32;
    const L = this.layout;
    let i = e + (L.translation >> 2);
    out[0] = f[i]!;
    out[1] = f[i + 1]!;
    out[2] = f[i + 2]!;
    i = e + (L.linvel >> 2);
    out[3] = f[i]!;
    out[4] = f[i + 1]!;
    out[5] = f[i + 2]!;
    i = e + (L.angvel >> 2);
    out[6] = f[i]!;
    out[7] = f[i + 1]!;
    out[8] = f[i + 2]!;
    return true;
  }

  /** Whether the body sleeps: 1 or 0, or -1 when the flag's place is unknown or the slot is not in the arena. */
  sleeping(slot: number): number {
    if (this.layout.sleeping < 0) return -1;
    const e = this.entry(slot);
    if (e < 0) return -1;
    const b = this.u8[e * 4 + this.layout.sleeping]!;
    return b === 1 ? 1 : b === 0 ? 0 : -1;
  }

  /** Translation and rotation (x, y, z, qx, qy, qz, qw) into out[0..6]; false when the slot is not in the arena. */
  pose(slot: number, out: Float32Array): boolean {
    const e = this.entry(slot);
    if (e < 0) return false;
    const f = this.f32;
    let i = e + (this.layout.translation >> 2);
    out[0] = f[i]!;
    out[1] = f[i + 1]!;
    out[2] = f[i + 2]!;
    i = e + (this.layout.rotation >> 2);
    out[3] = f[i]!;
    out[4] = f[i + 1]!;
    out[5] = f[i + 2]!;
    out[6] = f[i + 3]!;
    return true;
  }
}

type Quantity = 'translation' | 'rotation' | 'linvel' | 'angvel';
const QUANTITIES: readonly Quantity[] = ['translation', 'rotation', 'linvel', 'angvel'];

/** Finds the layout with a probe world; null when any quantity is missing or ambiguous. */
function findLayout(R: Rapier, memory: WasmMemory): BodyLayout | null {
  const world = new R.World({ x: 0, y: -9.81, z: 0 });
  try {
    const bodies: RAPIER.RigidBody[] = [];
    for (let i = 0; i < 5; i++) {
      const k = i + 1;
      const b = world.createRigidBody(
        R.RigidBodyDesc.dynamic()
          .setTranslation(0.31 * k, 1.7 + 0.13 * k, -0.57 * k)
          .setRotation(normalized(0.1 * k, -0.2, 0.05 * k, 1))
          .setLinvel(0.37 * k, -0.11 * k, 0.23)
          .setAngvel({ x: 1.3, y: -0.7 * k, z: 0.19 * k }),
      );
      // An offset collider puts the centre of mass away from the translation.
      world.createCollider(R.ColliderDesc.cuboid(0.05, 0.03, 0.02).setTranslation(0.07 * k, -0.03, 0.02), b);
      bodies.push(b);
    }
    const kinematic = world.createRigidBody(R.RigidBodyDesc.kinematicPositionBased().setTranslation(-1.1, 0.9, 0.4));
    world.createCollider(R.ColliderDesc.ball(0.05), kinematic);
    bodies.push(kinematic);
    world.step();
    // A kinematic target away from the pose tells the pose from the next pose.
    kinematic.setNextKinematicTranslation({ x: -1.3, y: 0.95, z: 0.45 });
    kinematic.setNextKinematicRotation(normalized(0.3, 0.1, -0.2, 1));

    const want = bodies.map((b) => {
      const t = b.translation();
      const q = b.rotation();
      const v = b.linvel();
      const w = b.angvel();
      return {
        slot: slotOf(b.handle),
        translation: f32s(t.x, t.y, t.z),
        rotation: f32s(q.x, q.y, q.z, q.w),
        linvel: f32s(v.x, v.y, v.z),
        angvel: f32s(w.x, w.y, w.z),
      };
    });
    const u32 = new Uint32Array(memory.buffer);
    const f32 = new Float32Array(memory.buffer);
    const setPtr = pointerOf(world.bodies.raw);
    if (setPtr <= 0) return null;
    const matches = (at: number, xs: Float32Array): boolean => {
      for (let j = 0; j < xs.length; j++) if (!Object.is(f32[(at >> 2) + j], xs[j])) return false;
      return true;
    };
    const first = want[0]!;
    const second = want[1]!;
    /** Where a vector's floats sit in [from, to) (bytes). */
    const where = (xs: Float32Array, from: number, to: number): number[] => {
      const at: number[] = [];
      const x0 = xs[0]!;
      const x1 = xs[1]!;
      const x2 = xs[2]!;
      for (let i = from >> 2, end = Math.min(f32.length - 2, to >> 2); i < end; i++) {
        if (f32[i] === x0 && f32[i + 1] === x1 && f32[i + 2] === x2) at.push(i * 4);
      }
      return at;
    };
    // The arena's data pointer sits near the set's own pointer, with its length beside it (slots, free ones
    // included: a handful in the probe).
    for (let k = 0; k <= 1024; k++) {
      const off = k % 2 ? -2 * (k - 1) : 2 * k;
      const data = u32[(setPtr + off) >> 2]!;
      if (data <= 0 || data % 4 || data >= memory.buffer.byteLength) continue;
      for (const lenOff of [off + 4, off - 4, off + 8]) {
        const len = u32[(setPtr + lenOff) >> 2]!;
        if (len < bodies.length || len > 64) continue;
        const span = MAX_STRIDE * (Math.max(first.slot, second.slot) + 1);
        const hitsB = where(second.translation, data, data + span);
        for (const a of where(first.translation, data, data + span)) {
          for (const b of hitsB) {
            const stride = (b - a) / (second.slot - first.slot);
            const at = a - first.slot * stride - data;
            if (!Number.isInteger(stride) || stride <= 0 || stride % 4 || at < 0 || at >= stride) continue;
            const offsets: Partial<Record<Quantity, number>> = {};
            let ok = true;
            for (const q of QUANTITIES) {
              const found: number[] = [];
              for (let o = 0; o + 4 * first[q].length <= stride; o += 4) {
                if (want.every((x) => matches(data + x.slot * stride + o, x[q]))) found.push(o);
              }
              if (found.length !== 1) {
                ok = false;
                break;
              }
              offsets[q] = found[0]!;
            }
            if (!ok) continue;
            const layout: BodyLayout = {
              memory,
              rawClass: world.bodies.raw.constructor,
              arenaPtr: off,
              arenaLen: lenOff,
              stride,
              translation: offsets.translation!,
              rotation: offsets.rotation!,
              linvel: offsets.linvel!,
              angvel: offsets.angvel!,
              sleeping: -1,
              broken: false,
              off: false,
              stored: false,
            };
            return confirmed(R, world, layout, bodies) ? layout : null;
          }
        }
      }
    }
    return null;
  } catch {
    return null;
  } finally {
    world.free();
  }
}

/**
 * The layout again after the arena has grown (it moves), over steps that change
 * every number: a layout found by coincidence does not survive this.
 */
function confirmed(R: Rapier, world: RAPIER.World, layout: BodyLayout, bodies: RAPIER.RigidBody[]): boolean {
  for (let i = 0; i < 12; i++) {
    const b = world.createRigidBody(
      R.RigidBodyDesc.dynamic()
        .setTranslation(0.05 * i, 2 + 0.07 * i, 0.3)
        .setLinvel(0.1, 0.02 * i, -0.2),
    );
    world.createCollider(R.ColliderDesc.ball(0.02), b);
    bodies.push(b);
  }
  world.step();
  // The sleeping flag: the one byte that is 1 in every sleeping body and 0 in every awake one,
  // through sleeping, stepping, waking some and putting others to sleep.
  let flags = Array.from({ length: layout.stride }, (_, o) => o);
  const keepMatching = (): void => {
    // Views made now: stepping and new bodies may grow the memory, which detaches older views (a world
    // already built leaves little room, so the probe grows it).
    const u8 = new Uint8Array(layout.memory.buffer);
    const u32 = new Uint32Array(layout.memory.buffer);
    const data = u32[(pointerOf(world.bodies.raw) + layout.arenaPtr) >> 2]!;
    flags = flags.filter((o) => bodies.every((b) => u8[data + slotOf(b.handle) * layout.stride + o] === (b.isSleeping() ? 1 : 0)));
  };
  bodies.forEach((b, i) => {
    if (i % 3 === 1) b.sleep();
  });
  keepMatching();
  world.step();
  keepMatching();
  bodies.forEach((b, i) => {
    if (i % 6 === 1) b.wakeUp();
    if (i % 6 === 2) b.sleep();
  });
  keepMatching();
  world.step();
  keepMatching();
  if (flags.length === 1) layout.sleeping = flags[0]!;
  const reader = new BodyMemory(layout, world);
  const state = new Float32Array(9);
  const pose = new Float32Array(7);
  for (let s = 0; s < 2; s++) {
    world.step();
    for (const b of bodies) {
      const t = b.translation();
      const q = b.rotation();
      const v = b.linvel();
      const w = b.angvel();
      if (!reader.state(slotOf(b.handle), state) || !reader.pose(slotOf(b.handle), pose)) return false;
      const api = f32s(t.x, t.y, t.z, v.x, v.y, v.z, w.x, w.y, w.z, t.x, t.y, t.z, q.x, q.y, q.z, q.w);
      const got = [...state, ...pose];
      if (got.some((x, j) => !Object.is(x, api[j]))) return false;
      if (layout.sleeping >= 0 && reader.sleeping(slotOf(b.handle)) !== (b.isSleeping() ? 1 : 0)) layout.sleeping = -1;
    }
  }
  return true;
}

function f32s(...xs: number[]): Float32Array {
  return Float32Array.from(xs);
}

function normalized(x: number, y: number, z: number, w: number): { x: number; y: number; z: number; w: number } {
  const n = Math.hypot(x, y, z, w);
  return { x: x / n, y: y / n, z: z / n, w: w / n };
}
