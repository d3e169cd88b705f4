// People in the physics world: a kinematic capsule standing on the feet
// position, so they block sight rays, the base and the arm like any body.
import type { Person } from '../../scenes/schema';
import { GROUPS } from '../groups';
import { fromTuple, qYaw, rad } from '../math';
import type { Rapier, RAPIER } from '../rapier';
import type { PersonState } from './types';

/** Radius of the capsule a person's body is built from. */
export const PERSON_RADIUS = 0.22;

/** Half length of the capsule's straight part: seated people are shorter. */
export function personHalfLength(p: Person): number {
  return Math.max(0.1, (p.seated ? p.height * 0.7 : p.height) / 2 - PERSON_RADIUS);
}

export function buildPerson(R: Rapier, world: RAPIER.World, p: Person): { state: PersonState; collider: number } {
  const r = PERSON_RADIUS;
  const half = personHalfLength(p);
  const pos = fromTuple(p.position);
  const body = world.createRigidBody(
    R.RigidBodyDesc.kinematicPositionBased()
      .setTranslation(pos.x, pos.y, pos.z)
      .setRotation(qYaw(rad(p.yaw))),
  );
  const c = world.createCollider(
    R.ColliderDesc.capsule(half, r)
      .setTranslation(0, half + r, 0)
      .setCollisionGroups(GROUPS.person),
    body,
  );
  return {
    collider: c.handle,
    state: {
      spec: p,
      body: body.handle,
      position: pos,
      yaw: rad(p.yaw),
      gaze: Array.isArray(p.gaze) ? fromTuple(p.gaze as [number, number, number]) : (p.gaze as 'robot' | 'away'),
      handsFree: p.handsFree,
    },
  };
}
