// The base's way to a goal, as the navigation skill drives it and as
// check_free_path reports it: one planner, so "free" and "arrived", "blocked"
// and "blocked" agree. The footprint (4 cm slimmer on each side, as approach
// poses sit close to furniture) is swept straight to the goal; when something
// is in the way, the shortest chain of free straight legs over the scene's
// named places is tried. What the robot carries (the held object, anything
// resting on its hand, arm or base) moves with it and is never its own
// obstacle.
import { QUERY } from '../groups';
import { type Vec3, dist, fromTuple, qYaw, sub, v3 } from '../math';
import { locations } from '../world/location';
import type { SimWorld } from '../world/sim-world';

/** Colliders of what the robot carries: the held object and whatever rests on the robot's body. */
function carried(sim: SimWorld): Set<number> {
  const out = new Set<number>();
  for (const [id, p] of locations(sim)) if (p.kind === 'held' || p.kind === 'robot') for (const c of sim.entity(id).colliders) out.add(c);
  if (sim.grasp) for (const c of sim.entity(sim.grasp.objectId).colliders) out.add(c);
  return out;
}

/** First obstacle the footprint would hit driving straight from a to b, if any. */
export function sweepObstacle(sim: SimWorld, from: Vec3, to: Vec3, ignore: ReadonlySet<string> = new Set()): string | undefined {
  const d = sub(to, from);
  const len = Math.hypot(d.x, d.z);
  if (len < 1e-3) return undefined;
  const [sx, sy, sz] = sim.scene.robot.base.size;
  // A little slimmer than the real footprint: approach poses sit close to furniture.
  const shape = new sim.R.Cuboid(Math.max(0.05, sx / 2 - 0.04), sy / 2, Math.max(0.05, sz / 2 - 0.04));
  const rot = qYaw(Math.atan2(-d.z, d.x));
  const start = v3(from.x, from.y + sy / 2 + 0.02, from.z);
  const load = carried(sim);
  const hit = sim.world.castShape(start, rot, v3(d.x, 0, d.z), shape, 0, 1, true, undefined, QUERY.drive, undefined, undefined, (c) => {
    if (sim.bodyLinks.colliders.has(c.handle) || load.has(c.handle)) return false;
    const owner = sim.colliderOwner.get(c.handle);
    return !(owner && ignore.has(owner));
  });
  return hit ? (sim.colliderOwner.get(hit.collider.handle) ?? 'an obstacle') : undefined;
}

interface Node {
  id: string;
  p: Vec3;
}

/** Shortest free route over the scene's named places (locations and waypoints); blocked: what is in the straight way. */
export function planRoute(sim: SimWorld, goal: Vec3, ignore: ReadonlySet<string>): { path: Vec3[] } | { blockedBy: string } {
  const start = sim.body.basePose.p;
  const direct = sweepObstacle(sim, start, goal, ignore);
  if (!direct) return { path: [goal] };
  const nodes: Node[] = [{ id: '__start', p: start }];
  for (const l of sim.locations.values()) nodes.push({ id: l.id, p: fromTuple(l.pose.position) });
  nodes.push({ id: '__goal', p: goal });
  // Dijkstra with lazily checked edges; graphs here have tens of nodes.
  const distTo = new Map<string, number>([['__start', 0]]);
  const prev = new Map<string, string>();
  const done = new Set<string>();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  while (true) {
    let cur: string | undefined;
    let best = Infinity;
    for (const [id, d] of distTo) if (!done.has(id) && d < best) [cur, best] = [id, d];
    if (!cur) break;
    if (cur === '__goal') break;
    done.add(cur);
    const a = byId.get(cur)!;
    for (const n of nodes) {
      if (done.has(n.id) || n.id === cur) continue;
      const nd = best + dist(a.p, n.p);
      if (nd >= (distTo.get(n.id) ?? Infinity)) continue;
      if (sweepObstacle(sim, a.p, n.p, ignore)) continue;
      distTo.set(n.id, nd);
      prev.set(n.id, cur);
    }
  }
  if (!distTo.has('__goal')) return { blockedBy: direct };
  const path: Vec3[] = [];
  for (let id: string | undefined = '__goal'; id && id !== '__start'; id = prev.get(id)) path.unshift(byId.get(id)!.p);
  return { path };
}
