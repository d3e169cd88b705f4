// EmbodiedToolBench's image samples (paper 004 App. F.2: each sample comes with
// one or two pictures of its observation) from the simulated camera: the robot
// stands at a kitchen place or before a tabletop and its picture goes with the
// request; or it takes two, before and after its own steps (views.ts). The
// request refers to an object only by where it is in the picture(s) ("the item
// furthest to the left in the picture", "the item in the second picture but not
// in the first"), so which object is meant is in the pictures alone. The four
// tasks are the text suite's, scored by the same scorer: tool need (a question
// the picture answers, one a tool must), selection among four candidates,
// execution (the designated tool on the pictured object, then the action its
// real output calls for) and chains played in the physics. The paper's counts:
// 100 samples per task, need half positive; candidates are drawn in a stable
// hash order, one-picture and two-picture in turn, and built only until the
// task has its count (each is checked in the physics, so building all of them
// would cost the time the count saves).
import type { PlanStep } from '../../core/case';
import type { GenerateContext, Suite } from '../../core/suite';
import { playPlan } from '../../core/play';
import { etpImagesReport } from '../../report/specs/etp-images';
import { CAMERA_TOOL } from '../../../agents/tools/camera';
import { hash32 } from '../../reference/rng';
import { type ObjInfo, namesOf } from '../raider/world-info';
import { executionCases } from './execution';
import type { EtpGold } from './gold';
import { etpSuite, scoreEtp } from './index';
import { ACTION_TOOLS, ALRM, type Case, HOUSEHOLD, distractors, mk, objectArgs, shuffled, step } from './make';
import type { PictureRef } from './picture';
import { type Look, afterSteps, imageViews, look } from './views';
import { ETP_IMAGES, LOOK_STAGE, picturesWorkflow } from './workflow';

export const ETP_IMAGES_SUITE = 'etp-images';

/** Cases per task (paper 004 Table 6: 100 each; need half needing a tool); the self-tests' small set keeps a few. */
const QUOTA = { need: 100, selection: 100, execution: 100, chain: 100 } as const;
const SMALL_QUOTA = 8;
type Task = keyof typeof QUOTA;

/** A case (or an execution look's few) to build when its task still needs cases: built lazily, checked in the world. */
interface Candidate {
  task: Task;
  /** Need's two halves are counted apart. */
  bucket: string;
  key: string;
  twoPictures: boolean;
  between: PlanStep[];
  build(): Promise<Case[]>;
}

const answerJson = 'Answer only with JSON: {"object": "<what it is>"}.';

/** The surfaces a chain puts the pictured item on, with how the request names them. */
const SURFACES: ReadonlyArray<[id: string, words: string]> = [
  ['free_table', 'the free table'],
  ['dining_table_1', 'the dining table'],
  ['counter_2', 'the counter next to the sink'],
  ['counter_3', 'the counter by the microwave'],
];

const SELECTION_ASKS: Array<{
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

/** The candidates of one look: every task on every item its picture(s) single out. */
function candidatesOf(ctx: GenerateContext, l: Look): Candidate[] {
  const wctx = afterSteps(ctx, l.between);
  const set = l.table ? 'alrm' : 'raider-household';
  const works = (tool: string, args: Record<string, unknown>) =>
    wctx.inWorld(l.world, async ({ robot, control }) => (await playPlan(robot, control, set, [step(tool, args)])).ok);
  const out: Candidate[] = [];
  const add = (task: Task, key: string, build: () => Promise<Case[]>, bucket: string = task) =>
    out.push({ task, bucket, key, twoPictures: l.between.length > 0, between: l.between, build });
  for (const r of l.refs) {
    const o = l.info.visible.get(r.id);
    if (!o) continue;
    const id = (task: string, what: string) => `${task}/${l.env}/${r.key}-${what}`;
    // ---- 1. tool need: what the item is, the picture answers; how far it is (or where exactly), a tool must.
    add(
      'need',
      id('need', 'what'),
      async () => [
        mk(
          id('need', 'what'),
          l.world,
          `What is ${r.phrase}? ${answerJson}`,
          { task: 'need', difficulty: 'medium', capability: 'perception' },
          {
            task: 'need',
            tools: l.table ? ALRM : HOUSEHOLD,
            needTrue: false,
            answerNames: namesOf(o),
            final: JSON.stringify({ object: o.id }),
          },
        ),
      ],
      'need-no',
    );
    const [tool, args, text] = l.table
      ? (['get_pose', { name: o.id }, `What are the exact coordinates of ${r.phrase}?`] as const)
      : (['dist_to_target', { target: o.id }, `How far from you is ${r.phrase}?`] as const);
    add(
      'need',
      id('need', l.table ? 'pose' : 'distance'),
      async () =>
        (await works(tool, args))
          ? [
              mk(
                id('need', l.table ? 'pose' : 'distance'),
                l.world,
                text,
                { task: 'need', difficulty: 'easy', capability: 'perception' },
                {
                  task: 'need',
                  tools: l.table ? ALRM : HOUSEHOLD,
                  needTrue: true,
                  tool,
                  toolArgs: args,
                  argNames: objectArgs(args, o.id, namesOf(o)),
                  plan: [step(tool, args)],
                  final: `I measured where the ${o.name} is.`,
                },
              ),
            ]
          : [],
      'need-yes',
    );
    // ---- 2. tool selection: the right tool of four, on the pictured item, and it worked
    const asks = l.table
      ? [
          { tool: 'get_pose', text: `Where exactly is ${r.phrase}?`, args: { name: o.id }, dim: 'perception', pool: ALRM },
          {
            tool: 'compute_grasp',
            text: `Work out how you would grasp ${r.phrase}.`,
            args: { object_name: o.id },
            dim: 'reasoning',
            pool: ALRM,
          },
        ]
      : SELECTION_ASKS.filter((a) => a.fits(o)).map((a) => ({
          tool: a.tool,
          text: a.text(r.phrase),
          args: a.args(o.id),
          dim: a.dim,
          pool: HOUSEHOLD,
        }));
    for (const a of asks) {
      const salt = `img${l.env}${r.key}${a.tool}`;
      add('selection', id('selection', a.tool), async () =>
        (await works(a.tool, a.args))
          ? [
              mk(
                id('selection', a.tool),
                l.world,
                a.text,
                { task: 'selection', difficulty: l.table ? 'easy' : 'medium', capability: a.dim },
                {
                  task: 'selection',
                  tools: shuffled([a.tool, ...distractors(a.tool, a.pool, salt)], salt),
                  tool: a.tool,
                  toolArgs: a.args,
                  argNames: objectArgs(a.args, o.id, namesOf(o)),
                  final: 'Done.',
                },
              ),
            ]
          : [],
      );
    }
    if (l.table) continue;
    // ---- 3. tool execution: the text suite's drafts, the subject referred to by the picture(s)
    add('execution', id('execution', 'drafts'), async () => {
      const made: Case[] = [];
      await executionCases(wctx, new Map([[l.at, l.info]]), made, { refer: () => (x) => (x.id === r.id ? r.phrase : undefined) });
      return made.map((c) => ({ ...c, id: c.id.replace(`execution/${l.at}/`, `execution/${l.env}/${r.key}-`) }));
    });
    // ---- 4. tool-chain composition: the pictured item onto a surface, played in the physics
    if (!o.props['pickable'] || o.onTop.length || o.inside.length) continue;
    for (const [surface, words] of SURFACES) add('chain', id('chain', `to-${surface}`), () => chainCase(wctx, l, r, o, surface, words));
  }
  return out;
}

async function chainCase(ctx: GenerateContext, l: Look, r: PictureRef, o: ObjInfo, surface: string, words: string): Promise<Case[]> {
  const plan = [step('pick', { object: o.id }), step('move_to', { location: surface }), step('place', { object: surface })];
  const goal = [`on(${o.id}, ${surface})`];
  const ok = await ctx.inWorld(l.world, async ({ robot, control }) => {
    // A goal that holds already is no chain to compose.
    if (goal.every((f) => control.facts().includes(f))) return false;
    const played = await playPlan(robot, control, 'raider-recovery', plan);
    const facts = new Set(control.facts());
    return played.ok && goal.every((f) => facts.has(f));
  });
  if (!ok) return [];
  return [
    mk(
      `chain/${l.env}/${r.key}-to-${surface}`,
      l.world,
      `Put ${r.phrase} on ${words}.`,
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
  ];
}

/** Candidates of a bucket in build order: a stable hash order, one-picture and two-picture in turn. */
function interleaved(cs: readonly Candidate[]): Candidate[] {
  const order = (xs: Candidate[]) => xs.sort((a, b) => hash32(`etp400${a.key}`) - hash32(`etp400${b.key}`) || (a.key < b.key ? -1 : 1));
  const one = order(cs.filter((c) => !c.twoPictures));
  const two = order(cs.filter((c) => c.twoPictures));
  const out: Candidate[] = [];
  for (let i = 0; i < Math.max(one.length, two.length); i++) out.push(...[one[i], two[i]].filter((c): c is Candidate => c !== undefined));
  return out;
}

export async function generateEtpImages(ctx: GenerateContext): Promise<Case[]> {
  const looks: Look[] = [];
  for (const v of imageViews(Boolean(ctx.small))) {
    const l = await look(ctx, v);
    if (l) looks.push(l);
  }
  const all = looks.flatMap((l) => candidatesOf(ctx, l));
  const out: Case[] = [];
  for (const bucket of ['need-no', 'need-yes', 'selection', 'execution', 'chain']) {
    const cs = interleaved(all.filter((c) => c.bucket === bucket));
    const task = cs[0]?.task;
    if (!task) continue;
    const want = (ctx.small ? SMALL_QUOTA : QUOTA[task]) / (task === 'need' ? 2 : 1);
    const got: Case[] = [];
    for (const c of cs) {
      if (got.length >= want) break;
      for (const made of await c.build())
        got.push({ ...made, gold: { ...made.gold, between: c.between }, labels: { ...made.labels, images: c.twoPictures ? '2' : '1' } });
    }
    out.push(...got.slice(0, want));
  }
  ctx.onProgress?.(`${ETP_IMAGES_SUITE}: ${out.length} cases`);
  return out.map((c) => ({ ...c, suite: ETP_IMAGES_SUITE }));
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
  ownWorkflows: { [ETP_IMAGES]: (c, robot) => picturesWorkflow(robot, c.gold.tools, c.gold.between) },
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
