// RAIDER's object_detection (paper 001 Fig. 6): the objects the camera sees now,
// furniture and appliances included (the paper lists e.g. CoffeeMachine). Exact
// by default; with `sim.noise.detectionDropout` set, each visible object is
// missed with that probability, drawn from the world's seeded RNG in id order,
// so the same seed and calls give the same detections.
import { type Vec3, aabbCenter } from '../math';
import type { SimWorld } from '../world/sim-world';
import { cameraView } from './camera';
import { geoBox } from './geo';
import { distanceToTarget } from './distance';
import { visibleEntityIds } from './visibility';

export interface DetectedObject {
  id: string;
  name: string;
  type: string;
  category: string;
  fixed: boolean;
  /** Centre of its box, world frame. */
  position: Vec3;
  /** Robot to object, as distanceToTarget reports it (noisy when noise is on). */
  distance: number;
}

export interface DetectOptions {
  /** Apply detection dropout and distance noise (default true; no-ops when the noise is 0). */
  noise?: boolean;
  /** Include furniture and appliances (default true). */
  fixed?: boolean;
}

export function detectObjects(sim: SimWorld, opts: DetectOptions = {}): DetectedObject[] {
  const noisy = opts.noise !== false;
  const out: DetectedObject[] = [];
  for (const id of visibleEntityIds(sim, cameraView(sim))) {
    const e = sim.entity(id);
    if (opts.fixed === false && e.fixed) continue;
    if (noisy && sim.rng.chance(sim.noise.detectionDropout)) continue;
    out.push({
      id,
      name: e.spec.name,
      type: e.spec.type,
      category: e.spec.category,
      fixed: e.fixed,
      position: aabbCenter(geoBox(sim, id)),
      distance: distanceToTarget(sim, id, { noise: noisy }),
    });
  }
  return out;
}

/** Ids of the detected objects (RAIDER returns a list of names). */
export function detectedIds(sim: SimWorld, opts: DetectOptions = {}): string[] {
  return detectObjects(sim, opts).map((d) => d.id);
}
