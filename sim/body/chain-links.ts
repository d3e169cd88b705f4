// The links of an arm from a robot description in the physics world: one
// kinematic body per link of the chain (with the description's collision
// shapes: boxes, cylinders, spheres, and meshes as convex hulls) and one per
// finger, driven by the finger opening. Placed from the chain's forward
// kinematics each step the arm moves, as the built-in arm's links are.
import { type Pose, add, poseApply, poseMul, rotate, scale } from '../math';
import type { Rapier, RAPIER } from '../rapier';
import type { ImportedArm, LinkShape } from './imported-arm';
import type { JointValues } from './kinematics';

/** World poses of the parts skills read, in the built-in arm's terms (hand and fingers: +Y the approach, +Z the closing). */
export interface PartPoses {
  turret: Pose;
  upper: Pose;
  fore: Pose;
  hand: Pose;
  fingerA: Pose;
  fingerB: Pose;
  tcp: Pose;
}

export class ChainLinks {
  /** Body of each chain link that has one, by link name. */
  readonly bodies = new Map<string, number>();
  readonly fingerBodies: [number, number];

  constructor(
    R: Rapier,
    world: RAPIER.World,
    readonly arm: ImportedArm,
    start: Pose,
    addCollider: (desc: RAPIER.ColliderDesc, body: RAPIER.RigidBody) => void,
  ) {
    const kin = (): RAPIER.RigidBody =>
      world.createRigidBody(R.RigidBodyDesc.kinematicPositionBased().setTranslation(start.p.x, start.p.y, start.p.z));
    // A link drawn but without collision shapes still has a body: the app draws it where the body is.
    const needed = new Set([arm.parts.turret, arm.parts.upper, arm.parts.fore, arm.gripperLink, ...arm.shapes.keys(), ...arm.drawn]);
    for (const name of needed) {
      const b = kin();
      for (const s of arm.shapes.get(name) ?? []) {
        const d = colliderOf(R, s);
        if (d) addCollider(d, b);
      }
      this.bodies.set(name, b.handle);
    }
    const finger = (k: 0 | 1): number => {
      const b = kin();
      for (const s of arm.fingers[k].shapes) {
        const d = colliderOf(R, s);
        if (d) addCollider(d, b);
      }
      return b.handle;
    };
    this.fingerBodies = [finger(0), finger(1)];
  }

  /** Every body's world pose, and the parts' poses, for the mount in the world, joints and opening. */
  poses(mountW: Pose, q: JointValues, opening: number): { bodies: Array<[number, Pose]>; parts: PartPoses } {
    const arm = this.arm;
    const kin = arm.kinematics;
    const world = new Map<string, Pose>();
    for (const l of kin.links(q)) world.set(l.name, poseMul(mountW, l.pose));
    const tool = poseMul(mountW, kin.tool(q));
    const grip = world.get(arm.gripperLink)!;
    const fingerPoses = arm.fingers.map((f) => {
      // Each finger takes half the opening from its closed end, within its travel.
      const v = f.lower + Math.min(f.upper - f.lower, Math.max(0, opening / 2));
      return poseMul(grip, { p: add(f.origin.p, rotate(f.origin.q, scale(f.axis, v))), q: f.origin.q });
    }) as [Pose, Pose];
    const bodies: Array<[number, Pose]> = [];
    for (const [name, body] of this.bodies) bodies.push([body, world.get(name)!]);
    bodies.push([this.fingerBodies[0], fingerPoses[0]], [this.fingerBodies[1], fingerPoses[1]]);
    const centre = (k: 0 | 1): Pose => ({
      p: poseApply(fingerPoses[k], arm.fingers[k].shapes[0]?.pose.p ?? { x: 0, y: 0, z: 0 }),
      q: tool.q,
    });
    return {
      bodies,
      parts: {
        turret: world.get(arm.parts.turret)!,
        upper: world.get(arm.parts.upper)!,
        fore: world.get(arm.parts.fore)!,
        hand: { p: grip.p, q: tool.q },
        fingerA: centre(0),
        fingerB: centre(1),
        tcp: tool,
      },
    };
  }
}

/** A Rapier collider for a link shape; null for a mesh whose points span no volume (the loader warned of it). */
function colliderOf(R: Rapier, s: LinkShape): RAPIER.ColliderDesc | null {
  const d =
    s.kind === 'box'
      ? R.ColliderDesc.cuboid(s.half.x, s.half.y, s.half.z)
      : s.kind === 'cylinder'
        ? R.ColliderDesc.cylinder(s.halfHeight, s.radius)
        : s.kind === 'ball'
          ? R.ColliderDesc.ball(s.radius)
          : R.ColliderDesc.convexHull(s.points);
  if (!d) return null;
  return d.setTranslation(s.pose.p.x, s.pose.p.y, s.pose.p.z).setRotation(s.pose.q);
}
