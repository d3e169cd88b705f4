// When an ALRM subtask holds in the world. "Into a container" is the physics'
// containment fact. "At a position" is a region of the table: the paper names
// places as a person does ("in front of the robot", "left of the coke can"), and
// a person calls an object "at" such a place when the place lies under the
// object, give or take a little. So the region around a reference point is the
// object's own footprint grown by a small slack: a coke can must cover the
// point, a spatula twice its length may lie across it. A fixed radius would let
// a small object that merely starts near a point count as placed there.
import type { Robot } from '../../../robot/robot';
import type { SimControl } from '../../../robot/sim/control';

export interface AlrmGoal {
  object: string;
  into?: string | undefined;
  at?: string | undefined;
}

/** Slack beyond the object's half footprint (m): a placement lands on the nearest free spot, a few centimetres off. */
export const AT_SLACK_M = 0.03;

/**
 * How far (m, on the table plane) an object's centre may end from a reference
 * point to count as there: half its narrower side plus the slack. `box` is the
 * object's own box (its body frame), so the tolerance does not change as it turns.
 */
export function atTolerance(box: { min: { x: number; z: number }; max: { x: number; z: number } }): number {
  return Math.min(box.max.x - box.min.x, box.max.z - box.min.z) / 2 + AT_SLACK_M;
}

export interface GoalCheck {
  done: boolean;
  /** Why not, for the trace reader: "held", "not in container_1", "on another object", "9.1 cm from front (tolerance 5.7 cm)". */
  why: string;
}

/** Whether one subtask holds in the world now (ground truth). */
export async function goalHolds(control: SimControl, robot: Robot, g: AlrmGoal): Promise<GoalCheck> {
  if (control.holding() === g.object) return { done: false, why: 'still held' };
  const facts = control.facts();
  if (g.into) {
    const done = facts.includes(`in(${g.object}, ${g.into})`);
    return { done, why: done ? `in ${g.into}` : `not in ${g.into}` };
  }
  // On the table there: an object that ended in a container or on another (movable) object is not.
  const world = control.world;
  const under = facts.filter((f) => f.startsWith(`in(${g.object}, `) || f.startsWith(`on(${g.object}, `));
  if (under.some((f) => f.startsWith('in(') || !world.entities.get(f.slice(f.indexOf(', ') + 2, -1))?.fixed))
    return { done: false, why: 'in or on another object' };
  const ref = await robot.perception.referencePoint(g.at!);
  if (!ref) return { done: false, why: `no reference position "${g.at}"` };
  const b = world.aabb(g.object);
  const d = Math.hypot((b.min.x + b.max.x) / 2 - ref.position[0], (b.min.z + b.max.z) / 2 - ref.position[2]);
  const tol = atTolerance(world.entities.get(g.object)!.localAabb);
  const cm = (x: number) => (x * 100).toFixed(1);
  return { done: d <= tol, why: `${cm(d)} cm from ${g.at} (tolerance ${cm(tol)} cm)` };
}
