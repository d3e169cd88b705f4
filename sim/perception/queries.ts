// Answers to RAIDER's object queries (paper 001 Fig. 6): get_obj_state,
// get_obj_properties, robot_holding and check_obj_relationship.
//
// "blocking" (what stops the robot acting on an object; decided here):
// - for a movable object: objects resting on top of it; for a pickable
//   container, anything inside it (the pick skill refuses both); objects that
//   occlude it from the camera; and objects (or furniture) in the gripper's
//   vertical approach corridor above it.
// - for furniture and appliances: contents once the receptacle is full (a cup
//   in the coffee machine blocks placing the mug there, Appendix D), and
//   movable objects or people that occlude it. Things merely standing on a
//   table do not block the table.
// The target's own support or container never blocks it (a bowl's wall hiding
// part of a fruit inside it is not an obstruction to remove).
import { compareIds } from '../ids';
import { type Aabb, type Vec3, aabbCenter, v3 } from '../math';
import { FINGER_THICKNESS } from '../body/links';
import { QUERY } from '../groups';
import { primitiveAabb, unionAll } from '../world/entity';
import type { SimWorld } from '../world/sim-world';
import { geoBox } from './geo';
import { believedGeos, knownObjectIds } from './believed';
import { type GeoObject, RELATIONS, type Relation, isInside, isOnTopOf, related, supportOf } from './relations';
import { occludersOf, sightOf, transparentColliders } from './visibility';

// ------------------------------------------------------------------- state

/** The states that apply to an object, by its properties: open, on, sliced, dirty, filled, cooked. */
export function objectState(sim: SimWorld, id: string): Record<string, boolean> {
  const e = sim.entity(id);
  const p = e.spec.properties;
  const s = e.states;
  const out: Record<string, boolean> = {};
  if (p.openable || e.door) out['open'] = s.open;
  if (p.toggleable) out['on'] = s.on;
  if (p.sliceable) out['sliced'] = s.sliced;
  if (p.dirtyable) out['dirty'] = s.dirty;
  if (p.fillable) out['filled'] = s.filled;
  if (p.cookable) out['cooked'] = s.cooked;
  return out;
}

/** The same states as words: "closed", "switched off", "not sliced", "clean", "empty", "raw". */
export function stateWords(sim: SimWorld, id: string): string[] {
  const words: Record<string, [string, string]> = {
    open: ['open', 'closed'],
    on: ['switched on', 'switched off'],
    sliced: ['sliced', 'not sliced'],
    dirty: ['dirty', 'clean'],
    filled: ['filled', 'empty'],
    cooked: ['cooked', 'not cooked'],
  };
  return Object.entries(objectState(sim, id)).map(([k, v]) => words[k]![v ? 0 : 1]);
}

// -------------------------------------------------------------- properties

export interface ObjectProperties {
  id: string;
  name: string;
  type: string;
  category: string;
  description: string | undefined;
  fixed: boolean;
  /** Every catalogue property, true or false (a model should see "pickable: false"). */
  properties: Record<string, boolean>;
  attributes: Record<string, string | number | boolean>;
  massKg: number;
  /** Extents of its box, metres [x, y, z]. */
  sizeM: [number, number, number];
  receptacle?: { capacity?: number; enclosed: boolean; maxLoadKg?: number };
}

export function objectProperties(sim: SimWorld, id: string): ObjectProperties {
  const e = sim.entity(id);
  const s = e.spec;
  const box = geoBox(sim, id);
  const r = s.receptacle;
  const round3 = (x: number): number => Math.round(x * 1000) / 1000;
  return {
    id,
    name: s.name,
    type: s.type,
    category: s.category,
    description: s.description,
    fixed: e.fixed,
    // Pickable as the pick skill sees it: a catalogue pickable thing the gripper can close on.
    properties: { ...s.properties, pickable: s.properties.pickable && !e.fixed && fitsGripper(sim, id) },
    attributes: { ...s.attributes },
    massKg: s.mass,
    sizeM: [round3(box.max.x - box.min.x), round3(box.max.y - box.min.y), round3(box.max.z - box.min.z)],
    ...(r
      ? {
          receptacle: {
            enclosed: r.enclosed,
            ...(r.capacity !== undefined ? { capacity: r.capacity } : {}),
            ...(r.maxLoadKg !== undefined ? { maxLoadKg: r.maxLoadKg } : {}),
          },
        }
      : {}),
  };
}

/** Does the gripper open wide enough for the object (at its grasp part, or its rim for bowls and pots)? */
export function fitsGripper(sim: SimWorld, id: string): boolean {
  const arm = sim.scene.robot.arm;
  if (!arm) return false;
  const e = sim.entity(id);
  if (e.spec.grasp?.mode === 'rim' && e.spec.receptacle) return true;
  const part = e.spec.grasp?.part ? e.prims.filter((p) => p.name === e.spec.grasp!.part) : [];
  const region = part.length ? unionAll(part.map(primitiveAabb)) : e.localAabb;
  return Math.min(region.max.x - region.min.x, region.max.z - region.min.z) <= arm.gripperMaxOpening - 0.004;
}

/** The held object's id, if the hand holds one (RAIDER's robot_holding). */
export function robotHolding(sim: SimWorld): string | undefined {
  return sim.heldId();
}

// --------------------------------------------------------------- relations

/** Relations check_obj_relationship accepts: REFLECT's eight plus "occluding". */
export const QUERY_RELATIONS = [...RELATIONS, 'occluding'] as const;
export type QueryRelation = (typeof QUERY_RELATIONS)[number];

const RELATION_SYNONYMS: Record<string, QueryRelation> = {
  in: 'inside',
  inside: 'inside',
  'inside of': 'inside',
  within: 'inside',
  on: 'on top of',
  'on top': 'on top of',
  'on top of': 'on top of',
  'on top of the': 'on top of',
  above: 'above',
  over: 'above',
  below: 'below',
  under: 'below',
  beneath: 'below',
  underneath: 'below',
  left: 'on the left of',
  'left of': 'on the left of',
  'to the left of': 'on the left of',
  'on the left of': 'on the left of',
  right: 'on the right of',
  'right of': 'on the right of',
  'to the right of': 'on the right of',
  'on the right of': 'on the right of',
  near: 'near',
  'next to': 'near',
  beside: 'near',
  'close to': 'near',
  blocking: 'blocking',
  blocks: 'blocking',
  obstructing: 'blocking',
  occluding: 'occluding',
  occludes: 'occluding',
  hiding: 'occluding',
};

/** A relation name as a model writes it ("left_of", "On top of") to the canonical one, or undefined. */
export function parseRelation(s: string): QueryRelation | undefined {
  const k = s
    .toLowerCase()
    .replace(/[_\-\s]+/g, ' ')
    .trim();
  return RELATION_SYNONYMS[k];
}

export type BlockReason = 'on top' | 'inside' | 'occluding' | 'in the approach path';

export interface Blocker {
  id: string;
  reasons: BlockReason[];
}

export interface RelationOptions {
  /** Ids that may be answers (default: every object the robot knows of; see knownObjectIds). */
  pool?: Iterable<string>;
}

function poolOf(sim: SimWorld, opts: RelationOptions): Set<string> {
  const ids = new Set(opts.pool ?? knownObjectIds(sim));
  const held = sim.heldId();
  if (held) ids.delete(held);
  return ids;
}

/** Objects that occlude a target from the camera: first hit on its centre ray or on at least three rays. */
export function occluders(sim: SimWorld, id: string): string[] {
  const sight = sightOf(sim, id);
  const all = believedGeos(sim);
  const me = all.find((g) => g.id === id);
  const support = me ? supportOf(me, all)?.id : undefined;
  const out: string[] = [];
  for (const [owner, votes] of occludersOf(sight)) {
    if (votes < 2 || owner === support) continue;
    // Furniture in the way of the view is a viewpoint problem, not something to move.
    if (sim.entities.get(owner)?.fixed) continue;
    out.push(owner);
  }
  return out.sort();
}

/** The space the fingers pass through on a top-down approach: the object's footprint plus finger clearance, 30 cm up. */
export function approachCorridor(box: Aabb): Aabb {
  const m = FINGER_THICKNESS + 0.015;
  return { min: v3(box.min.x - m, box.max.y + 0.005, box.min.z - m), max: v3(box.max.x + m, box.max.y + 0.3, box.max.z + m) };
}

/** Things inside the approach corridor above an object (not the object, not the robot or what it holds). */
export function corridorObstacles(sim: SimWorld, id: string): string[] {
  const box = believedGeos(sim).find((g) => g.id === id)?.box ?? geoBox(sim, id);
  const cor = approachCorridor(box);
  const c: Vec3 = aabbCenter(cor);
  const shape = new sim.R.Cuboid((cor.max.x - cor.min.x) / 2, (cor.max.y - cor.min.y) / 2, (cor.max.z - cor.min.z) / 2);
  const skip = transparentColliders(sim);
  const found = new Set<string>();
  sim.world.intersectionsWithShape(
    c,
    { x: 0, y: 0, z: 0, w: 1 },
    shape,
    (col) => {
      const owner = sim.colliderOwner.get(col.handle);
      if (owner && owner !== id) found.add(owner);
      return true;
    },
    undefined,
    QUERY.approach,
    undefined,
    undefined,
    (col) => !skip.has(col.handle),
  );
  return [...found].sort();
}

/** Everything blocking an object, with the reasons (see the header for what counts). */
export function blockers(sim: SimWorld, id: string, opts: RelationOptions = {}): Blocker[] {
  const e = sim.entity(id);
  const all = believedGeos(sim);
  const me = all.find((g) => g.id === id)!;
  const pool = poolOf(sim, opts);
  const reasons = new Map<string, Set<BlockReason>>();
  const add = (other: string, why: BlockReason): void => {
    if (other === id || other === sim.heldId()) return;
    if (sim.entities.has(other) && !pool.has(other)) return;
    let s = reasons.get(other);
    if (!s) reasons.set(other, (s = new Set()));
    s.add(why);
  };
  const inside = all.filter((g) => isInside(g, me) && !sim.isHeld(g.id));
  const support = supportOf(me, all)?.id;
  if (!e.fixed) {
    for (const g of all) if (isOnTopOf(g, me) && !sim.isHeld(g.id)) add(g.id, 'on top');
    if (e.spec.properties.pickable) for (const g of inside) add(g.id, 'inside');
    for (const o of corridorObstacles(sim, id)) {
      if (o === support || inside.some((g) => g.id === o)) continue;
      add(o, isOnTopOf(all.find((g) => g.id === o) ?? me, me) ? 'on top' : 'in the approach path');
    }
  } else {
    const cap = e.spec.receptacle?.capacity;
    if (cap !== undefined && inside.length >= cap) for (const g of inside) add(g.id, 'inside');
  }
  for (const o of occluders(sim, id)) add(o, 'occluding');
  return [...reasons].map(([bid, s]) => ({ id: bid, reasons: [...s] })).sort((a, b) => compareIds(a.id, b.id));
}

/**
 * RAIDER's check_obj_relationship: the objects that stand in `relation` to
 * `id` ("inside X" -> what is inside X). Left and right are as the robot's
 * base faces. Uses the geometry of now; answers are limited to the pool (the
 * objects the robot knows of), and never include the held object.
 */
export function relationQuery(sim: SimWorld, relation: QueryRelation | Relation, id: string, opts: RelationOptions = {}): string[] {
  if (relation === 'blocking') return blockers(sim, id, opts).map((b) => b.id);
  const pool = poolOf(sim, opts);
  if (relation === 'occluding') return occluders(sim, id).filter((o) => !sim.entities.has(o) || pool.has(o));
  // The relations of the objects as the robot believes them (where it last saw each).
  const all: GeoObject[] = believedGeos(sim);
  const me = all.find((g) => g.id === id);
  if (!me) throw new Error(`no object "${id}"`);
  const candidates = all.filter((g) => g.id === id || pool.has(g.id));
  let out = related(relation, me, candidates, sim.body.basePose).map((g) => g.id);
  if (relation === 'near') {
    // What it rests on or in, and what rests on or in it, have a more telling relation than "near".
    const support = supportOf(me, all)?.id;
    out = out.filter((o) => {
      if (o === support) return false;
      const s = supportOf(
        all.find((g) => g.id === o)!,
        all,
      );
      return s?.id !== id;
    });
  }
  return out;
}
