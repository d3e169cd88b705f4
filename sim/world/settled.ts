// Letting a freshly built world come to rest, optionally from a store of settled worlds.
//
// Settling is plain Rapier stepping: nothing of ours runs between the steps, so the
// settled world is a function of the world as built (its physics snapshot), the step
// count and the Rapier build alone. A store keyed by exactly those can hand back the
// settled physics instead of stepping again (a one-shot `skillbridge call` spent about
// a fifth of its time here). Restored through the snapshot path every host already
// uses, it continues exactly as a world that settled itself.
import type { SettleStart, SettledStore, WorldSnapshot } from './types';
import type { RAPIER, Rapier } from '../rapier';

interface Settleable {
  readonly R: Rapier;
  world: RAPIER.World;
  snapshot(): WorldSnapshot;
  restore(s: WorldSnapshot): void;
}

/** Steps the world `steps` times, or restores the settled world from the store when it has it. */
export function settleWorld(sim: Settleable, steps: number, store: SettledStore | undefined, rapierBuild: string): void {
  if (!store || steps <= 0) {
    for (let i = 0; i < steps; i++) sim.world.step();
    return;
  }
  const start: SettleStart = { physics: sim.world.takeSnapshot(), steps, rapier: `${sim.R.version()} ${rapierBuild}` };
  const bodies = sim.world.bodies.len();
  const colliders = sim.world.colliders.len();
  const cached = store.load(start);
  if (cached && restoreSettled(sim, cached, bodies, colliders)) return;
  for (let i = 0; i < steps; i++) sim.world.step();
  store.save(start, sim.world.takeSnapshot());
}

/** Swaps in the stored physics (our own state is the fresh world's); false when the bytes do not fit this world. */
function restoreSettled(sim: Settleable, physics: Uint8Array, bodies: number, colliders: number): boolean {
  let probe: RAPIER.World | undefined;
  try {
    probe = sim.R.World.restoreSnapshot(physics);
    const fits = probe.bodies.len() === bodies && probe.colliders.len() === colliders;
    if (!fits) return false;
  } catch {
    return false;
  } finally {
    probe?.free();
  }
  sim.restore({ physics, state: sim.snapshot().state });
  return true;
}
