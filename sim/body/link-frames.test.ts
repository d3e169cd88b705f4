// The step's allocation-free link poses must be bit for bit the poses linkPoses
// computes (a step that moved the links elsewhere would change every outcome),
// for every robot with an arm, across joints, base poses and openings.
import { describe, expect, it } from 'vitest';
import { builtinRobots } from '../../scenes/registry';
import { type Pose, qYaw } from '../math';
import { loadRapier } from '../rapier';
import { Rng } from '../rng';
import type { Joints } from './arm-kinematics';
import { FINGER_THICKNESS, BodyLinks } from './links';
import { FRAME, type FrameName, frameScratch, linkFrames } from './link-frames';

describe('link frames', () => {
  it('match linkPoses exactly for every arm, many joints, base poses and openings', async () => {
    const R = await loadRapier();
    const world = new R.World({ x: 0, y: -9.81, z: 0 });
    try {
      const rng = new Rng(11);
      const arms = [...builtinRobots().values()].filter((r) => r.arm);
      expect(arms.length).toBeGreaterThan(0);
      const out = frameScratch();
      let compared = 0;
      for (const config of arms) {
        const start: Pose = { p: { x: 0.3, y: 0, z: -0.2 }, q: qYaw(0.4) };
        const links = new BodyLinks(R, world, config, start);
        for (let n = 0; n < 1000; n++) {
          const u = () => rng.next() * 2 - 1;
          const q: Joints = [u() * 3.2, u() * 2, u() * 2.5, u() * 2, u() * 3.2];
          // Some exact zeros and half turns, where signs of zero could differ.
          if (n % 10 === 0) q[n % 5] = n % 20 ? 0 : Math.PI;
          const base: Pose = { p: { x: u() * 4, y: n % 3 ? 0 : u(), z: u() * 4 }, q: qYaw(u() * Math.PI) };
          const opening = Math.abs(u()) * 0.1;
          const want = links.linkPoses(base, q, opening).links;
          linkFrames(out, links.geometry!, config.arm!, FINGER_THICKNESS, base, links.mount, q, opening);
          for (const name of Object.keys(FRAME) as FrameName[]) {
            const i = FRAME[name];
            const w = want[name];
            const got = [...out.subarray(i, i + 7)];
            expect(got.map((x, k) => Object.is(x, [w.p.x, w.p.y, w.p.z, w.q.x, w.q.y, w.q.z, w.q.w][k]))).toEqual(Array(7).fill(true));
            compared++;
          }
          // The tool centre point the grasp reads every step: after a move to these
          // joints, and worked out afresh (another base pose object, same numbers).
          const tcp = want.tcp;
          const asNumbers = (t: Pose): number[] => [t.p.x, t.p.y, t.p.z, t.q.x, t.q.y, t.q.z, t.q.w];
          if (n % 2) links.apply(base, q, opening);
          const asked = n % 3 ? base : { p: { ...base.p }, q: { ...base.q } };
          const got = asNumbers(links.tcpPose(asked, q));
          expect(got.map((x, k) => Object.is(x, asNumbers(tcp)[k]))).toEqual(Array(7).fill(true));
          // A step that moves only the fingers (the same base pose and joints objects)
          // leaves the arm's frames as they were and sets the fingers for the new opening.
          if (n % 2) {
            const wider = opening + 0.01;
            links.apply(base, q, wider);
            const kept = (links as unknown as { frames: Float64Array }).frames;
            const all = links.linkPoses(base, q, wider).links;
            for (const name of Object.keys(FRAME) as FrameName[]) {
              const i = FRAME[name];
              expect([...kept.subarray(i, i + 7)].map((x, k) => Object.is(x, asNumbers(all[name])[k]))).toEqual(Array(7).fill(true));
            }
          }
          // Other joints at the same base pose object: not the pose kept from before.
          const moved: Joints = [q[0], q[1] + 0.1, q[2], q[3], q[4]];
          expect(asNumbers(links.tcpPose(asked, moved))).toEqual(asNumbers(links.linkPoses(asked, moved, opening).links.tcp));
        }
      }
      expect(compared).toBe(arms.length * 1000 * 7);
    } finally {
      world.free();
    }
  });
});
