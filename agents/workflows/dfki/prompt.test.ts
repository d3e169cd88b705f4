// The planner-and-executor prompt is assembled from §4's ingredients for the robot
// at hand: the same code gives a rover its docking rules and a mobile manipulator
// its arm-and-perception rules, with the places, thresholds and actions of each.
import { describe, expect, it } from 'vitest';
import { openSim } from '../../../robot/sim/open';
import { type IngredientId, plannerPromptSections, readPromptFacts, renderPrompt } from './prompt';

const ORDER: IngredientId[] = [
  'role',
  'domain_model',
  'state_example',
  'operational_instructions',
  'affordances',
  'heuristics',
  'action_catalogue',
  'exemplars',
  'failure_memory',
  'output_format',
];

async function sectionsFor(scene: string) {
  const { robot, control } = await openSim(scene);
  const facts = await readPromptFacts(robot);
  const sections = plannerPromptSections(robot, facts);
  control.dispose();
  return { sections, text: (id: IngredientId) => sections.find((s) => s.id === id)!.text, facts };
}

describe('dfki planner prompt (paper 003 §4)', () => {
  it('has the eight ingredients in order, framed by a role and an output format', async () => {
    const { sections } = await sectionsFor('farm');
    expect(sections.map((s) => s.id)).toEqual(ORDER);
    expect(renderPrompt(sections)).toMatch(/^You are the planner and executor of Valdemar[\s\S]*## Domain model[\s\S]*## Output format\n/);
  });

  it('for the rover: its places, battery thresholds, docking invariants and actions; no arm', async () => {
    const { text } = await sectionsFor('farm');
    expect(text('domain_model')).toMatch(/poi_3 \(poi: point of interest 3: maize bed; serves bed_3\)/);
    expect(text('domain_model')).toMatch(/It has no arm/);
    expect(text('state_example')).toMatch(/docked\(robot\)/);
    expect(text('operational_instructions')).toMatch(/Never drive while docked or inside the shelter: undock first/);
    expect(text('operational_instructions')).toMatch(/Dock only from shelter_entry; charging_dock is reached only by docking/);
    expect(text('operational_instructions')).toMatch(/When the battery turns low \(30% or less\), interrupt the mission/);
    expect(text('action_catalogue')).toMatch(/act\("scan", \[poi\]\)/);
    expect(text('action_catalogue')).not.toMatch(/"pick"/);
    expect(text('exemplars')).toMatch(/act\("undock", \[\]\)[\s\S]*act\("navigate", \["poi_1"\]\)[\s\S]*act\("scan", \["poi_1"\]\)/);
  });

  it('for the mobile manipulator: arm limits, tuck-before-driving, perceive-before-placing, observe posture', async () => {
    const { text } = await sectionsFor('tabletop/workshop');
    expect(text('domain_model')).toMatch(/payload 2 kg, gripper opening 0\.14 m, postures home, transport, observe/);
    expect(text('domain_model')).toMatch(/knows only what it has perceived/);
    expect(text('operational_instructions')).toMatch(/Move the arm to home or transport before every navigate/);
    expect(text('operational_instructions')).toMatch(/Never place an object on a surface you have not perceived/);
    expect(text('operational_instructions')).not.toMatch(/undock/);
    expect(text('affordances')).toMatch(/heavier than 2 kg cannot be lifted/);
    expect(text('exemplars')).toMatch(/act\("move_arm", \["transport"\]\)[\s\S]*act\("perceive", \[\]\)/);
  });

  it('for a fixed arm: the objects it sees with their affordances, and no driving', async () => {
    const { text } = await sectionsFor('tabletop/fruits');
    expect(text('affordances')).toMatch(/bowl_1 \(bowl, container\): pickable, receptacle, holds up to 4, 0\.3 kg/);
    expect(text('action_catalogue')).not.toMatch(/"navigate"/);
    expect(text('exemplars')).toMatch(/act\("pick", \["(bowl|cup|lemon)_1"\]\)/);
  });
});
