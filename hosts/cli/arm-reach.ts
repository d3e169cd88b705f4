// The reach `robots check` reports: how far the end effector gets from the first
// arm joint, by forward kinematics over joint values within the limits (random
// samples, then the best one climbed joint by joint), rather than the sum of the
// offsets, which bounds it from above and overstates any arm whose segments
// cannot line up. A chain that cannot be cut gives no reach, with the reason.
import { seededRandom } from '../../base/seeded-random';
import type { RobotDescription } from '../../scenes/urdf/model';
import { chainTo } from '../../scenes/urdf/structure';
import { buildChain, describeChainProblem, tipPose, type Chain } from '../../sim/body/chain';

export type FkReach = { ok: true; reachM: number; boundM: number; from: string; samples: number } | { ok: false; why: string };

const SAMPLES = 4096;
const ARM = new Set(['revolute', 'continuous', 'prismatic']);

/** The reach of the chain to `endEffector` from its first arm joint (a planar or floating base is not the arm). */
export function fkReach(d: RobotDescription, endEffector: string, samples = SAMPLES, seed = 1): FkReach {
  const path = chainTo(d, endEffector);
  if (!path) return { ok: false, why: `link "${endEffector}" is not in the robot description` };
  const byName = new Map(d.joints.map((j) => [j.name, j]));
  const first = path.joints.map((n) => byName.get(n)!).find((j) => ARM.has(j.kind));
  if (!first) return { ok: false, why: `no arm joint moves on the way to "${endEffector}"` };
  const built = buildChain(d, first.parent, endEffector);
  if (!built.ok) return { ok: false, why: describeChainProblem(built.problem) };
  const chain = built.chain;
  const rand = seededRandom(seed);
  const ranges = chain.variables.map((v) =>
    Number.isFinite(v.lower) && Number.isFinite(v.upper) ? [v.lower, v.upper] : [-Math.PI, Math.PI],
  ) as Array<[number, number]>;
  let best = ranges.map(([lo, hi]) => (lo + hi) / 2);
  let bestD = distance(chain, best);
  for (let i = 0; i < samples; i++) {
    const q = ranges.map(([lo, hi]) => lo + (hi - lo) * rand());
    const dist = distance(chain, q);
    if (dist > bestD) [best, bestD] = [q, dist];
  }
  // Climb from the best sample: each joint a step either way, the step halved when neither helps.
  for (let step = 0.25; step > 1e-7; step /= 2)
    for (let improved = true; improved;) {
      improved = false;
      for (let k = 0; k < best.length; k++)
        for (const dir of [1, -1]) {
          const [lo, hi] = ranges[k]!;
          const q = best.slice();
          q[k] = Math.min(hi, Math.max(lo, q[k]! + dir * step * (hi - lo)));
          const dist = distance(chain, q);
          if (dist > bestD + 1e-12) [best, bestD, improved] = [q, dist, true];
        }
    }
  return { ok: true, reachM: bestD, boundM: chain.reach, from: first.name, samples };
}

function distance(chain: Chain, q: number[]): number {
  const t = tipPose(chain, q);
  const [x, y, z] = chain.shoulder;
  return Math.hypot(t[3]! - x, t[7]! - y, t[11]! - z);
}
