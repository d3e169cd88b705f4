// Random but valid tool calls: arguments drawn from each tool's JSON Schema,
// with names a model might use (exact ids, display names, names of things the
// robot has never seen, near-miss ids, nonsense), numbers inside the schema's
// bounds, and the planner-executor's positional parameters by action. Every
// call is validated by the tool itself before it is sent.
import { Rng } from '../../sim/rng';
import { deg, toTuple, yawOf } from '../../sim/math';
import type { SimWorld } from '../../sim/world/sim-world';
import { toBase } from '../../agents/tools/frames';
import type { Tool } from '../../agents/tools/tool';

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  default?: unknown;
};

export class Draw {
  readonly rng: Rng;
  constructor(seed: number) {
    this.rng = new Rng(seed);
  }
  next(): number {
    return this.rng.next();
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const WORDS = ['apple', 'thing', 'it', 'the red one', 'banana', 'box', 'cup', 'table', 'left one', 'Paris', 'foo_1'];
const TEXT = ['hello', 'could you look at me?', 'where is the apple?', 'I will bring it now', 'thanks', 'please wait'];

/** Names a model might use for an object: mostly of what the robot knows, some it should not know, some near misses. */
export function objectName(d: Draw, sim: SimWorld): string {
  const all = [...sim.entities.values()];
  const known = all.filter((e) => e.fixed || sim.belief.has(e.id));
  const unknown = all.filter((e) => !e.fixed && !sim.belief.has(e.id));
  const r = d.next();
  const pool = r < 0.6 || !unknown.length ? known : unknown;
  const e = d.pick(pool.length ? pool : all);
  const s = d.next();
  if (s < 0.6) return e.id;
  if (s < 0.8) return d.pick([e.spec.name, ...e.spec.aliases]);
  if (s < 0.92) return e.id.replace(/_(\d+)$/, (_m, n: string) => `_${Number(n) + d.int(1, 3)}`);
  return d.pick(WORDS);
}

export function placeName(d: Draw, sim: SimWorld): string {
  const locs = [...sim.locations.values()];
  if (!locs.length || d.chance(0.1)) return d.pick(['nowhere', 'kitchen', 'poi_9', 'table_9']);
  const l = d.pick(locs);
  return d.chance(0.85) ? l.id : (l.title ?? l.id);
}

export function personName(d: Draw, sim: SimWorld): string {
  const people = [...sim.people.values()];
  if (!people.length || d.chance(0.15)) return d.pick(['Bob', 'person_9', 'someone']);
  const p = d.pick(people);
  return d.chance(0.5) ? p.spec.id : p.spec.name;
}

function postureName(d: Draw, sim: SimWorld): string {
  const ps = Object.keys(sim.scene.robot.arm?.postures ?? {});
  return ps.length && d.chance(0.9) ? d.pick(ps) : 'wave';
}

/** A string for a field, by what its name says it holds. */
function stringFor(d: Draw, sim: SimWorld, field: string): string {
  const f = field.toLowerCase();
  if (/human|person/.test(f)) return personName(d, sim);
  if (/location|poi|place/.test(f)) return placeName(d, sim);
  if (/posture/.test(f)) return postureName(d, sim);
  if (/statement|question|text|thought|query|next_step/.test(f)) return d.pick(TEXT);
  if (/property/.test(f)) return d.pick(['weight_kg', 'colour', 'owner']);
  if (/type/.test(f)) return d.pick(['object', 'cup', 'tray']);
  if (/node|parent|target|obj|name|item/.test(f)) {
    if (/target/.test(f) && d.chance(0.2)) return d.chance(0.5) ? placeName(d, sim) : personName(d, sim);
    if (/parent|node/.test(f) && d.chance(0.3)) return placeName(d, sim);
    return objectName(d, sim);
  }
  return objectName(d, sim);
}

function numberFor(d: Draw, s: Schema, integer: boolean): number {
  const lo = s.minimum ?? (integer ? 0 : -1);
  const hi = s.maximum ?? (integer ? 10 : 1);
  if (integer) return d.int(Math.ceil(lo), Math.floor(hi));
  return Math.round((lo + d.next() * (hi - lo)) * 1000) / 1000;
}

/**
 * An explicit position a model might ask to place at, in the base frame: on a
 * known surface, often at its very edge, on top of a known object (a stack), or
 * anywhere at all.
 */
function placePosition(d: Draw, sim: SimWorld): { x: number; y: number; z: number } | undefined {
  const r = d.next();
  const b = sim.body.basePose;
  const base = { position: toTuple(b.p), yawDeg: deg(yawOf(b.q)) };
  if (r < 0.35) {
    const known = [...sim.belief.objects.keys()].filter((id) => !sim.isHeld(id));
    if (!known.length) return undefined;
    const box = sim.aabb(d.pick(known));
    return toBase([(box.min.x + box.max.x) / 2, box.max.y + 0.01, (box.min.z + box.max.z) / 2], base);
  }
  if (r < 0.85) {
    const surfaces = [...sim.entities.values()].filter((e) => e.fixed && e.spec.surfaces.length);
    if (!surfaces.length) return undefined;
    const top = d.pick(sim.surfaces(d.pick(surfaces).id));
    // At an edge (within 3 cm of it, or just past it) or anywhere on the top.
    const edge = d.chance(0.6);
    const along = (lo: number, hi: number): number => lo + d.next() * (hi - lo);
    let x = along(top.min.x, top.max.x);
    let z = along(top.min.z, top.max.z);
    if (edge) {
      const inset = -0.02 + d.next() * 0.05;
      if (d.chance(0.5)) x = d.chance(0.5) ? top.min.x + inset : top.max.x - inset;
      else z = d.chance(0.5) ? top.min.z + inset : top.max.z - inset;
    }
    return toBase([x, top.max.y + 0.01, z], base);
  }
  return undefined;
}

function valueFor(d: Draw, sim: SimWorld, field: string, s: Schema): unknown {
  if (field === 'position' && s.properties?.['x'] && d.chance(0.8)) {
    const p = placePosition(d, sim);
    if (p) return { x: Math.round(p.x * 1000) / 1000, y: Math.round(p.y * 1000) / 1000, z: Math.round(p.z * 1000) / 1000 };
  }
  if (s.enum?.length) return d.pick(s.enum);
  if (s.anyOf?.length) return valueFor(d, sim, field, d.pick(s.anyOf));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringFor(d, sim, field);
    case 'number':
      return /^(x|y|z)$/.test(field) ? numberFor(d, { minimum: -1.5, maximum: 2.5 }, false) : numberFor(d, s, false);
    case 'integer':
      return numberFor(d, s, true);
    case 'boolean':
      return d.chance(0.5);
    case 'array':
      return Array.from({ length: d.int(0, 2) }, () => valueFor(d, sim, field, s.items ?? { type: 'string' }));
    case 'object':
      return objectFor(d, sim, s);
    default:
      return stringFor(d, sim, field);
  }
}

function objectFor(d: Draw, sim: SimWorld, s: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const req = new Set(s.required ?? []);
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    if (!req.has(k) && !d.chance(0.5)) continue;
    out[k] = valueFor(d, sim, k, v);
  }
  return out;
}

/** The planner-executor's act(action, params): positional parameters by what the action takes. */
function actArgs(d: Draw, sim: SimWorld, action: string): Record<string, unknown> {
  const params: Record<string, () => string[]> = {
    navigate: () => [placeName(d, sim)],
    move_arm: () => [postureName(d, sim)],
    perceive: () => [],
    pick: () => [objectName(d, sim)],
    place: () => [objectName(d, sim)],
    insert: () => [objectName(d, sim), objectName(d, sim)],
    scan: () => (d.chance(0.5) ? [placeName(d, sim)] : []),
    dock: () => [],
    undock: () => [],
    charge: () => [String(d.int(20, 100))],
    speak: () => [d.pick(TEXT)],
    listen: () => [],
    wait: () => [String(d.int(1, 20))],
  };
  return { action, params: (params[action] ?? (() => []))() };
}

/** Arguments for one call of a tool, valid by its own schema, or undefined after a few tries. */
export function argsFor(d: Draw, sim: SimWorld, tool: Tool): Record<string, unknown> | undefined {
  const schema = tool.parameters as Schema;
  for (let i = 0; i < 6; i++) {
    let args: Record<string, unknown>;
    if (tool.name === 'act') {
      const actions = (schema.properties?.['action']?.enum ?? []) as string[];
      if (!actions.length) return undefined;
      args = actArgs(d, sim, d.pick(actions));
    } else args = objectFor(d, sim, schema);
    if (tool.parse(args).ok) return args;
  }
  return undefined;
}
