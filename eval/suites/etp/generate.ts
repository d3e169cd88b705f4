// EmbodiedToolBench cases from the scenes (paper 004 §3.2, App. E): the robot
// stands at places of the kitchen and at the tabletops; what it sees there
// decides the questions, the candidate tools, the designated tool's real output
// (hence the next action) and the chains, which are played in the physics and
// kept only when they reach their goal.
import type { WorldSpec } from '../../core/case';
import { playPlan } from '../../core/play';
import type { GenerateContext } from '../../core/suite';
import { hash32 } from '../../reference/rng';
import { CATEGORY_WORDS, type WorldInfo, namesOf, readWorld } from '../raider/world-info';
import { chainCases } from './chains';
import { executionCases } from './execution';
import { ALRM, type Case, HOUSEHOLD, PLACES, distractors, kitchen, mk, objectArgs, shuffled, step } from './make';

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
            argNames: objectArgs(a.args(o), o.id, namesOf(o)),
            final: 'Done.',
          },
        ),
      );
    }
  }
  for (const scene of ['tabletop/fruits', 'tabletop/utensils', 'tabletop/boxes'] as const) {
    const world: WorldSpec = { key: scene, scene, edits: [], setup: [] };
    const env = scene.split('/')[1]!;
    // An object the right tools work on (a grasp pose exists): the selection's call must succeed to count.
    const first = await ctx.inWorld(world, async ({ robot, control }) => {
      for (const d of await robot.perception.detect()) {
        if (d.category === 'furniture') continue;
        const r = await playPlan(robot, control, 'alrm', [step('compute_grasp', { object_name: d.id }), step('get_pose', { name: d.id })]);
        if (r.ok) return d;
      }
      return undefined;
    });
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
            argNames: objectArgs(args, first.id, [first.id, first.name]),
            final: 'Done.',
          },
        ),
      );
    }
  }
  // ---- 3. tool execution: call the designated tool, then the action its real output calls for. The action's
  // argument is what only that output reveals (what lies inside, the distance, the mass, what the hand holds),
  // so an answer that ignores the output can only guess it.
  await executionCases(ctx, infos, out);
  // ---- 4. tool-chain composition (./chains.ts)
  await chainCases(ctx, infos, out);
  ctx.onProgress?.(`etp: ${out.length} cases`);
  return out;
}
