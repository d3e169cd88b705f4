// At the robot's stated critical battery level the chain refuses motion except
// the way to the charger: a rover at critical is not sent to a bed, but may
// still drive to its shelter's entry and dock.
import { describe, expect, it } from 'vitest';
import { openSim } from '../../../robot/sim/open';
import { SafetyChain } from './chain';

describe('the battery floor', () => {
  it('refuses a mission at the critical level, allows the way to the charger', async () => {
    const { robot, control } = await openSim('farm');
    try {
      const guarded = new SafetyChain(robot, { limits: { maxMotions: 1000 } }).guard({ via: 'direct', approval: 'auto' });
      expect((await guarded.rover!.undock()).ok).toBe(true);
      const critical = robot.info.batteryThresholds.critical;
      control.inject({ type: 'set_battery', percent: critical - 1 });
      const mission = await guarded.base!.navigate('poi_1');
      expect(mission.ok).toBe(false);
      expect(mission.summary).toMatch(/battery is critical/);
      const home = await guarded.base!.navigate('shelter_entry');
      expect(home.summary).not.toMatch(/battery/);
      expect(home.ok).toBe(true);
    } finally {
      control.dispose();
    }
  }, 120_000);
});
