// Room for the hand, not only for the object: a spot where the object fits but
// the fingers around it would come down on a box beside it tips that box onto
// the hand. The hand's own colliders, moved to where they will be on the way
// down and at the release, must meet nothing the robot knows but the support.
import type { Vec3 } from '../math';
import { QUERY } from '../groups';
import { isKnown } from '../perception/believed';
import { robotPartOf } from '../world/location';
import type { SimWorld } from '../world/sim-world';

/** Heights above the release the hand is checked at on its way down, metres. */
const DESCENT = [0, 0.02, 0.05];

/**
 * Would the hand, carried from where it is now to `release` (same orientation),
 * or a little above it, meet a known object other than `support` or the held one?
 */
export function handMeets(sim: SimWorld, release: Vec3, support: string, held: string): boolean {
  const tcp = sim.tcp()!.p;
  const heldColliders = new Set(sim.entity(held).colliders);
  const hand = [...sim.bodyLinks.colliders].filter((h) => robotPartOf(sim, h) === 'hand').map((h) => sim.world.getCollider(h));
  for (const up of DESCENT) {
    const d = { x: release.x - tcp.x, y: release.y + up - tcp.y, z: release.z - tcp.z };
    for (const c of hand) {
      const t = c.translation();
      let met = false;
      sim.world.intersectionsWithShape(
        { x: t.x + d.x, y: t.y + d.y, z: t.z + d.z },
        c.rotation(),
        c.shape,
        (o) => {
          const owner = sim.colliderOwner.get(o.handle);
          if (heldColliders.has(o.handle) || sim.bodyLinks.colliders.has(o.handle)) return true;
          if (!owner || owner === support || !sim.entities.has(owner) || !isKnown(sim, owner)) return true;
          met = true;
          return false;
        },
        undefined,
        QUERY.placement,
      );
      if (met) return true;
    }
  }
  return false;
}
