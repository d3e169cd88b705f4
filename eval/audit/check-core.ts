// What the audit's checks share: the violation classes, the call under check,
// and small readers of a tool's text and claims. The checks read the world
// through truth.ts, never through the simulator's perception or skills.
import type { ToolResult } from '../../agents/tools/tool';
import type { SimWorld } from '../../sim/world/sim-world';
import type { Box, Reading, V, WorldReading } from './truth';

export const CLASSES = ['lies', 'leaks', 'invariants', 'messages', 'crashes'] as const;
export type ViolationClass = (typeof CLASSES)[number];

export interface Finding {
  class: ViolationClass;
  detail: string;
}

/** A check a class could not decide for a call, and why (the audit counts these; the goal is none). */
export interface Unjudged {
  class: ViolationClass;
  reason: string;
}

/** Where the checks of one call put what they could not judge. */
export type Skip = (cls: ViolationClass, reason: string) => void;

/** Faster than anything thrown or dropped here (the world guard holds bodies to 8 m/s). */
export const THROWN_SPEED = 8.5;
/** Below the floor's top by more than contact depth. */
export const BELOW_FLOOR = -0.03;

export interface CallUnderCheck {
  world: SimWorld;
  set: string;
  tool: string;
  args: Record<string, unknown>;
  result: ToolResult | undefined;
  thrown: string | undefined;
  before: WorldReading;
  after: WorldReading;
  /** Objects the robot knew (furniture and belief) before and after the call. */
  knownBefore: ReadonlySet<string>;
  knownAfter: ReadonlySet<string>;
  /** Objects the robot has perceived at any time up to the call's end (seen mid-call and forgotten by its end included): names it has learnt. */
  learnt: ReadonlySet<string>;
  /** People in view before or after, or seen before. */
  peopleSeen: ReadonlySet<string>;
  /** Names that reached the robot's side earlier in the run (tool outputs, events it was told). */
  mentioned: ReadonlySet<string>;
  /** Objects an event moved while the call ran, or still moving when it began. */
  movedByEvent: ReadonlySet<string>;
  /** The world's clock when the call returned; `after` is read once the world came to rest. */
  ended: number;
  /** The belief's records before the call (a record the call wrote is a new object). */
  beliefBefore: ReadonlyMap<string, unknown>;
  /** The event queue's last id as the call began. */
  eventsBefore: number;
  /** The last event id check_events reported before this call. */
  eventsRead: number;
  /** People the robot could recognise (on record, facing its camera, in range) at some call's end so far, or in view now. */
  recognised: ReadonlySet<string>;
  /** Nodes an operator added to the world model (add_object), as their results said. */
  added: ReadonlyMap<string, AddedNode>;
  /** Properties an operator set (set_object_property), per node. */
  props: ReadonlyMap<string, Readonly<Record<string, string | number | boolean>>>;
  /** What check_free_path said last of each target, and the world then. */
  paths: ReadonlyMap<string, PathVerdict>;
}

export interface AddedNode {
  type: string;
  parent: string;
  relation: 'on' | 'in';
}

/** check_free_path's verdict on a target, with where the robot and the obstacle stood. */
export interface PathVerdict {
  obstacle: string;
  base: V;
  obstacleAt: V | undefined;
}

export interface Claim {
  kind: string;
  [k: string]: unknown;
}

export const near = (a: V, b: V): number => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
export function boxGap(b: Box, p: V): number {
  const dx = Math.max(0, b.min.x - p.x, p.x - b.max.x);
  const dy = Math.max(0, b.min.y - p.y, p.y - b.max.y);
  const dz = Math.max(0, b.min.z - p.z, p.z - b.max.z);
  return Math.hypot(dx, dy, dz);
}

export function claimsOf(result: ToolResult | undefined): Claim[] {
  const outcome = result?.data as { ok?: boolean; data?: { claims?: unknown } } | undefined;
  if (!result?.ok || !outcome || outcome.ok !== true) return [];
  const c = outcome.data?.claims;
  return Array.isArray(c) ? (c as Claim[]) : [];
}

/** Every entity id and person id mentioned in a text. */
export function mentions(text: string, ids: readonly string[]): string[] {
  const out: string[] = [];
  for (const id of ids) {
    const re = new RegExp(`(^|[^a-z0-9_])${id}([^a-z0-9_]|$)`);
    if (re.test(text)) out.push(id);
  }
  return out;
}

export function unsureWhy(r: Reading | undefined): string {
  return r?.kind === 'unsure' ? r.why : 'no reading';
}

export function readable(r: unknown): unknown {
  if (r && typeof r === 'object' && 'ids' in r) return { ...(r as object), ids: [...(r as { ids: Set<string> }).ids] };
  return r;
}

/** A tool's name with the ids in it made generic: MAYA's generated tools (pick_lemon_1) count as one (pick_<id>). */
export function toolFamily(w: SimWorld, tool: string): string {
  const ids = [...w.entities.keys(), ...w.locations.keys(), ...w.people.keys()].sort((a, b) => b.length - a.length);
  let s = tool;
  for (const id of ids) s = s.replace(new RegExp(`(?<=_|^)${id}(?=_|$)`, 'g'), '<id>');
  return s;
}
