// Builds Rapier bodies and colliders from a resolved scene. Creation order is the
// scene's object order, so the same scene always gives the same world.
import type { ResolvedObject, ResolvedScene } from '../../scenes/resolve';
import { type PrimitivePart, expandParts, primitiveVolume } from '../../scenes/shapes';
import { type Aabb, type Pose, type Vec3, add, fromTuple, qEulerDeg, qIdentity, qMul, qYaw, rad, rotate, v3 } from '../math';
import type { Rapier, RAPIER } from '../rapier';
import type { DoorState, Entity } from './entity';
import { aabbToWorld, localBox, primitiveAabb, unionAll } from './entity';
import { GROUPS } from '../groups';
import { meshColliderDesc } from './mesh-collider';

export function colliderDesc(R: Rapier, p: PrimitivePart, origin: Vec3 = v3()): RAPIER.ColliderDesc {
  const g = p.geometry;
  let desc: RAPIER.ColliderDesc;
  switch (g.shape) {
    case 'box':
      desc = R.ColliderDesc.cuboid(g.size[0] / 2, g.size[1] / 2, g.size[2] / 2);
      break;
    case 'sphere':
      desc = R.ColliderDesc.ball(g.radius);
      break;
    case 'cylinder':
      desc = R.ColliderDesc.cylinder(g.height / 2, g.radius);
      break;
    case 'capsule':
      desc = R.ColliderDesc.capsule(g.height / 2, g.radius);
      break;
    case 'mesh':
      desc = meshColliderDesc(R, g);
      break;
  }
  const pos = fromTuple(p.position);
  desc.setTranslation(pos.x - origin.x, pos.y - origin.y, pos.z - origin.z);
  desc.setRotation(qEulerDeg(p.rotation));
  return desc;
}

/** Splits an object's primitives into the fixed part and the moving (door) part. */
function splitParts(spec: ResolvedObject): { main: PrimitivePart[]; door: PrimitivePart[] } {
  const all = expandParts(spec.parts);
  const moving = new Set(spec.articulation?.parts ?? []);
  return {
    main: all.filter((p) => !moving.has(p.name)),
    door: all.filter((p) => moving.has(p.name)),
  };
}

export function localAabbOf(prims: PrimitivePart[]): Aabb {
  const withCollider = prims.filter((p) => p.collider);
  return unionAll((withCollider.length ? withCollider : prims).map(primitiveAabb));
}

/** Top of the supporting surface of `support` under world point (x, z). */
function supportTop(support: ResolvedObject, supportPose: Pose, x: number, z: number, into: boolean): number {
  const boxes =
    into && support.receptacle
      ? [localBox(support.receptacle.interior)]
      : support.surfaces.length
        ? support.surfaces.map(localBox)
        : support.receptacle
          ? [localBox(support.receptacle.interior)]
          : [localAabbOf(expandParts(support.parts))];
  let best: { top: number; d: number } | undefined;
  for (const b of boxes) {
    const w = aabbToWorld(b, supportPose);
    const dx = Math.max(0, w.min.x - x, x - w.max.x);
    const dz = Math.max(0, w.min.z - z, z - w.max.z);
    const d = Math.hypot(dx, dz);
    // A receptacle interior's floor is its bottom; a surface's top is its top.
    const top = into || (!support.surfaces.length && support.receptacle) ? w.min.y : w.max.y;
    if (!best || d < best.d - 1e-9) best = { top, d };
  }
  return best ? best.top : supportPose.p.y;
}

function surfaceCenter(support: ResolvedObject, supportPose: Pose, into: boolean): Vec3 {
  const b =
    into && support.receptacle ? localBox(support.receptacle.interior) : support.surfaces[0] ? localBox(support.surfaces[0]) : undefined;
  if (!b) return supportPose.p;
  const w = aabbToWorld(b, supportPose);
  return v3((w.min.x + w.max.x) / 2, 0, (w.min.z + w.max.z) / 2);
}

/** World pose of every object: explicit positions, or resting on / in their support. */
export function placementPoses(scene: ResolvedScene): Map<string, Pose> {
  const byId = new Map(scene.objects.map((o) => [o.id, o]));
  const poses = new Map<string, Pose>();
  const visiting = new Set<string>();
  const poseOf = (o: ResolvedObject): Pose => {
    const done = poses.get(o.id);
    if (done) return done;
    if (visiting.has(o.id)) throw new Error(`objects "${o.id}": "on"/"in" forms a cycle`);
    visiting.add(o.id);
    const q = qYaw(rad(o.placement.yaw ?? 0));
    const supportId = o.placement.in ?? o.placement.on;
    let p: Vec3;
    if (supportId) {
      const support = byId.get(supportId)!;
      const sPose = poseOf(support);
      const into = Boolean(o.placement.in);
      const c = o.placement.position ? v3(o.placement.position[0], 0, o.placement.position[2]) : surfaceCenter(support, sPose, into);
      const bottom = localAabbOf(splitParts(o).main.concat(splitParts(o).door)).min.y;
      const top = supportTop(support, sPose, c.x, c.z, into);
      p = v3(c.x, top - bottom + 0.002, c.z);
    } else {
      p = fromTuple(o.placement.position!);
    }
    const pose = { p, q };
    poses.set(o.id, pose);
    visiting.delete(o.id);
    return pose;
  };
  for (const o of scene.objects) poseOf(o);
  return poses;
}

export function buildEntity(R: Rapier, world: RAPIER.World, spec: ResolvedObject, pose: Pose): Entity {
  const { main, door } = splitParts(spec);
  const fixed = spec.fixed;
  const bodyDesc = fixed ? R.RigidBodyDesc.fixed() : R.RigidBodyDesc.dynamic();
  bodyDesc.setTranslation(pose.p.x, pose.p.y, pose.p.z).setRotation(pose.q);
  // Continuous collision detection: a fast small object (a knocked spoon, a
  // dropped plate) is swept against what it would pass through in one step.
  if (!fixed) bodyDesc.setLinearDamping(0.05).setAngularDamping(0.2).setCcdEnabled(true);
  const body = world.createRigidBody(bodyDesc);
  const solid = main.filter((p) => p.collider);
  const totalVolume = solid.reduce((s, p) => s + primitiveVolume(p.geometry), 0) || 1;
  const explicit = solid.reduce((s, p) => s + (p.mass ?? 0), 0);
  const shared = solid.filter((p) => p.mass === undefined).reduce((s, p) => s + primitiveVolume(p.geometry), 0) || totalVolume;
  const colliders: number[] = [];
  for (const p of solid) {
    const d = colliderDesc(R, p)
      .setFriction(spec.friction)
      .setRestitution(spec.restitution)
      .setCollisionGroups(fixed ? GROUPS.static : GROUPS.object);
    if (!fixed) {
      const m = p.mass ?? Math.max(spec.mass - explicit, 0.001) * (primitiveVolume(p.geometry) / shared);
      d.setMass(m);
    }
    colliders.push(world.createCollider(d, body).handle);
  }
  let doorState: DoorState | undefined;
  if (spec.articulation && door.length) {
    const art = spec.articulation;
    const pivot = fromTuple(art.pivot);
    const wp = add(pose.p, rotate(pose.q, pivot));
    const doorBody = world.createRigidBody(R.RigidBodyDesc.kinematicPositionBased().setTranslation(wp.x, wp.y, wp.z).setRotation(pose.q));
    const dc: number[] = [];
    for (const p of door.filter((x) => x.collider)) {
      dc.push(world.createCollider(colliderDesc(R, p, pivot).setFriction(spec.friction).setCollisionGroups(GROUPS.door), doorBody).handle);
    }
    const doorPrims = door.map((p) => ({
      ...p,
      position: [p.position[0] - pivot.x, p.position[1] - pivot.y, p.position[2] - pivot.z] as [number, number, number],
    }));
    doorState = {
      body: doorBody.handle,
      colliders: dc,
      prims: doorPrims,
      localAabb: localAabbOf(doorPrims),
      kind: art.kind,
      pivot,
      axis: fromTuple(art.axis),
      openValue: art.kind === 'hinge' ? rad(art.open) : art.open,
      value: 0,
    };
  }
  return {
    id: spec.id,
    spec,
    fixed,
    body: body.handle,
    colliders,
    prims: main,
    localAabb: localAabbOf(main),
    door: doorState,
    states: { ...spec.states },
    process: undefined,
  };
}

/** Pose of a door body for a given opening value, from its owner's pose. */
export function doorPose(owner: Pose, door: DoorState, value: number): Pose {
  const p = add(owner.p, rotate(owner.q, door.pivot));
  if (door.kind === 'hinge') {
    const axisWorld = door.axis;
    const half = value / 2;
    const n = Math.hypot(axisWorld.x, axisWorld.y, axisWorld.z) || 1;
    const local = {
      x: (axisWorld.x / n) * Math.sin(half),
      y: (axisWorld.y / n) * Math.sin(half),
      z: (axisWorld.z / n) * Math.sin(half),
      w: Math.cos(half),
    };
    return { p, q: qMul(owner.q, local) };
  }
  const n = Math.hypot(door.axis.x, door.axis.y, door.axis.z) || 1;
  const slide = rotate(owner.q, v3((door.axis.x / n) * value, (door.axis.y / n) * value, (door.axis.z / n) * value));
  return { p: add(p, slide), q: owner.q };
}

/** How far the floor slab reaches past the scene's floor size on every side, metres. */
export const FLOOR_MARGIN = 2;
/** The floor is a thick slab (top at y = 0) so nothing pushed into it comes out underneath. */
const FLOOR_THICKNESS = 1;

export function buildFloor(R: Rapier, world: RAPIER.World, size: readonly [number, number]): number {
  const body = world.createRigidBody(
    R.RigidBodyDesc.fixed()
      .setTranslation(0, -FLOOR_THICKNESS / 2, 0)
      .setRotation(qIdentity()),
  );
  world.createCollider(
    R.ColliderDesc.cuboid(size[0] / 2 + FLOOR_MARGIN, FLOOR_THICKNESS / 2, size[1] / 2 + FLOOR_MARGIN)
      .setFriction(0.9)
      .setCollisionGroups(GROUPS.floor),
    body,
  );
  return body.handle;
}
