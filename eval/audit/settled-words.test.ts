// Found by `skillbridge audit --calls 20000 --seed 2` (episodes 23 and 231):
// - a strawberry set down at a point rolled on after the place read its position:
//   the place gave where it was then and how far from the point, not where it came
//   to rest. A skill now says where things are once they have settled (its own
//   object watched until it rests), from what the robot records then;
// - a container left on the hand slid down against a box while the hand still bore
//   part of it: "fell off the robot's hand" was false; the robot feels the load;
// - a peach the robot had held and dropped out of sight was "an object the robot
//   had not perceived": it had, and it is named.
import { describe, expect, it } from 'vitest';
import { openSim } from '../../robot/sim/open';
import { buildToolSet } from '../../agents/tools/sets';
import { toBase } from '../../agents/tools/frames';
import { replay } from './run';
import { ScriptRunner, type ScriptStep } from './script';
import FIXTURE from './seed2-lies.fixture.json';

type Case = { episode: { scene: string; set: string; seed: number }; script: ScriptStep[] };
const CASES = FIXTURE as unknown as Record<'onHand' | 'rolling' | 'lostTrack', Case>;

/** The last call's words and the audit's findings on it. */
async function lastCall(c: Case): Promise<{ said: string; findings: string[] }> {
  let said = '';
  const findings = await replay(c.episode, c.script, { said: (r) => ((said = r?.content ?? ''), r) });
  return { said, findings: findings.map((f) => `${f.class}: ${f.detail}`) };
}

describe('what a skill says of where things are is read after they settled', () => {
  it('a rolling strawberry placed at a point: the position and distance said are where it came to rest', async () => {
    const c = CASES.rolling;
    const { robot, control } = await openSim(c.episode.scene, { seed: c.episode.seed });
    const reg = await buildToolSet(c.episode.set, robot);
    const runner = new ScriptRunner(robot, control, async (n) => reg.get(n));
    try {
      let said = '';
      for (const s of c.script) said = (await runner.step(s)).result?.content ?? said;
      runner.rest();
      const m = /placed strawberry_1 \(strawberry\) on table_1 at \(x (\S+), y (\S+), z (\S+)\), (\d+) cm from the requested point/.exec(
        said,
      );
      expect(m, said).not.toBeNull();
      const rest = toBase(
        (({ x, y, z }) => [x, y, z] as [number, number, number])(control.world.pose('strawberry_1').p),
        await robot.perception.basePose(),
      );
      expect(Math.hypot(Number(m![1]) - rest.x, Number(m![2]) - rest.y)).toBeLessThan(0.01);
    } finally {
      control.dispose();
    }
  }, 120_000);

  it('the audit finds no lie in that place', async () => {
    expect((await lastCall(CASES.rolling)).findings).toEqual([]);
  }, 120_000);

  it('a container that slid off the hand against a box, still leaning on the hand, did not "fall off"', async () => {
    const { said, findings } = await lastCall(CASES.onHand);
    expect(said).toContain("container_1 slid partly off the robot's hand; the robot still bears some of its weight");
    expect(said).not.toContain('fell off');
    expect(findings).toEqual([]);
  }, 120_000);

  it('an object the robot held and lost sight of is named, not "an object the robot had not perceived"', async () => {
    const { said, findings } = await lastCall(CASES.lostTrack);
    expect(said).toContain('peach_1 was knocked off sponge_1');
    expect(said).not.toContain('had not perceived');
    expect(findings).toEqual([]);
  }, 120_000);
});
