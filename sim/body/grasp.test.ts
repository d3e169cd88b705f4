// Messages agree with the physics: a slip message never says the gripper holds more than the
// object weighs, nor a needed force below the limit it exceeded.
import { describe, expect, it } from 'vitest';
import { slipReason } from './grasp';

const numbers = (s: string): number[] => [...s.matchAll(/(\d+\.\d+) (?:N|Nm)\b/g)].map((m) => Number(m[1]));

describe('slip reasons', () => {
  it('quote the force or torque needed above the limit, the weight only for scale', () => {
    const f = slipReason({ object: 'a', kind: 'force', needed: 9.6, limit: 2.8, massKg: 0.04 });
    expect(f).toMatch(/took about 9\.6 N .* but the fingers hold 2\.8 N/);
    const [needed, , limit] = numbers(f);
    expect(needed!).toBeGreaterThan(limit!);
    const t = slipReason({ object: 'd', kind: 'torque', needed: 3.16, limit: 0.6, massKg: 1.8 });
    expect(t).toMatch(/needed about 3\.16 Nm but the grip holds 0\.60 Nm/);
  });

  it('a slip whose peak stayed under the limit was a pull, and says so without contradicting numbers', () => {
    const f = slipReason({ object: 'a', kind: 'force', needed: 0.3, limit: 2.8, massKg: 0.04 });
    expect(f).toBe('it was pulled out of the fingers: something held it back as the arm moved');
    expect(slipReason({ object: 'a', kind: 'torque', needed: 0.1, limit: 0.6, massKg: 0.2 })).not.toMatch(/\d/);
  });
});
