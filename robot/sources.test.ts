import { describe, expect, it } from 'vitest';
import { RobotSourceError } from './source';
import { openRobot } from './sources';

describe('robot sources', () => {
  it('opens a simulated robot and its SimControl from a validated form', async () => {
    const opened = await openRobot({ kind: 'sim', scene: 'tabletop/fruits', seed: 4 });
    expect(opened.robot.info.scene.id).toBe('tabletop/fruits');
    expect(await opened.robot.perception.holding()).toBeUndefined();
    // The host's handle moves the world; the robot's clock reads the same time.
    opened.sim.inject({ type: 'estop_pressed' });
    const pick = await opened.robot.arm!.pick('lemon_1');
    expect(pick).toMatchObject({ ok: false, code: 'estop' });
    expect(await opened.robot.time()).toBe(opened.sim.time());
    await opened.close();
  });

  it('names the field and the fix when the form is wrong', async () => {
    await expect(openRobot({ kind: 'sim', scene: '' })).rejects.toThrow(RobotSourceError);
    await expect(openRobot({ kind: 'sim', scene: 'tabletop/fruits', seed: -1 })).rejects.toThrow(/robot seed:/);
    await expect(openRobot({ kind: 'sim', scene: 'no/such-scene' })).rejects.toThrow(/no\/such-scene/);
    // @ts-expect-error an unknown kind is a runtime error too
    await expect(openRobot({ kind: 'teleport' })).rejects.toThrow(/sources: sim/);
  });

  it('SimControl refuses events the world cannot apply, naming the reason', async () => {
    const { sim, close } = await openRobot({ kind: 'sim', scene: 'tabletop/fruits' });
    expect(() => sim.inject({ type: 'object_moved', object: 'unicorn_1', to: [0, 1, 0] })).toThrow(/no such object/);
    expect(() => sim.inject({ type: 'object_moved', object: 'lemon_1', to: [0, Number.NaN, 0] })).toThrow(/finite/);
    expect(() => sim.inject({ type: 'object_moved', object: 'lemon_1', to: [1e300, 1, 0] })).toThrow(/outside the world/);
    expect(() => sim.inject({ type: 'set_battery', percent: Number.POSITIVE_INFINITY })).toThrow(/0 to 100/);
    const before = sim.hash();
    sim.inject({ type: 'object_moved', object: 'lemon_1', to: [0.1, 1, 0.1] });
    expect(sim.hash()).not.toBe(before);
    await close();
  });
});
