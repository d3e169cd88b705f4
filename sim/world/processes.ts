// Appliances change the things they act on, given time: a switched-on coffee
// machine fills the cup under its spout, a hot burner or a closed running
// microwave cooks what is in it, running water in the sink cleans and fills.
// Which objects are affected is decided by geometry (inside the effect zone).
import type { Aabb, Pose, Vec3 } from '../math';
import { aabbCenter, aabbContainsPoint, v3 } from '../math';
import { type Entity, aabbToWorld } from './entity';

/** What the processes read and change: the world's entities, their poses and boxes. */
export interface ProcessWorld {
  readonly entities: ReadonlyMap<string, Entity>;
  entity(id: string): Entity;
  pose(id: string): Pose;
  aabb(id: string): Aabb;
}

/** Seconds of exposure before a state flips. */
export const PROCESS_SECONDS = { brew: 3, heat: 5, water: 2 } as const;

function zoneOf(sim: ProcessWorld, id: string): Aabb | undefined {
  const e = sim.entity(id);
  const z = e.spec.toggle?.zone ?? e.spec.receptacle?.interior;
  if (!z) return undefined;
  const c = z.center;
  const s = z.size;
  return aabbToWorld(
    { min: v3(c[0] - s[0] / 2, c[1] - s[1] / 2, c[2] - s[2] / 2), max: v3(c[0] + s[0] / 2, c[1] + s[1] / 2, c[2] + s[2] / 2) },
    sim.pose(id),
  );
}

function bottomCentre(b: Aabb): Vec3 {
  const c = aabbCenter(b);
  return v3(c.x, b.min.y + 0.01, c.z);
}

type Effect = keyof typeof PROCESS_SECONDS;

export function runProcesses(sim: ProcessWorld, dt: number): void {
  // First gather which effects reach each object from any running appliance, then
  // advance each object once: judged per appliance, a second appliance of the same
  // kind that is on (another burner) would reset what the first one is cooking.
  const exposed = new Map<string, Set<Effect>>();
  for (const appliance of sim.entities.values()) {
    const effect = appliance.spec.toggle?.effect;
    if (!appliance.states.on || !effect || effect === 'none' || effect === 'light') continue;
    // A microwave only heats with its door shut.
    if (appliance.door && appliance.spec.receptacle?.enclosed && appliance.states.open) continue;
    const zone = zoneOf(sim, appliance.id);
    if (!zone) continue;
    for (const e of sim.entities.values()) {
      if (e.id === appliance.id || e.fixed) continue;
      const box = sim.aabb(e.id);
      const inZone = aabbContainsPoint(zone, bottomCentre(box), 0.02) || aabbContainsPoint(zone, aabbCenter(box), 0.02);
      if (!inZone) continue;
      let set = exposed.get(e.id);
      if (!set) exposed.set(e.id, (set = new Set()));
      set.add(effect);
    }
  }
  for (const e of sim.entities.values()) {
    if (e.fixed) continue;
    const effects = exposed.get(e.id);
    const kinds: ReadonlySet<string> | undefined = effects;
    // Out of every zone of its kind (moved away, or the appliance switched off): start over.
    if (e.process && !kinds?.has(e.process.kind)) e.process = undefined;
    if (!effects) continue;
    for (const effect of effects) {
      const p = e.spec.properties;
      const applies =
        (effect === 'brew' && p.fillable && !e.states.filled) ||
        (effect === 'heat' && p.cookable && !e.states.cooked) ||
        (effect === 'water' && ((p.dirtyable && e.states.dirty) || (p.fillable && !e.states.filled)));
      if (!applies) continue;
      const seconds = (e.process?.kind === effect ? e.process.seconds : 0) + dt;
      e.process = { kind: effect, seconds };
      if (seconds >= PROCESS_SECONDS[effect]) {
        if (effect === 'brew') e.states.filled = true;
        if (effect === 'heat') e.states.cooked = true;
        if (effect === 'water') {
          if (p.dirtyable) e.states.dirty = false;
          if (p.fillable) e.states.filled = true;
        }
        e.process = undefined;
      }
    }
  }
}
