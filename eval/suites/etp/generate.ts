// EmbodiedToolBench cases from the scenes (paper 004 §3.2, App. E): the robot
// stands at places of the kitchen and at the tabletops; what it sees there
// decides the questions, the candidate tools, the designated tool's real output
// (hence the next action) and the chains, which are played in the physics and
// kept only when they reach their goal.
import type { WorldSpec } from '../../core/case';
import type { GenerateContext } from '../../core/suite';
import { hash32 } from '../../reference/rng';
import { CATEGORY_WORDS, type WorldInfo, readWorld } from '../raider/world-info';
import { chainCases } from './chains';
import { ACTION_TOOLS, ALRM, type Case, HOUSEHOLD, PLACES, distractors, kitchen, mk, shuffled, step } from './make';

export async function generateEtp(ctx: GenerateContext): Promise<Case[]> {
  const out: Case[] = [];
  const infos = new Map<string, WorldInfo>();
  for (const at of PLACES) {
    infos.set(at, await ctx.inWorld(kitchen(at), ({ robot, control }) => readWorld('kitchen', at, robot, control)));
  }
  // ---- 1. tool-need recognition: questions about this scene (a tool is needed) and general knowledge (none is)
  for (const [at, w] of infos) {
    const vis = [...w.visible.values()].filter((o) => !o.fixed || o.props['openable']);
    const o = vis.sort((a, b) => hash32(a.id) - hash32(b.id))[0];
    const openable = [...w.visible.values()].find((x) => x.props['openable']);
    if (o) {
      out.push(
        mk(
          `need/${at}/distance`,
          kitchen(at),
          `How far is the ${o.name} from you?`,
          { task: 'need', difficulty: 'easy', capability: 'perception' },
          {
            task: 'need',
            tools: HOUSEHOLD,
            needTrue: true,
            plan: [step('dist_to_target', { target: o.id })],
            final: `I measured the distance to the ${o.name}.`,
          },
        ),
      );
      const cat = CATEGORY_WORDS[o.category] ?? o.category;
      out.push(
        mk(
          `need/${at}/category`,
          kitchen(at),
          `In general, is a ${o.typeName} a kind of ${cat}? Answer yes or no.`,
          { task: 'need', difficulty: 'medium', capability: 'cognition' },
          {
            task: 'need',
            tools: HOUSEHOLD,
            needTrue: false,
            final: 'Yes.',
          },
        ),
      );
    }
    if (openable) {
      out.push(
        mk(
          `need/${at}/state`,
          kitchen(at),
          `Is the ${openable.name} open right now?`,
          { task: 'need', difficulty: 'easy', capability: 'perception' },
          {
            task: 'need',
            tools: HOUSEHOLD,
            needTrue: true,
            plan: [step('get_obj_state', { obj: openable.id })],
            final: `I checked the ${openable.name}.`,
          },
        ),
      );
    }
    out.push(
      mk(
        `need/${at}/arithmetic`,
        kitchen(at),
        'What is 17 plus 25?',
        { task: 'need', difficulty: 'easy', capability: 'reasoning' },
        {
          task: 'need',
          tools: HOUSEHOLD,
          needTrue: false,
          final: '42.',
        },
      ),
    );
  }
  // ---- 2. tool selection: the right tool among four for what is asked here
  const asks: Array<{
    tool: string;
    text: (o: { name: string }) => string;
    args: (o: { id: string }) => Record<string, unknown>;
    fits: (o: WorldInfo['visible'] extends Map<string, infer V> ? V : never) => boolean;
    dim: string;
  }> = [
    {
      tool: 'get_obj_state',
      text: (o) => `Check whether the ${o.name} is open or closed.`,
      args: (o) => ({ obj: o.id }),
      fits: (o) => Boolean(o.props['openable']),
      dim: 'perception',
    },
    {
      tool: 'get_obj_properties',
      text: (o) => `Find out whether the ${o.name} can be picked up.`,
      args: (o) => ({ obj: o.id }),
      fits: (o) => !o.fixed,
      dim: 'cognition',
    },
    {
      tool: 'dist_to_target',
      text: (o) => `How many metres away is the ${o.name}?`,
      args: (o) => ({ target: o.id }),
      fits: () => true,
      dim: 'perception',
    },
    {
      tool: 'check_obj_relationship',
      text: (o) => `What is inside the ${o.name}?`,
      args: (o) => ({ relationship: 'inside', obj: o.id }),
      fits: (o) => Boolean(o.props['receptacle']),
      dim: 'perception',
    },
  ];
  for (const [at, w] of infos) {
    const vis = [...w.visible.values()].sort((a, b) => hash32(`sel${a.id}`) - hash32(`sel${b.id}`));
    for (const a of asks) {
      const o = vis.find((x) => a.fits(x));
      if (!o) continue;
      const tools = shuffled([a.tool, ...distractors(a.tool, HOUSEHOLD, `${at}${a.tool}`)], `${at}${a.tool}`);
      out.push(
        mk(
          `selection/${at}/${a.tool}`,
          kitchen(at),
          a.text(o),
          { task: 'selection', difficulty: 'medium', capability: a.dim },
          {
            task: 'selection',
            tools,
            tool: a.tool,
            toolArgs: a.args(o),
            final: 'Done.',
          },
        ),
      );
    }
  }
  for (const scene of ['tabletop/fruits', 'tabletop/utensils', 'tabletop/boxes'] as const) {
    const world: WorldSpec = { key: scene, scene, edits: [], setup: [] };
    const env = scene.split('/')[1]!;
    const first = await ctx.inWorld(world, async ({ robot }) => (await robot.perception.detect()).find((d) => d.category !== 'furniture'));
    if (!first) continue;
    for (const [tool, text, args] of [
      ['get_pose', `Where exactly is the ${first.name}?`, { name: first.id }],
      ['get_reference_names', 'Which named positions on the table can I ask you to place things at?', {}],
      ['compute_grasp', `Work out how you would grasp the ${first.name}.`, { object_name: first.id }],
      ['get_objects', 'Which objects are on the table?', {}],
    ] as const) {
      const tools = shuffled([tool, ...distractors(tool, ALRM, `${env}${tool}`)], `${env}${tool}`);
      out.push(
        mk(
          `selection/${env}/${tool}`,
          world,
          text,
          { task: 'selection', difficulty: 'easy', capability: tool === 'compute_grasp' ? 'reasoning' : 'perception' },
          {
            task: 'selection',
            tools,
            tool,
            toolArgs: args,
            final: 'Done.',
          },
        ),
      );
    }
  }
  // ---- 3. tool execution: call the designated tool, then do what its real output calls for
  for (const [at, w] of infos) {
    const vis = [...w.visible.values()].sort((a, b) => hash32(`ex${a.id}`) - hash32(`ex${b.id}`));
    const tools = (z: string) => [z, ...ACTION_TOOLS];
    const pickable = vis.find((o) => o.props['pickable'] && !o.fixed && o.onTop.length === 0);
    if (pickable) {
      const d = await ctx.inWorld(kitchen(at), ({ robot }) => robot.perception.distanceTo(pickable.id));
      const near = d <= 1.1;
      const place = w.placeOf.get(pickable.id) ?? at;
      out.push(
        mk(
          `execution/${at}/reach-${pickable.id}`,
          kitchen(at),
          `Use dist_to_target on the ${pickable.name}. If it is within the arm's reach of 1.1 m, pick it up; if not, move to ${place}.`,
          { task: 'execution', difficulty: 'medium', capability: 'perception' },
          {
            task: 'execution',
            tools: tools('dist_to_target'),
            tool: 'dist_to_target',
            toolArgs: { target: pickable.id },
            next: near ? { tool: 'pick', target: [pickable.id, pickable.name] } : { tool: 'move_to', target: [place] },
            plan: [
              step('dist_to_target', { target: pickable.id }),
              near ? step('pick', { object: pickable.id }) : step('move_to', { location: place }),
            ],
            final: 'Done.',
          },
        ),
      );
      out.push(
        mk(
          `execution/${at}/props-${pickable.id}`,
          kitchen(at),
          `Use get_obj_properties on the ${pickable.name}. If it can be picked up, pick it up; otherwise say that it cannot be picked.`,
          { task: 'execution', difficulty: 'easy', capability: 'cognition' },
          {
            task: 'execution',
            tools: tools('get_obj_properties'),
            tool: 'get_obj_properties',
            toolArgs: { obj: pickable.id },
            next: { tool: 'pick', target: [pickable.id, pickable.name] },
            plan: [step('get_obj_properties', { obj: pickable.id }), step('pick', { object: pickable.id })],
            final: 'Done.',
          },
        ),
      );
    }
    const fixedThing = vis.find((o) => o.fixed && !o.props['openable']);
    if (fixedThing) {
      out.push(
        mk(
          `execution/${at}/props-${fixedThing.id}`,
          kitchen(at),
          `Use get_obj_properties on the ${fixedThing.name}. If it can be picked up, pick it up; otherwise say that it cannot be picked.`,
          { task: 'execution', difficulty: 'easy', capability: 'cognition' },
          {
            task: 'execution',
            tools: tools('get_obj_properties'),
            tool: 'get_obj_properties',
            toolArgs: { obj: fixedThing.id },
            next: { tool: 'say', target: [] },
            plan: [
              step('get_obj_properties', { obj: fixedThing.id }),
              step('say', { statement: `The ${fixedThing.name} cannot be picked up.` }),
            ],
            final: 'Done.',
          },
        ),
      );
    }
    const openable = vis.find((o) => o.props['openable'] && o.fixed);
    if (openable) {
      const isOpen = openable.state['open'] === true;
      out.push(
        mk(
          `execution/${at}/state-${openable.id}`,
          kitchen(at),
          `Use get_obj_state on the ${openable.name}. If it is closed, open it; if it is open, close it.`,
          { task: 'execution', difficulty: 'easy', capability: 'perception' },
          {
            task: 'execution',
            tools: tools('get_obj_state'),
            tool: 'get_obj_state',
            toolArgs: { obj: openable.id },
            next: { tool: isOpen ? 'close' : 'open', target: [openable.id, openable.name] },
            plan: [step('get_obj_state', { obj: openable.id }), step(isOpen ? 'close' : 'open', { object: openable.id })],
            final: 'Done.',
          },
        ),
      );
    }
    const container = vis.find((o) => o.props['receptacle'] && o.props['pickable']);
    if (container) {
      const inside = container.inside[0];
      out.push(
        mk(
          `execution/${at}/inside-${container.id}`,
          kitchen(at),
          `Use check_obj_relationship to see what is inside the ${container.name}. If something is inside, pick that item up; if it is empty, pick up the ${container.name} itself.`,
          { task: 'execution', difficulty: 'hard', capability: 'reasoning' },
          {
            task: 'execution',
            tools: tools('check_obj_relationship'),
            tool: 'check_obj_relationship',
            toolArgs: { relationship: 'inside', obj: container.id },
            next: { tool: 'pick', target: inside ? [inside, w.visible.get(inside)?.name ?? inside] : [container.id, container.name] },
            plan: [
              step('check_obj_relationship', { relationship: 'inside', obj: container.id }),
              step('pick', { object: inside ?? container.id }),
            ],
            final: 'Done.',
          },
        ),
      );
    }
    if (pickable) {
      out.push(
        mk(
          `execution/${at}/holding`,
          kitchen(at),
          `Use robot_holding. If your hand is empty, pick up the ${pickable.name}; otherwise place what you hold on the free_table.`,
          { task: 'execution', difficulty: 'easy', capability: 'perception' },
          {
            task: 'execution',
            tools: tools('robot_holding'),
            tool: 'robot_holding',
            toolArgs: {},
            next: { tool: 'pick', target: [pickable.id, pickable.name] },
            plan: [step('robot_holding'), step('pick', { object: pickable.id })],
            final: 'Done.',
          },
        ),
      );
    }
  }
  // ---- 4. tool-chain composition (./chains.ts)
  await chainCases(ctx, infos, out);
  ctx.onProgress?.(`etp: ${out.length} cases`);
  return out;
}
