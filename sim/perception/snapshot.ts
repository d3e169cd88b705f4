// The semantic environment snapshot of paper 003 §5: a sorted list of ground
// facts, e.g. robot_at(robot, table_1_front), on(lemon_1, table_1),
// in(plum_1, bowl_1), closed(fridge_1), battery(robot, okay). Deterministic, so
// prompts built from it are reproducible.
// - What a tool gets (snapshotFacts) comes from the robot's belief: never-seen
//   objects are absent, and a wrist camera's observations made before the base
//   last moved are listed with stale(<obj>). Furniture, appliances and locations
//   are known a priori; their states are always listed. The states of an
//   observed object are read from the world (the camera sees them with it).
//   Robot facts come from the robot's own state (paper 003's tolerances).
// - worldFacts lists what holds in the world, perceived or not: the scorer's view.
// - People are listed with person_at(<person>, <location>) when they stand
//   within PERSON_AT_RADIUS of a named place's pose, and person_near(<person>,
//   <thing>) for the nearest furniture or object within PERSON_NEAR_GAP; in
//   what a tool gets, by the handle the robot gave them until it recognised them.
import { compareIds } from '../ids';
import { type Vec3, distXZ, fromTuple } from '../math';
import { locations, placeFact } from '../world/location';
import type { SimWorld } from '../world/sim-world';
import { believedGeos, isStale } from './believed';
import { look } from './observe';
import { geoObjects, personBoxAt } from './geo';
import { type GeoObject, gap } from './relations';

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

/**
 * The label of an arm in no named posture. The built-in arms say "unknown" (paper
 * 003's snapshot); an arm from a robot description knows its joints and its
 * sidecar's postures by value, so between them it says "none": no named posture.
 */
function postureless(sim: SimWorld): 'unknown' | 'none' {
  return sim.kinematics?.kind === 'chain' ? 'none' : 'unknown';
}

/** Facts about the robot itself: it knows its own state. */
function robotFacts(sim: SimWorld, facts: Set<string>): void {
  const r = 'robot';
  // A fixed arm has no places to be at; a mobile robot between places is "unknown".
  const at = robotLocation(sim);
  if (at || sim.scene.robot.kind !== 'fixed_arm') facts.add(`robot_at(${r}, ${at ?? 'unknown'})`);
  if (sim.scene.robot.arm) {
    facts.add(`robot_has_arm_posture(${r}, ${sim.body.posture ?? postureless(sim)})`);
    const held = sim.heldId();
    facts.add(held ? `holding(${r}, ${held})` : `hand_empty(${r})`);
  }
  facts.add(`battery(${r}, ${sim.battery.level})`);
  facts.add(`battery_percent(${r}, ${Math.round(sim.battery.percent)})`);
  if (sim.body.docked) facts.add(`docked(${r})`);
  if (sim.estop) facts.add(`estop_pressed(${r})`);
}

/** person_at and person_near for people (what to call them, who they are, where) near the given objects. */
function peopleFacts(sim: SimWorld, facts: Set<string>, people: Iterable<[string, string, Vec3]>, near: readonly GeoObject[]): void {
  for (const [name, pid, position] of [...people].sort(([a], [b]) => compareIds(a, b))) {
    let at: { id: string; d: number } | undefined;
    for (const l of [...sim.locations.values()].sort((a, b) => compareIds(a.id, b.id))) {
      const d = distXZ(fromTuple(l.pose.position), position);
      if (d <= PERSON_AT_RADIUS && (!at || d < at.d)) at = { id: l.id, d };
    }
    if (at) facts.add(`person_at(${name}, ${at.id})`);
    const box = personBoxAt(sim, pid, position);
    let best: { id: string; d: number } | undefined;
    for (const g of near) {
      if (g.place?.free) continue;
      const d = gap(box, g.box);
      if (d <= PERSON_NEAR_GAP && (!best || d < best.d)) best = { id: g.id, d };
    }
    if (best) facts.add(`person_near(${name}, ${best.id})`);
  }
}

/**
 * The snapshot the robot reports (tools): its own state, the states of
 * furniture and appliances, and the objects it has perceived, where it
 * perceived them (stale after the base moved, for a wrist camera), and the
 * people it has seen. Nothing it has not perceived.
 */
export function snapshotFacts(sim: SimWorld): string[] {
  look(sim);
  const facts = new Set<string>();
  robotFacts(sim, facts);
  for (const e of [...sim.entities.values()].sort((a, b) => compareIds(a.id, b.id))) {
    const id = e.id;
    if (e.fixed) {
      for (const f of stateFacts(sim, id)) facts.add(f);
      continue;
    }
    const o = sim.belief.get(id);
    if (!o) continue;
    if (o.place.kind !== 'held') facts.add(placeFact(id, o.place));
    if (isStale(sim, id)) facts.add(`stale(${id})`);
    for (const f of stateFacts(sim, id)) facts.add(f);
  }
  // People by what the robot calls them: a handle until it recognised them.
  const people = [...sim.belief.people.values()].map((p): [string, string, Vec3] => [p.handle, p.id, p.position]);
  peopleFacts(sim, facts, people, believedGeos(sim));
  return [...facts].sort();
}

/**
 * The facts that hold in the world now, perceived or not: for scoring and the
 * operator's view, never for a tool. `hidden: false` leaves out the objects a
 * scene marks hidden (distractors not named up front).
 */
export function worldFacts(sim: SimWorld, opts: { hidden?: boolean } = {}): string[] {
  const facts = new Set<string>();
  robotFacts(sim, facts);
  const all = geoObjects(sim);
  const shown = all.filter((g) => !(sim.entity(g.id).spec.hidden && opts.hidden === false));
  for (const e of [...sim.entities.values()].sort((a, b) => compareIds(a.id, b.id))) {
    if (!e.fixed && !(e.spec.hidden && opts.hidden === false)) {
      const p = locations(sim).get(e.id)!;
      if (p.kind !== 'held') facts.add(placeFact(e.id, p));
    }
    if (e.fixed || !(e.spec.hidden && opts.hidden === false)) for (const f of stateFacts(sim, e.id)) facts.add(f);
  }
  peopleFacts(
    sim,
    facts,
    [...sim.people].map(([id, p]): [string, string, Vec3] => [id, id, p.position]),
    shown,
  );
  return [...facts].sort();
}

/** Facts as text for a prompt: one fact per line, robot facts first, then the rest in order. */
export function renderFacts(facts: readonly string[]): string {
  const robotFirst = [...facts].sort((a, b) => Number(!/\(robot[,)]/.test(a)) - Number(!/\(robot[,)]/.test(b)) || compareIds(a, b));
  return robotFirst.join('\n');
}
