// EmbodiedToolBench's image samples (paper 004 App. F.2: each sample comes with
// the pictures of its observation) from the simulated camera: the robot stands
// at each place of the kitchen and before each tabletop, the camera picture goes
// with the request, and the request refers to an object only by where it is in
// that picture ("the item furthest to the left in the picture"), so which object
// is meant is in the picture alone. The four tasks are the text suite's, scored
// by the same scorer: tool need (a question the picture answers, one a tool
// must), selection among four candidates, execution (the designated tool on the
// pictured object, then the action its real output calls for) and chains played
// in the physics.
import type { WorldSpec } from '../../core/case';
import { playPlan } from '../../core/play';
import type { GenerateContext, Suite } from '../../core/suite';
import { etpImagesReport } from '../../report/specs/etp-images';
import { CAMERA_TOOL } from '../../../agents/tools/camera';
import { type ObjInfo, type WorldInfo, namesOf, readWorld } from '../raider/world-info';
import { executionCases } from './execution';
import type { EtpGold } from './gold';
import { etpSuite, scoreEtp } from './index';
import { ACTION_TOOLS, ALRM, type Case, HOUSEHOLD, PLACES, distractors, kitchen, mk, objectArgs, shuffled, step } from './make';
import { type PictureRef, pictureLayout, pictureRefs } from './picture';
import { ETP_IMAGES, LOOK_STAGE, picturesWorkflow } from './workflow';

export const ETP_IMAGES_SUITE = 'etp-images';

/** The kitchen places the robot looks from: the text suite's and two more. */
const IMAGE_PLACES = [...PLACES, 'cabinet_1', 'kitchen_centre'];
const TABLETOPS = ['tabletop/fruits', 'tabletop/utensils', 'tabletop/boxes'] as const;

interface Look {
  world: WorldSpec;
  env: string;
  info: WorldInfo;
  refs: PictureRef[];
}

/** What the robot sees from a world, and the items its picture singles out (movable ones: what the tasks act on). */
async function look(ctx: GenerateContext, world: WorldSpec, env: string, at: string): Promise<Look> {
  return ctx.inWorld(world, async ({ robot, control }) => {
    const info = await readWorld(world.scene, at, robot, control);
    const items = [...info.visible.values()].filter((o) => !o.fixed);
    return { world, env, info, refs: pictureRefs(pictureLayout(control, items)) };
  });
}

const answerJson = 'Answer only with JSON: {"object": "<what it is>"}.';

export async function generateEtpImages(ctx: GenerateContext): Promise<Case[]> {
  const out: Case[] = [];
  const kitchens: Look[] = [];
  // The self-tests' small set: three places and one tabletop, every task still there.
  for (const at of ctx.small ? IMAGE_PLACES.filter((p) => ['counter_1', 'stove_1', 'dining_table_1'].includes(p)) : IMAGE_PLACES)
    kitchens.push(await look(ctx, kitchen(at), at, at));
  const tables: Look[] = [];
  for (const scene of ctx.small ? TABLETOPS.slice(0, 1) : TABLETOPS)
    tables.push(await look(ctx, { key: scene, scene, edits: [], setup: [] }, scene.split('/')[1]!, ''));
  const objOf = (l: Look, r: PictureRef): ObjInfo => l.info.visible.get(r.id)!;

  for (const l of [...kitchens, ...tables]) {
    for (const r of l.refs) {
      const o = objOf(l, r);
      // ---- 1. tool need: what the item is, the picture answers; how far it is, a tool must.
      out.push(
        mk(
          `need/${l.env}/${r.key}-what`,
          l.world,
          `What is ${r.phrase}? ${answerJson}`,
          { task: 'need', difficulty: 'medium', capability: 'perception' },
          {
            task: 'need',
            tools: kitchens.includes(l) ? HOUSEHOLD : ALRM,
            needTrue: false,
            answerNames: namesOf(o),
            final: JSON.stringify({ object: o.id }),
          },
        ),
      );
      if (kitchens.includes(l)) {
        const args = { target: o.id };
        out.push(
          mk(
            `need/${l.env}/${r.key}-distance`,
            l.world,
            `How far from you is ${r.phrase}?`,
            { task: 'need', difficulty: 'easy', capability: 'perception' },
            {
              task: 'need',
              tools: HOUSEHOLD,
              needTrue: true,
              tool: 'dist_to_target',
              toolArgs: args,
              argNames: objectArgs(args, o.id, namesOf(o)),
              plan: [step('dist_to_target', args)],
              final: `I measured the distance to the ${o.name}.`,
            },
          ),
        );
      }
    }
  }

  // ---- 2. tool selection: the right tool of four, on the pictured item, and it worked
  const asks: Array<{
    tool: string;
    text: (p: string) => string;
    args: (id: string) => Record<string, unknown>;
    fits: (o: ObjInfo) => boolean;
    dim: string;
  }> = [
    {
      tool: 'get_obj_properties',
      text: (p) => `Find out whether ${p} can be picked up.`,
      args: (id) => ({ obj: id }),
      fits: () => true,
      dim: 'cognition',
    },
    {
      tool: 'check_obj_relationship',
      text: (p) => `What is inside ${p}?`,
      args: (id) => ({ relationship: 'inside', obj: id }),
      fits: (o) => Boolean(o.props['receptacle']),
      dim: 'perception',
    },
    {
      tool: 'get_obj_state',
      text: (p) => `Check whether ${p} is open or closed.`,
      args: (id) => ({ obj: id }),
      fits: (o) => Boolean(o.props['openable']),
      dim: 'perception',
    },
  ];
  for (const l of kitchens) {
    for (const r of l.refs) {
      const o = objOf(l, r);
      for (const a of asks.filter((x) => x.fits(o))) {
        const ok = await ctx.inWorld(
          l.world,
          async ({ robot, control }) => (await playPlan(robot, control, 'raider-household', [step(a.tool, a.args(o.id))])).ok,
        );
        if (!ok) continue;
        const salt = `img${l.env}${r.key}${a.tool}`;
        out.push(
          mk(
            `selection/${l.env}/${r.key}-${a.tool}`,
            l.world,
            a.text(r.phrase),
            { task: 'selection', difficulty: 'medium', capability: a.dim },
            {
              task: 'selection',
              tools: shuffled([a.tool, ...distractors(a.tool, HOUSEHOLD, salt)], salt),
              tool: a.tool,
              toolArgs: a.args(o.id),
              argNames: objectArgs(a.args(o.id), o.id, namesOf(o)),
              final: 'Done.',
            },
          ),
        );
      }
    }
  }
  for (const l of tables) {
    for (const r of l.refs) {
      const o = objOf(l, r);
      for (const [tool, text, args] of [
        ['get_pose', `Where exactly is ${r.phrase}?`, { name: o.id }],
        ['compute_grasp', `Work out how you would grasp ${r.phrase}.`, { object_name: o.id }],
      ] as const) {
        const ok = await ctx.inWorld(
          l.world,
          async ({ robot, control }) => (await playPlan(robot, control, 'alrm', [step(tool, args)])).ok,
        );
        if (!ok) continue;
        const salt = `img${l.env}${r.key}${tool}`;
        out.push(
          mk(
            `selection/${l.env}/${r.key}-${tool}`,
            l.world,
            text,
            { task: 'selection', difficulty: 'easy', capability: tool === 'compute_grasp' ? 'reasoning' : 'perception' },
            {
              task: 'selection',
              tools: shuffled([tool, ...distractors(tool, ALRM, salt)], salt),
              tool,
              toolArgs: args,
              argNames: objectArgs(args, o.id, namesOf(o)),
              final: 'Done.',
            },
          ),
        );
      }
    }
  }

  // ---- 3. tool execution: the text suite's drafts, the subject referred to by the picture
  for (const l of kitchens)
    for (const r of l.refs)
      await executionCases(ctx, new Map([[l.env, l.info]]), out, { refer: () => (o) => (o.id === r.id ? r.phrase : undefined) });

  // ---- 4. tool-chain composition: the pictured item to the free table, played in the physics
  for (const l of kitchens) {
    for (const r of l.refs) {
      const o = objOf(l, r);
      if (!o.props['pickable'] || o.onTop.length || o.inside.length) continue;
      const plan = [step('pick', { object: o.id }), step('move_to', { location: 'free_table' }), step('place', { object: 'free_table' })];
      const goal = [`on(${o.id}, free_table)`];
      const ok = await ctx.inWorld(l.world, async ({ robot, control }) => {
        const played = await playPlan(robot, control, 'raider-recovery', plan);
        const facts = new Set(control.facts());
        return played.ok && goal.every((f) => facts.has(f));
      });
      if (!ok) continue;
      out.push(
        mk(
          `chain/${l.env}/${r.key}-to-free-table`,
          l.world,
          `Put ${r.phrase} on the free table.`,
          { task: 'chain', difficulty: 'medium', capability: 'execution' },
          {
            task: 'chain',
            tools: [...HOUSEHOLD, ...ACTION_TOOLS],
            chainSet: ['pick', 'move_to', 'place'],
            order: [
              ['pick', 'move_to'],
              ['pick', 'place'],
              ['move_to', 'place'],
            ],
            plan,
            goalFacts: goal,
            final: 'Done.',
          },
        ),
      );
    }
  }
  ctx.onProgress?.(`${ETP_IMAGES_SUITE}: ${out.length} cases`);
  return out.map((c) => ({ ...c, suite: ETP_IMAGES_SUITE, labels: { ...c.labels, images: '1' } }));
}

/** The registry's tools and the camera: looking again at what the request already shows is not a tool of the case. */
const LOOKING: ReadonlySet<string> = new Set(['discover_tools', 'describe_tool', CAMERA_TOOL]);

export const etpImagesSuite: Suite<EtpGold> = {
  ...etpSuite,
  id: ETP_IMAGES_SUITE,
  title: 'EmbodiedToolBench with the camera picture: need, selection, execution, chains',
  paper: '004 §3.2, App. F.2',
  report: etpImagesReport,
  defaultWorkflow: ETP_IMAGES,
  workflows: [ETP_IMAGES],
  protocol: { workflows: [ETP_IMAGES], toolSets: [] },
  ownWorkflows: { [ETP_IMAGES]: (c, robot) => picturesWorkflow(robot, c.gold.tools) },
  generate: (ctx) => generateEtpImages(ctx),
  // The workflow's own picture is the case's observation, not a call of the model.
  score: scoreEtp(LOOKING, (x) => x.stage === LOOK_STAGE),
  // Every case asks about the pictured item: an answer without it (or without tools) solves none.
  floors: [
    { floor: 'noop', maxScore: 0.1 },
    { floor: 'none', maxScore: 0.1 },
    { floor: 'random', maxScore: 0.15 },
  ],
  variant: () => null,
};
