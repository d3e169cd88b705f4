// A person setting an object down (object_moved) finds a free spot at the place
// asked for: lowered onto what is below, the robot's hand and arm included, and
// from the first free height above a spot inside something, never left inside
// anything for the solver to push out.
import { describe, expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import type { SimWorld } from './sim-world';

/** The deepest overlap (metres, positive) of the object with anything, and with what. */
function deepest(sim: SimWorld, id: string): { depth: number; with: string } {
  let out = { depth: 0, with: '' };
  for (const h of sim.entity(id).colliders) {
    const c = sim.world.getCollider(h);
    sim.world.contactPairsWith(c, (other) => {
      sim.world.contactPair(c, other, (m) => {
        for (let i = 0; i < m.numContacts(); i++) {
          const d = -m.contactDist(i);
          if (d > out.depth)
            out = {
              depth: d,
              with: sim.colliderOwner.get(other.handle) ?? (sim.bodyLinks.colliders.has(other.handle) ? 'robot' : 'floor'),
            };
        }
      });
    });
  }
  return out;
}

describe('a person setting an object down', () => {
  it('on the robot hand lands on top of it, not inside the arm', async () => {
    const sim = await sceneWorld('tabletop/workshop');
    const tcp = sim.tcp()!.p;
    for (const id of ['power_drill_1', 'klt_1', 'multimeter_1']) {
      sim.setDown(sim.entity(id), { x: tcp.x, y: tcp.y + 0.12, z: tcp.z });
      expect(deepest(sim, id).depth, id).toBeLessThan(0.005);
      sim.inject({ type: 'object_moved', object: id, to: [2.2, 0.8, 1.5], by: 'a person' });
    }
  });
});
