// What the camera and the belief depend on, as one number that changes only
// when it changes. `sim.version` moves on every physics step, even when every
// body lies still; perception caches keyed on it would look again 240 times a
// second at a scene that did not move. The revision here moves on when any
// pose the camera can see or the belief records moves (objects, doors, people,
// the robot's base, joints and fingers, so the camera and what rests on the
// robot), or a state, the held object, the hand-overs, the robot's place or
// base-move count changes. Poses are read once per world version; states are
// checked on every call, since a skill may set one (a laptop lid opened, a
// stove switched on) without stepping the world.
import type { Entity } from '../world/entity';
import type { SimWorld } from '../world/sim-world';

interface RevisionState {
  version: number;
  /** Every entity's state bits when the fingerprint was taken. */
  states: Uint8Array;
  revision: number;
  /** The fingerprint of the world at `revision`, and a buffer for the next one. */
  last: Float64Array;
  next: Float64Array;
}

const states = new WeakMap<SimWorld, RevisionState>();

function stateBits(e: Entity): number {
  const t = e.states;
  return (t.open ? 1 : 0) | (t.on ? 2 : 0) | (t.sliced ? 4 : 0) | (t.dirty ? 8 : 0) | (t.filled ? 16 : 0) | (t.cooked ? 32 : 0);
}

/** Position of a key in a map's order (-1 for none): ids as numbers. */
function indexIn(map: ReadonlyMap<string, unknown>, key: string | undefined): number {
  if (key === undefined) return -1;
  let i = 0;
  for (const k of map.keys()) {
    if (k === key) return i;
    i++;
  }
  return -1;
}

/** Writes the fingerprint into `out` (grown when too short); returns its length. */
function fingerprint(sim: SimWorld, out: { buf: Float64Array }): number {
  let n = 0;
  const put = (x: number): void => {
    if (n === out.buf.length) {
      const bigger = new Float64Array(out.buf.length * 2 + 64);
      bigger.set(out.buf);
      out.buf = bigger;
    }
    out.buf[n++] = x;
  };
  const body = (handle: number): void => {
    const b = sim.world.getRigidBody(handle);
    const t = b.translation();
    const r = b.rotation();
    (put(t.x), put(t.y), put(t.z), put(r.x), put(r.y), put(r.z), put(r.w));
  };
  put(sim.entities.size);
  put(sim.people.size);
  for (const e of sim.entities.values()) {
    body(e.body);
    if (e.door) body(e.door.body);
    put(stateBits(e));
  }
  for (const p of sim.people.values()) {
    (put(p.position.x), put(p.position.y), put(p.position.z), put(p.yaw));
    body(p.body);
  }
  const rb = sim.body;
  const bp = rb.basePose;
  (put(bp.p.x), put(bp.p.y), put(bp.p.z), put(bp.q.x), put(bp.q.y), put(bp.q.z), put(bp.q.w));
  if (rb.q) for (const j of rb.q) put(j);
  put(rb.opening);
  put(rb.baseMoves);
  put(indexIn(sim.locations, rb.at));
  put(indexIn(sim.entities, sim.heldId()));
  put(sim.handedOver.size);
  for (const [obj, person] of sim.handedOver) (put(indexIn(sim.entities, obj)), put(indexIn(sim.people, person)));
  return n;
}

/**
 * A number that changes exactly when something perception reads changes (see
 * the header); equal revisions of one world mean the same scene to look at.
 */
function statesUnchanged(sim: SimWorld, bits: Uint8Array): boolean {
  if (bits.length !== sim.entities.size) return false;
  let i = 0;
  for (const e of sim.entities.values()) if (bits[i++] !== stateBits(e)) return false;
  return true;
}

function stateArray(sim: SimWorld): Uint8Array {
  const out = new Uint8Array(sim.entities.size);
  let i = 0;
  for (const e of sim.entities.values()) out[i++] = stateBits(e);
  return out;
}

export function sceneRevision(sim: SimWorld): number {
  const s = states.get(sim);
  if (s && s.version === sim.version && statesUnchanged(sim, s.states)) return s.revision;
  const box = { buf: s?.next ?? new Float64Array(256) };
  const n = fingerprint(sim, box);
  const fp = box.buf.subarray(0, n);
  if (!s) {
    states.set(sim, { version: sim.version, states: stateArray(sim), revision: 0, last: fp.slice(), next: box.buf });
    return 0;
  }
  let same = fp.length === s.last.length;
  for (let i = 0; same && i < n; i++) same = Object.is(fp[i], s.last[i]);
  s.version = sim.version;
  if (!statesUnchanged(sim, s.states)) s.states = stateArray(sim);
  s.next = box.buf;
  if (same) return s.revision;
  s.last = fp.slice();
  return ++s.revision;
}

/** Marks the scene as changed in a way the fingerprint cannot see: the next look is a full one. */
export function sceneChanged(sim: SimWorld): void {
  const s = states.get(sim);
  if (s) s.version = -1;
  if (s) s.last = new Float64Array(0);
}
