// The semantic environment snapshot of paper 003 §5: the world as a sorted list
// of ground facts, e.g. robot_at(robot, table_1_front), on(lemon_1, table_1),
// in(plum_1, bowl_1), closed(fridge_1), battery(robot, okay). Deterministic, so
// prompts built from it are reproducible.
// - Under partial observability, object placement facts come only from the
//   observation buffer: never-seen objects are absent, and objects seen before
//   the base last moved are listed with stale(<obj>). Furniture, appliances and
//   locations are known a priori; their states are always listed. The states of
//   an observed object are read from the world (the camera is assumed to see
//   them when it sees the object).
// - People are listed with person_at(<person>, <location>) when they stand
//   within PERSON_AT_RADIUS of a named place's pose, and person_near(<person>,
//   <thing>) for the nearest furniture or object within PERSON_NEAR_GAP.
import { distXZ, fromTuple } from '../math';
import { locations, placeFact } from '../world/location';
import type { SimWorld } from '../world/sim-world';
import { geoObjects, personBox } from './geo';
import { type GeoObject, gap, supportOf } from './relations';

export const PERSON_AT_RADIUS = 1.0;
export const PERSON_NEAR_GAP = 0.6;

/** The named place the robot stands at (paper 003's 0.2 m tolerance, see world/robot-body.ts), or undefined. */
export function robotLocation(sim: SimWorld): string | undefined {
  return sim.body.at;
}

/** State facts for one object: open/closed, switched_on/off, sliced, dirty/clean, filled/empty, cooked. */
export function stateFacts(sim: SimWorld, id: string): string[] {
  const e = sim.entity(id);
  const p = e.spec.properties;
  const s = e.states;
  const out: string[] = [];
  if (p.openable || e.door) out.push(`${s.open ? 'open' : 'closed'}(${id})`);
  if (p.toggleable) out.push(`${s.on ? 'switched_on' : 'switched_off'}(${id})`);
  if (p.sliceable && s.sliced) out.push(`sliced(${id})`);
  if (p.dirtyable) out.push(`${s.dirty ? 'dirty' : 'clean'}(${id})`);
  if (p.fillable) out.push(`${s.filled ? 'filled' : 'empty'}(${id})`);
  if (p.cookable && s.cooked) out.push(`cooked(${id})`);
  return out;
}

function placementFact(id: string, support: string | undefined, relation: 'on' | 'in' | undefined, onFloor: boolean): string | undefined {
  if (support && relation) return `${relation}(${id}, ${support})`;
  return onFloor ? `on(${id}, floor)` : undefined;
}

export interface SnapshotOptions {
  /**
   * List objects the scene marks `hidden` (distractors not named to the model
   * up front) under full observability (default true). Under partial
   * observability they appear once observed, like any object.
   */
  hidden?: boolean;
}

export function snapshotFacts(sim: SimWorld, opts: SnapshotOptions = {}): string[] {
  const facts = new Set<string>();
  const r = 'robot';
  // A fixed arm has no places to be at; a mobile robot between places is "unknown".
  const at = robotLocation(sim);
  if (at || sim.scene.robot.kind !== 'fixed_arm') facts.add(`robot_at(${r}, ${at ?? 'unknown'})`);
  if (sim.scene.robot.arm) {
    const posture = sim.body.posture ?? 'unknown';
    facts.add(`robot_has_arm_posture(${r}, ${posture})`);
    const held = sim.heldId();
    facts.add(held ? `holding(${r}, ${held})` : `hand_empty(${r})`);
  }
  facts.add(`battery(${r}, ${sim.battery.level})`);
  facts.add(`battery_percent(${r}, ${Math.round(sim.battery.percent)})`);
  if (sim.body.docked) facts.add(`docked(${r})`);
  if (sim.estop) facts.add(`estop_pressed(${r})`);

  const all = geoObjects(sim);
  const byId = new Map(all.map((g) => [g.id, g]));
  const partial = sim.scene.scene.perception.partialObservability;
  for (const e of [...sim.entities.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    const id = e.id;
    if (e.fixed) {
      for (const f of stateFacts(sim, id)) facts.add(f);
      continue;
    }
    if (sim.isHeld(id)) {
      for (const f of stateFacts(sim, id)) facts.add(f);
      continue;
    }
    const person = sim.handedOver.get(id);
    if (person) {
      facts.add(`held_by(${id}, ${person})`);
      continue;
    }
    if (partial) {
      const o = sim.knowledge.get(id);
      if (!o) continue;
      const f = placementFact(id, o.support, o.relation, !o.support && o.position.y < 0.3);
      if (f) facts.add(f);
      if (o.baseMoves !== sim.body.baseMoves) facts.add(`stale(${id})`);
    } else {
      if (e.spec.hidden && opts.hidden === false) continue;
      facts.add(placeFact(id, locations(sim).get(id)!));
    }
    for (const f of stateFacts(sim, id)) facts.add(f);
  }

  for (const [pid, p] of [...sim.people].sort(([a], [b]) => a.localeCompare(b))) {
    let at: { id: string; d: number } | undefined;
    for (const l of [...sim.locations.values()].sort((a, b) => a.id.localeCompare(b.id))) {
      const d = distXZ(fromTuple(l.pose.position), p.position);
      if (d <= PERSON_AT_RADIUS && (!at || d < at.d)) at = { id: l.id, d };
    }
    if (at) facts.add(`person_at(${pid}, ${at.id})`);
    const box = personBox(sim, pid);
    let near: { id: string; d: number } | undefined;
    const knownHere = (g: GeoObject): boolean => {
      const e = sim.entity(g.id);
      if (e.fixed) return true;
      return partial ? sim.knowledge.has(g.id) : !(e.spec.hidden && opts.hidden === false);
    };
    for (const g of all) {
      if (sim.isHeld(g.id) || sim.handedOver.has(g.id) || !knownHere(g)) continue;
      const d = gap(box, g.box);
      if (d <= PERSON_NEAR_GAP && (!near || d < near.d)) near = { id: g.id, d };
    }
    if (near) facts.add(`person_near(${pid}, ${near.id})`);
  }
  return [...facts].sort();
}

/** Facts as text for a prompt: one fact per line, robot facts first, then the rest in order. */
export function renderFacts(facts: readonly string[]): string {
  const robotFirst = [...facts].sort((a, b) => Number(!/\(robot[,)]/.test(a)) - Number(!/\(robot[,)]/.test(b)) || a.localeCompare(b));
  return robotFirst.join('\n');
}
