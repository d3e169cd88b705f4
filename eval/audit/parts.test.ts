// Found by `skillbridge audit --calls 100000 --seed 1` (kitchen/assistive,
// rtw-hierarchical, episode seed 1915): after put_apple_1_on_stove_burner_3 the
// place said it "did not stay there; it is now on stove_1" and perception recorded
// on(apple_1, stove_1), while the apple rested on the burner, a part of the stove.
// The world now names the part an object rests on (location-parts.test.ts).
import { expect, it } from 'vitest';
import { buildToolSet } from '../../agents/tools/sets';
import { openSim } from '../../robot/sim/open';
import { replay } from './run';
import { type ScriptStep, ScriptRunner } from './script';

const EP = { scene: 'kitchen/assistive', set: 'rtw-hierarchical', seed: 1915 };
const SCRIPT: ScriptStep[] = [
  { tool: 'go_to_cabinet_1', args: {} },
  { event: { type: 'object_moved', object: 'bread_1', to: [-1.15, 0.91, 1.32], by: 'a person' }, during: 1.762 },
  { tool: 'go_to_fridge_1', args: {} },
  { tool: 'open_fridge_1', args: {} },
  { tool: 'go_to_dining_table_1', args: {} },
  { tool: 'go_to_dining_table_1', args: {} },
  { tool: 'go_to_fridge_1', args: {} },
  { event: { type: 'object_moved', object: 'sponge_1', to: [2.41, 1.064, 0.86], by: 'a person' }, during: 0.484 },
  { tool: 'go_to_medicine_counter', args: {} },
  { tool: 'switch_on_toaster_1', args: {} },
  { tool: 'pick_apple_1', args: {} },
  { tool: 'go_to_sink_1', args: {} },
  { tool: 'go_to_sink_1', args: {} },
  { tool: 'switch_on_sink_1', args: {} },
  { tool: 'put_apple_1_on_stove_burner_3', args: {} },
];

it('an apple put on a stove burner is on the burner: in the result, the belief and the checker', async () => {
  expect(await replay(EP, SCRIPT)).toEqual([]);
  const { robot, control } = await openSim(EP.scene, { seed: EP.seed });
  const runner = new ScriptRunner(robot, control, async (n) => (await buildToolSet(EP.set, robot)).get(n));
  try {
    let last = '';
    for (const s of SCRIPT) last = (await runner.step(s)).result?.content ?? last;
    expect(last).toMatch(/^Success: placed apple_1 \(apple\) on stove_burner_3\.?$/);
    expect(control.world.belief.get('apple_1')?.place).toEqual({ kind: 'on', id: 'stove_burner_3' });
  } finally {
    control.dispose();
  }
}, 120_000);
