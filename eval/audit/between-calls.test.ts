// A call that ends with something still in flight (a box a skill left falling)
// is followed by the world running on until it rests, so the next call starts,
// and the audit judges this one, on a settled world: nothing is left unjudged
// as "still moving".
import { expect, it } from 'vitest';
import { buildToolSet } from '../../agents/tools/sets';
import { openSim } from '../../robot/sim/open';
import { v3 } from '../../sim/math';
import { replay, runAudit } from './run';
import { ScriptRunner, type ScriptStep } from './script';
import { readWorld } from './truth';

it('after a call the world comes to rest before anything is judged', async () => {
  const { robot, control } = await openSim('tabletop/boxes', { seed: 1 });
  try {
    const w = control.world;
    const reg = await buildToolSet('alrm', robot);
    const runner = new ScriptRunner(robot, control, async (n) => reg.get(n));
    const body = w.world.getRigidBody(w.entity('wooden_box_1').body);
    const p = body.translation();
    body.setTranslation(v3(p.x, p.y + 0.3, p.z), true);
    w.step();
    expect(readWorld(w).places.get('wooden_box_1')).toMatchObject({ kind: 'unsure', why: 'touches nothing below (still moving)' });
    await runner.step({ tool: 'get_reference_names', args: {} });
    const r = readWorld(w).places.get('wooden_box_1');
    expect(r?.kind === 'on' ? [...r.ids] : r).toEqual(['table_1']);
    expect(w.objectsSettled()).toBe(true);
  } finally {
    control.dispose();
  }
});

// Found by `skillbridge audit --calls 10000 --seed 3` (episode 47): a knife a person set
// on a plant was still sliding when the next call began; the world coming to rest after
// that call moved it onto the counter, and the call (speak) was blamed for not saying so.
// What an earlier event left moving now comes to rest before a call starts.
const KNIFE: ScriptStep[] = [
  { event: { type: 'person_said', text: 'thanks' }, during: 1.659 },
  { tool: 'get_today_date', args: {} },
  { tool: 'get_today_date', args: {} },
  { tool: 'speak', args: { text: 'hello' } },
  { tool: 'get_today_date', args: {} },
  { event: { type: 'object_moved', object: 'soap_bottle_1', to: [2.451, 1.05, 1.868], by: 'a person' } },
  { tool: 'get_available_locations', args: {} },
  { tool: 'get_today_date', args: {} },
  { event: { type: 'object_moved', object: 'knife_1', to: [2.42, 1.33, 2.4], by: 'a person' } },
  { tool: 'get_available_locations', args: {} },
  { tool: 'get_available_locations', args: {} },
  { tool: 'get_today_date', args: {} },
  { tool: 'get_semantic_environment_representation_snapshot', args: {} },
  { tool: 'speak', args: { text: 'where is the apple?' } },
  { tool: 'get_today_date', args: {} },
  { tool: 'get_available_locations', args: {} },
  { event: { type: 'object_moved', object: 'book_2', to: [2.219, 1.05, 2.125], by: 'a person' } },
  { tool: 'get_today_date', args: {} },
  { tool: 'get_semantic_environment_representation_snapshot', args: {} },
  { tool: 'speak', args: { text: 'thanks' } },
  { tool: 'speak', args: { text: 'where is the apple?' } },
  { tool: 'get_available_locations', args: {} },
  { tool: 'get_today_date', args: {} },
  { tool: 'get_today_date', args: {} },
  { tool: 'get_available_locations', args: {} },
  { tool: 'get_available_locations', args: {} },
  { event: { type: 'object_moved', object: 'chair_1', to: [2.079, 1.05, -1.073], by: 'a person' } },
  { tool: 'speak', args: { text: 'hello' } },
];

it('what a person left sliding comes to rest before the next call, not during it', async () => {
  expect(await replay({ scene: 'kitchen/assistive', set: 'chatbot', seed: 3047 }, KNIFE)).toEqual([]);
}, 120_000);

// Found by `skillbridge audit --seed 2` (episode 21) and `--seed 5` (episodes 14, 21) once
// the world came to rest after each call: fruit still rolling on the table as a call ended
// rolled off in that rest, and the call was blamed (a record "on table_1" made while it
// rolled on the table, a move no skill made). A call is judged by where things were as it
// returned, and only what was in flight then by where it came to rest.
it('fruit rolling on the table as a call ends is judged where it was, not where it rolled to after', async () => {
  for (const [seed, episodes] of [
    [2, [21]],
    [5, [14, 21]],
  ] as const) {
    const r = await runAudit({ calls: 1, seed, episodes, shrinkBudget: 0 });
    expect({ seed, lies: r.lies, unjudged: r.unjudged, first: r.violations[0]?.detail }).toEqual({
      seed,
      lies: 0,
      unjudged: {},
      first: undefined,
    });
  }
}, 300_000);
