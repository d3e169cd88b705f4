// call --urdf with the mobile manipulator's description: a script of calls
// drives to table 1, picks the screwdriver, tucks, drives to table 2 and
// places it there; the facts are the world's.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { main } from './main';

const MOBILE = join(import.meta.dirname, '../../test/fixtures/robots/mobile_manipulator/urdf/mobile_manipulator.urdf.xacro');

it('call --urdf: the mobile manipulator does a pick-and-place between two tables of the workshop', async () => {
  const script = join(mkdtempSync(join(tmpdir(), 'urdf-mobile-')), 'steps.json');
  const act = (action: string, ...params: string[]) => ({ tool: 'act', args: { action, params } });
  writeFileSync(
    script,
    JSON.stringify([
      act('navigate', 'table_1'),
      act('perceive'),
      act('pick', 'screwdriver_1'),
      act('move_arm', 'transport'),
      act('navigate', 'table_2'),
      act('perceive'),
      act('place', 'table_2'),
    ]),
  );
  let out = '';
  let err = '';
  const code = await main(['call', '--urdf', MOBILE, '--scene', 'tabletop/workshop', '--script', script, '--json'], {
    out: (t) => (out += `${t}\n`),
    err: (t) => (err += `${t}\n`),
  });
  expect(err).toBe('');
  expect(code).toBe(0);
  const j = JSON.parse(out) as { results: Array<{ ok: boolean; result?: string }>; facts: string[] };
  expect(j.results.map((r) => r.ok)).toEqual([true, true, true, true, true, true, true]);
  expect(j.results[6]!.result).toBe('Success: placed screwdriver_1 (screwdriver) on table_2.');
  for (const f of [
    'on(screwdriver_1, table_2)',
    'hand_empty(robot)',
    'robot_at(robot, table_2)',
    'on(multimeter_1, table_1)',
    'on(power_drill_1, table_1)',
  ])
    expect(j.facts).toContain(f);
});
