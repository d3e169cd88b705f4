// Named places on a work surface that instructions use ("center-left", "in front
// of the robot", "left of the coke can"): the scene's reference positions, and
// positions relative to an object as the robot sees it.
import { type Vec3, add, fromTuple, normalize, rotate, scale, v3 } from '../math';
import type { SimWorld } from '../world/sim-world';
import { believedGeo } from './believed';

export interface ReferencePoint {
  position: Vec3;
  label: string;
}

const RELATIVE = /^(?:to the |on the )?(left|right) of (?:the )?(.+)$|^(in front of|behind) (?:the )?(.+)$/i;

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/centre/g, 'center')
    .replace(/[\s_]+/g, '-')
    .replace(/^the-/, '');

const SYNONYMS: Record<string, string> = {
  'in-front-of-the-robot': 'front',
  'in-front-of-robot': 'front',
  'front-of-the-robot': 'front',
  'near-the-robot': 'front',
  middle: 'center',
  'the-middle': 'center',
};

/**
 * Resolves a reference name. `resolveObject` maps a (fuzzy) object name to an id
 * or undefined. The gap to an object is its half size plus a hand's width.
 */
export function referencePoint(sim: SimWorld, name: string, resolveObject: (n: string) => string | undefined): ReferencePoint | undefined {
  const key = SYNONYMS[norm(name)] ?? norm(name);
  const named = sim.scene.scene.referencePositions.find((r) => norm(r.id) === key);
  if (named) return { position: fromTuple(named.position), label: named.id };
  const m = RELATIVE.exec(name.trim());
  if (!m) return undefined;
  const side = (m[1] ?? m[3])!.toLowerCase();
  const objName = (m[2] ?? m[4])!;
  const id = resolveObject(objName);
  if (!id) return undefined;
  // Relative to where the robot believes the object is (furniture as it stands).
  const box = sim.entity(id).fixed || !sim.belief.has(id) ? sim.aabb(id) : believedGeo(sim, id).box;
  const c = v3((box.min.x + box.max.x) / 2, box.min.y, (box.min.z + box.max.z) / 2);
  const q = sim.body.basePose.q;
  const leftDir = rotate(q, v3(0, 0, -1));
  const towardRobot = normalize(v3(sim.body.basePose.p.x - c.x, 0, sim.body.basePose.p.z - c.z));
  const dir =
    side === 'left' ? leftDir : side === 'right' ? scale(leftDir, -1) : side === 'in front of' ? towardRobot : scale(towardRobot, -1);
  const half = (Math.abs(dir.x) * (box.max.x - box.min.x)) / 2 + (Math.abs(dir.z) * (box.max.z - box.min.z)) / 2;
  const p = add(c, scale(dir, half + 0.08));
  return { position: p, label: `${side} ${id}` };
}
