// Found by `skillbridge audit --urdf FILE --calls 10000 --seed 1` with the three
// imported robots (each case names its robot and episode). One script per class
// of what was wrong, replayed with that robot: its words and the audit's verdict
// on the last call.
// - a pick whose box left the fingers while the world settled after the lift
//   still said "picked up" (and claimed the hand held it): a success's hold is
//   checked again once the world has settled, and its loss said as a slip;
// - a name not resolved, with the note on the people in view the robot has not
//   recognised, was not read (unjudged): the note's handles are judged.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadRobot } from '../../scenes/urdf/load';
import { robotFiles } from '../../test/support/robot-files';
import { replay } from './run';
import type { Unjudged } from './check';
import type { ScriptStep } from './script';
import FIXTURE from './imported-lies.fixture.json';

type Case = { found: string; robot: string; episode: { scene: string; set: string; seed: number }; script: ScriptStep[] };
const CASES = FIXTURE as unknown as Record<'liftedThenSlipped' | 'strangersNote', Case>;
const ROBOTS = join(import.meta.dirname, '../../test/fixtures/robots');

/** The last call's words, the audit's findings on it and what it could not judge. */
async function lastCall(c: Case): Promise<{ said: string; findings: string[]; unjudged: string[] }> {
  let said = '';
  const unjudged: Unjudged[] = [];
  const robot = loadRobot(robotFiles(join(ROBOTS, c.robot)));
  const findings = await replay({ ...c.episode, robot }, c.script, {
    unjudged,
    said: (r) => ((said = r?.content ?? ''), r),
  });
  return { said, findings: findings.map((f) => `${f.class}: ${f.detail}`), unjudged: unjudged.map((u) => u.reason) };
}

describe('the words of the 10,000-call audits of imported robots are true, and judged', () => {
  it('a box lifted and then lost while the world settled is not "picked up": the slip is said, and judged', async () => {
    const { said, findings, unjudged } = await lastCall(CASES.liftedThenSlipped);
    expect(said).not.toMatch(/picked up cardboard_box_1/);
    expect(said).toMatch(/lifted cardboard_box_1, but then it (?:slipped|twisted|was pulled)/);
    expect(unjudged).toEqual([]);
    expect(findings).toEqual([]);
  }, 60_000);

  it('a name not resolved, with the note on people the robot has not recognised, is read and judged', async () => {
    const { said, findings, unjudged } = await lastCall(CASES.strangersNote);
    expect(said).toMatch(/^no thing with the id "poi_9" .*A person the robot has not recognised is called by the handle it gave them/);
    expect(unjudged).toEqual([]);
    expect(findings).toEqual([]);
  }, 120_000);
});
