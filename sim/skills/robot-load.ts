// What of an object's weight the robot's own links still bear. An object that
// rested on the hand and slid down against a box may rest mostly on the box
// and still lean on the hand: the robot feels that load, so it cannot say the
// object fell off. A touch counts as bearing when a link pushes up on the object
// (the contact normal points up) below its centre of mass, or pushes at all.
import { rotate } from '../math';
import { type RobotPart, robotPartOf } from '../world/location';
import type { SimWorld } from '../world/sim-world';

/** A contact this far apart (metres) still counts as touching. */
const TOUCH = 0.02;
/** A link bears weight when its contact normal points up at least this much. */
const UP = 0.02;

/** The robot part that still bears part of the object's weight, if any. */
export function robotStillBears(sim: SimWorld, id: string): RobotPart | undefined {
  const e = sim.entities.get(id);
  if (!e || sim.isHeld(id)) return undefined;
  const com = sim.world.getRigidBody(e.body).worldCom();
  let found: RobotPart | undefined;
  for (const h of e.colliders) {
    const mine = sim.world.getCollider(h);
    sim.world.contactPairsWith(mine, (other) => {
      const part = found ? undefined : robotPartOf(sim, other.handle);
      if (!part) return;
      sim.world.contactPair(mine, other, (m, flipped) => {
        const n = m.normal();
        if ((flipped ? n.y : -n.y) <= UP) return;
        for (let k = 0; k < m.numContacts(); k++) {
          if (m.contactDist(k) > TOUCH) continue;
          const local = flipped ? m.localContactPoint2(k) : m.localContactPoint1(k);
          if (!local) continue;
          const y = mine.translation().y + rotate(mine.rotation(), local).y;
          if (y < com.y - 0.002 || m.contactImpulse(k) > 0) found = part;
        }
      });
    });
  }
  return found;
}
