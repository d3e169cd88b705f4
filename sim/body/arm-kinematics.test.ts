import { describe, expect, it } from 'vitest';
import { builtinRobots } from '../../scenes/registry';
import { dist, rotate, v3 } from '../math';
import { armGeometry, armReach, forwardKinematics, inverseKinematics } from './arm-kinematics';

const g = armGeometry(builtinRobots().get('tabletop_arm')!.arm!);

describe('arm kinematics', () => {
  it('inverse kinematics lands the tool centre point on the target (round trip through FK)', () => {
    for (const target of [v3(0.3, 0.1, 0), v3(0.25, -0.05, -0.2), v3(0.2, 0.2, 0.25), v3(-0.2, 0.0, 0.2)]) {
      const r = inverseKinematics(g, { position: target, pitch: Math.PI });
      expect(r.ok, `target ${JSON.stringify(target)}`).toBe(true);
      if (!r.ok) continue;
      const fk = forwardKinematics(g, r.joints);
      expect(dist(fk.tcp, target)).toBeLessThan(1e-6);
      // Pitch π: the hand (tool +Y) points straight down.
      const hand = rotate(fk.toolQ, v3(0, 1, 0));
      expect(hand.y).toBeCloseTo(-1, 6);
    }
  });

  it('aligns the finger closing axis with a requested horizontal direction', () => {
    const closing = v3(Math.cos(0.6), 0, Math.sin(0.6));
    const r = inverseKinematics(g, { position: v3(0.3, 0, 0.1), pitch: Math.PI, closing });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const c = rotate(forwardKinematics(g, r.joints).toolQ, v3(0, 0, 1));
    expect(Math.abs(c.x * closing.x + c.z * closing.z)).toBeCloseTo(1, 6);
  });

  it('reports out of reach with the distance and the reach', () => {
    const r = inverseKinematics(g, { position: v3(0.9, 0, 0), pitch: Math.PI / 2 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.failure.kind).toBe('out_of_reach');
    if (r.failure.kind === 'out_of_reach') {
      expect(r.failure.reach).toBeCloseTo(armReach(g), 6);
      expect(r.failure.distance).toBeGreaterThan(0.85);
    }
  });

  it('keeps the wrist roll near the seed when the closing direction allows a half turn either way', () => {
    // Closing along the arm's sideways axis: roll -π/2 and +π/2 grip the same; a
    // tiny change of the target must not flip between them, or the held object is flung.
    const closing = v3(0, 0, 1);
    const seed = inverseKinematics(g, { position: v3(0.3, 0, 0.001), pitch: Math.PI, closing });
    expect(seed.ok).toBe(true);
    if (!seed.ok) return;
    for (const z of [-0.002, 0, 0.002]) {
      const r = inverseKinematics(g, { position: v3(0.3, 0.05, z), pitch: Math.PI, closing }, seed.joints);
      expect(r.ok).toBe(true);
      if (r.ok) expect(Math.abs(r.joints[4] - seed.joints[4])).toBeLessThan(0.1);
    }
  });
});
