// The observation buffer of paper 003 §5: under partial observability the robot
// knows where an object is only after its camera has seen it there. `observe`
// records what the camera sees now and forgets what it should see but does not
// (someone took it away); the perceive skill moves the arm to its observe
// posture first, then calls this. Observations made before the base last moved
// stay in the buffer but are stale (snapshot marks them).
import { type Vec3, aabbCenter, dist } from '../math';
import type { Observation, SimWorld } from '../world/sim-world';
import { cameraView, inView } from './camera';
import { detectObjects } from './detection';
import { geoObjects } from './geo';
import { supportOf } from './relations';
import { castSight, transparentColliders } from './visibility';

export interface ObservedObject {
  id: string;
  support: string | undefined;
  relation: 'on' | 'in' | undefined;
  position: Vec3;
}

export interface ObserveResult {
  /** Objects seen now, with what they rest on or in (furniture is known a priori and not listed). */
  observed: ObservedObject[];
  /** Objects forgotten: their recorded spot was in plain view and empty. */
  removed: string[];
}

export interface ObserveOptions {
  /** Apply detection dropout (default true; a no-op when it is 0). */
  noise?: boolean;
}

/**
 * Is the recorded spot of an observation in plain view now? Yes when it is in
 * the field of view and range and the sight ray reaches it (the first hit is
 * not clearly in front of it). A closed fridge door, or another object in
 * front, leaves the spot unseen and the observation is kept.
 */
function spotInPlainView(sim: SimWorld, o: Observation): boolean {
  const view = cameraView(sim);
  if (!inView(view, o.position)) return false;
  const d = dist(view.pose.p, o.position);
  const hit = castSight(sim, view, o.position, d + 0.05, transparentColliders(sim));
  // Hitting the object itself means it is still there (missed only by detection noise).
  return !hit || (hit.owner !== o.objectId && hit.distance >= d - 0.03);
}

export function observe(sim: SimWorld, opts: ObserveOptions = {}): ObserveResult {
  const seen = detectObjects(sim, { noise: opts.noise !== false, fixed: false });
  const all = geoObjects(sim);
  const observed: ObservedObject[] = [];
  for (const d of seen) {
    const me = all.find((g) => g.id === d.id)!;
    const s = supportOf(me, all);
    const position = aabbCenter(me.box);
    observed.push({ id: d.id, support: s?.id, relation: s?.relation, position });
    sim.knowledge.set(d.id, {
      objectId: d.id,
      support: s?.id,
      relation: s?.relation,
      position,
      time: sim.time,
      baseMoves: sim.body.baseMoves,
      location: sim.body.at,
    });
  }
  const seenIds = new Set(seen.map((d) => d.id));
  const held = sim.heldId();
  const removed: string[] = [];
  for (const [id, o] of [...sim.knowledge].sort(([a], [b]) => a.localeCompare(b))) {
    if (seenIds.has(id) || id === held) continue;
    if (spotInPlainView(sim, o)) {
      sim.knowledge.delete(id);
      removed.push(id);
    }
  }
  return { observed, removed };
}

/**
 * The robot knows where it has just put an object (it watched its own hand), so
 * a placement refreshes the observation instead of leaving the old spot.
 */
export function recordPlacement(sim: SimWorld, id: string): void {
  if (!sim.scene.scene.perception.partialObservability) return;
  const all = geoObjects(sim);
  const me = all.find((g) => g.id === id);
  if (!me) return;
  const s = supportOf(me, all);
  sim.knowledge.set(id, {
    objectId: id,
    support: s?.id,
    relation: s?.relation,
    position: aabbCenter(me.box),
    time: sim.time,
    baseMoves: sim.body.baseMoves,
    location: sim.body.at,
  });
}
