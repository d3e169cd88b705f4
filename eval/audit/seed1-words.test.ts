// Found by `skillbridge audit --calls 100000 --seed 1` (each case names its episode).
// One script per class of what was wrong, replayed: the robot's words and the audit's
// verdict on its last call.
// - a wave said, move by move, where things were mid-gesture and how far each move
//   pushed them: a gesture is one motion now, told once as it left things;
// - a mug set down in a basket read as in the basket and the basket in the mug (the
//   world's reader and the audit's both): an RTW task said the mug held what the basket did;
// - a board leaning on a knife, its contact read 18 mm apart while the solver pushed
//   through it, was "on the robot's base" and then "fell off the robot's base";
// - a tipped chair's believed box was its whole box turned, 14 cm larger: "near" a toaster;
// - "last seen at 0.6 s (now 0.5 s)": a record of 0.55 s rounded twice;
// - "toy_block_1 is on robot" is the belief's word for resting on the robot's body: the audit's
//   model of the belief left it without a parent;
// - a mug in a basket that still leans on the hand "slid partly off" it: true, and judged so;
// - the audit waited twice for an egg rocking on the floor, so the call began seconds after
//   the readings it was judged against;
// - "free (the straight way is blocked; it goes round via 1 named place)" was not judged;
// and, found by `audit --calls 20000 --seed 3`, neither were a slip with no grip reading
// ("it slipped from the fingers") nor a reach failure at a point the caller gave.
import { describe, expect, it } from 'vitest';
import { openSim } from '../../robot/sim/open';
import { locationOf } from '../../sim/world/location';
import { replay } from './run';
import type { Unjudged } from './check';
import type { ScriptStep } from './script';
import { readWorld } from './truth';
import FIXTURE from './seed1-lies.fixture.json';

type Case = { found: string; episode: { scene: string; set: string; seed: number }; script: ScriptStep[] };
const CASES = FIXTURE as unknown as Record<
  | 'containersBothWays'
  | 'waveMidGesture'
  | 'onRobotInModel'
  | 'recordTime'
  | 'tippedNear'
  | 'leaningBoard'
  | 'leaningInBasket'
  | 'restTwice'
  | 'roundAbout'
  | 'bareSlip'
  | 'pointSpot',
  Case
>;

/** The last call's words, the audit's findings on it and what it could not judge. */
async function lastCall(c: Case): Promise<{ said: string; findings: string[]; unjudged: string[] }> {
  let said = '';
  const unjudged: Unjudged[] = [];
  const findings = await replay(c.episode, c.script, { unjudged, said: (r) => ((said = r?.content ?? ''), r) });
  return { said, findings: findings.map((f) => `${f.class}: ${f.detail}`), unjudged: unjudged.map((u) => u.reason) };
}

describe('the words of the 100,000-call audit on seed 1 are true, and judged', () => {
  it('a wave is one gesture: what it moved is told once, as the gesture left it', async () => {
    const { said, findings } = await lastCall(CASES.waveMidGesture);
    expect(said).toMatch(/^Success: waved 3 times\./);
    // One sentence per object at most: never "now resting on the hand" and then "now on table_1".
    for (const id of ['bowl_1', 'strawberry_1']) expect(said.split(`${id} `).length).toBeLessThanOrEqual(2);
    expect(findings).toEqual([]);
  }, 60_000);

  it('a mug set down in a basket is in the basket, and the basket is not in the mug', async () => {
    const { control } = await openSim('tabletop/utensils');
    try {
      const w = control.world;
      const b = w.pose('basket_1').p;
      control.inject({ type: 'object_moved', object: 'mug_1', to: [b.x, b.y + 0.16, b.z], by: 'a person' });
      await w.idle(1);
      expect(locationOf(w, 'mug_1')).toEqual({ kind: 'in', id: 'basket_1' });
      expect(locationOf(w, 'basket_1')).not.toEqual({ kind: 'in', id: 'mug_1' });
      expect(readWorld(w).places.get('basket_1')).not.toEqual({ kind: 'in', id: 'mug_1' });
    } finally {
      control.dispose();
    }
  });

  it('an RTW task into that mug does not say it holds what the basket holds', async () => {
    const { said, findings } = await lastCall(CASES.containersBothWays);
    expect(said).not.toMatch(/mug_1 \(mug\) is full: it holds \d+ of 1 \(basket_1/);
    expect(findings).toEqual([]);
  }, 60_000);

  it('a board leaning on a knife is on the knife, not on the robot: it did not "fall off the robot\'s base"', async () => {
    const { said, findings } = await lastCall(CASES.leaningBoard);
    expect(said).not.toContain("fell off the robot's base");
    expect(said).toContain('was knocked off knife_1');
    expect(findings).toEqual([]);
  }, 60_000);

  it('a chair lying tipped 16 cm from the toaster is not near it', async () => {
    const { said, findings } = await lastCall(CASES.tippedNear);
    expect(said).toMatch(/^Objects near toaster_1/);
    expect(said).not.toContain('chair_2');
    expect(findings).toEqual([]);
  }, 60_000);

  it('a record is said at the time it keeps, and never later than now', async () => {
    const { said, findings } = await lastCall(CASES.recordTime);
    const m = /last seen at (\S+) s .*\(now (\S+) s/.exec(said);
    expect(m, said).not.toBeNull();
    expect(Number(m![1])).toBeLessThanOrEqual(Number(m![2]));
    expect(findings).toEqual([]);
  }, 60_000);

  it('what rests on the robot\'s body is "on robot" in the belief\'s tree, and the audit reads it so', async () => {
    const { said, findings } = await lastCall(CASES.onRobotInModel);
    expect(said).toContain('- toy_block_1 is on robot');
    expect(findings).toEqual([]);
  }, 60_000);

  it('a mug that slid off the hand into a basket and still leans on the hand "slid partly off" it', async () => {
    const { said, findings } = await lastCall(CASES.leaningInBasket);
    expect(said).toContain("mug_1 slid partly off the robot's hand; the robot still bears some of its weight; it is now in basket_1");
    expect(findings).toEqual([]);
  }, 60_000);

  it('a call starts where the audit read the world, even with an egg that never comes to rest', async () => {
    const { said, findings } = await lastCall(CASES.restTwice);
    expect(said).toMatch(/^Success: arrived at fridge_1\./);
    expect(findings).toEqual([]);
  }, 60_000);

  it('"free, round the way via N named places" is judged: true here, and a lie where the straight way is free', async () => {
    const { said, findings, unjudged } = await lastCall(CASES.roundAbout);
    expect(said).toMatch(/^The path to \w+ is free \(the straight way is blocked; it goes round via \d named places?\)\.$/);
    expect(unjudged).toEqual([]);
    expect(findings).toEqual([]);
    // Planted: the same words where the straight way is free.
    const planted = await replay(
      { scene: 'kitchen', set: 'raider-assistive', seed: 1 },
      [{ tool: 'check_free_path', args: { target: 'kitchen_centre' } }],
      {
        said: (r) =>
          r && {
            ...r,
            content: 'The path to kitchen_centre is free (the straight way is blocked; it goes round via 1 named place).',
          },
      },
    );
    expect(planted.map((f) => f.detail)).toContainEqual(expect.stringContaining('but it is free'));
  }, 60_000);

  it('a slip with no grip reading is judged: the fingers no longer hold it', async () => {
    const { said, findings, unjudged } = await lastCall(CASES.bareSlip);
    expect(said).toMatch(/^Failed \(slipped\): could not lift \w+ \([^)]+\): it slipped from the fingers; it is /);
    expect(unjudged).toEqual([]);
    expect(findings).toEqual([]);
  }, 60_000);

  it('a place at a point out of reach is judged: the spot is named by the point given', async () => {
    const { said, findings, unjudged } = await lastCall(CASES.pointSpot);
    expect(said).toMatch(/the nearest free spot on \{"x":\S+,"y":\S+,"z":\S+\} is \S+ m from the arm's shoulder; the arm reaches \S+ m\.$/);
    expect(unjudged).toEqual([]);
    expect(findings).toEqual([]);
  }, 60_000);
});
