// The ALRM suite (paper 002 §IV–V): 54 instructions, each scored 0 / 1 / 2 with
// the paper's rubric (Table II) — 2: every subtask done and nothing irrelevant
// done; 1: at least one subtask done and nothing irrelevant done; 0: none, or any
// irrelevant action (an object outside the instruction picked, a task object put
// down where it was not asked to go), which is a violation, never partial credit.
// Decided by goal predicates on the final physical state (the lemon is in the
// trash) and the successful placements in the trace, not by an LLM judge.
import { z } from 'zod';
import { builtinScene } from '../../../scenes/registry';
import type { ResolvedObject } from '../../../scenes/resolve';
import { alrmReport } from '../../report/specs/alrm';
import type { EvalCase } from '../../core/case';
import { callsOf, modelFailed } from '../../core/events';
import type { CaseOf, Suite } from '../../core/suite';
import { freshFlow, offered, planCode, planPolicy, toolCall } from '../../reference/policies';
import type { Policy } from '../../core/suite';
import { goalHolds } from './goals';
import { ALRM_TASKS, type AlrmTask, type Selector } from './tasks';

const Goal = z.object({ object: z.string(), into: z.string().optional(), at: z.string().optional() });
export const AlrmGold = z.object({
  subtasks: z.array(Goal).min(1),
  ordered: z.boolean(),
  /** Every object the task involves (moving any other one is an irrelevant action). */
  taskObjects: z.array(z.string()),
});
export type AlrmGold = z.infer<typeof AlrmGold>;
type Goal = z.infer<typeof Goal>;

const num = (o: ResolvedObject, attr: string): number | undefined => {
  const v = o.attributes?.[attr];
  return typeof v === 'number' ? v : undefined;
};

/** The object a selector means among a scene's objects; throws when none or several do (a broken task). */
export function select(objects: readonly ResolvedObject[], sel: Selector, payloadKg: number, where: string): string {
  const movable = objects.filter((o) => !o.fixed && o.properties.pickable && !o.receptacle);
  let hits: ResolvedObject[];
  if ('type' in sel) {
    hits = objects.filter((o) => o.type === sel.type);
  } else {
    let pool = movable.filter((o) => !sel.category || o.category === sel.category);
    if ('extreme' in sel) {
      if (sel.liftable) pool = pool.filter((o) => o.mass <= payloadKg);
      const ranked = pool.filter((o) => num(o, sel.attr) !== undefined).sort((a, b) => num(a, sel.attr)! - num(b, sel.attr)!);
      if (sel.extreme === 'max') ranked.reverse();
      const r = sel.rank ?? 0;
      const pickd = ranked[r];
      // A tie with a neighbour would make the phrase ambiguous.
      const tie = pickd && [ranked[r - 1], ranked[r + 1]].some((x) => x && num(x, sel.attr) === num(pickd, sel.attr));
      hits = pickd && !tie ? [pickd] : ranked.slice(0, 2);
    } else {
      hits = pool.filter((o) => {
        const v = o.attributes?.[sel.attr];
        if (sel.equals !== undefined) return v === sel.equals;
        return typeof v === 'string' && sel.includes !== undefined && v.includes(sel.includes);
      });
    }
  }
  if (hits.length !== 1) {
    throw new Error(
      `${where}: ${JSON.stringify(sel)} selects ${hits.length ? hits.map((h) => h.id).join(', ') : 'nothing'}, not one object`,
    );
  }
  return hits[0]!.id;
}

function goalsFor(task: AlrmTask, objects: readonly ResolvedObject[], payloadKg: number, chosen: Selector[] | undefined, where: string) {
  const ids = task.subtasks.map((s, i) => select(objects, chosen?.[i] ?? s.object, payloadKg, where));
  const goals: Goal[] = task.subtasks.map((s, i) => {
    const object = ids[i]!;
    if ('into' in s.dest) return { object, into: select(objects, s.dest.into, payloadKg, where) };
    if ('at' in s.dest) return { object, at: s.dest.at };
    return { object, at: `left of ${select(objects, s.dest.leftOf, payloadKg, where)}` };
  });
  return goals;
}

export function alrmCases(): Array<CaseOf<AlrmGold>> {
  const out: Array<CaseOf<AlrmGold>> = [];
  for (const task of ALRM_TASKS) {
    const scene = builtinScene(task.scene);
    const payload = scene.robot.arm?.payloadKg ?? 0;
    const env = task.scene.split('/')[1]!;
    const canonical = goalsFor(task, scene.objects, payload, undefined, `${task.scene} task ${task.task}`);
    const counts = new Map<string, number>();
    for (const p of task.paraphrases) {
      const n = (counts.get(p.category) ?? 0) + 1;
      counts.set(p.category, n);
      const id = `${env}/${task.task}/${p.category}${p.category === 'HLR' ? n : ''}`;
      const goals = goalsFor(task, scene.objects, payload, p.objects, id);
      if (JSON.stringify(goals) !== JSON.stringify(canonical)) {
        throw new Error(`${id}: "${p.text}" selects ${JSON.stringify(goals)}, not the canonical task's ${JSON.stringify(canonical)}`);
      }
      const involved = new Set(goals.flatMap((g) => [g.object, ...(g.into ? [g.into] : [])]));
      out.push({
        id,
        suite: 'alrm',
        world: { key: task.scene, scene: task.scene, edits: [], setup: [] },
        instruction: p.text,
        labels: { scene: env, task: task.task, category: p.category },
        toolSet: 'alrm',
        limits: { maxIterations: 4 * goals.length + 6 },
        gold: { subtasks: goals, ordered: task.ordered, taskObjects: [...involved] },
      });
    }
  }
  return out;
}

/** Index of the first successful placement of `object` among the trace's calls, or -1. */
function placedAt(calls: ReturnType<typeof callsOf>, object: string): number {
  return calls.findIndex((c) => {
    if (!c.ok) return false;
    const d = c.data as { data?: { object?: unknown } } | undefined;
    return d?.data?.object === object && /place|put|drop/i.test(c.name);
  });
}

const subtaskSteps = (g: Goal) => [
  { tool: 'pick', args: { object_name: g.object } },
  { tool: 'place', args: { target: g.into ?? g.at! } },
];

/** A subtask in the planner's template (paper 002 §III.A). */
const subtaskText = (g: Goal) => `Pick up ${g.object} and place it ${g.into ? `in ${g.into}` : `at ${g.at}`}.`;

/**
 * The oracle: with the robot API as tools (flat), the pick-and-place plan; as
 * ALRM's planner, one subtask per executor call, then the answer; as the TaP
 * executor, that subtask's calls; as the CaP executor, that subtask as a program.
 */
function alrmOracle(c: CaseOf<AlrmGold>, workflow: string): Policy {
  if (workflow === 'flat')
    return planPolicy({ steps: c.gold.subtasks.flatMap(subtaskSteps), final: 'Done: every object is where it was asked to go.' });
  let issued = 0;
  let executor: Policy | undefined;
  return {
    next(req, ctx) {
      if (offered(req, 'executor')) {
        const g = c.gold.subtasks[issued];
        if (!g) return { content: 'Done: every object is where it was asked to go.' };
        issued++;
        return toolCall('executor', { task: subtaskText(g) });
      }
      const g = c.gold.subtasks[Math.max(0, issued - 1)]!;
      if (!req.tools?.length) return { content: planCode(subtaskSteps(g)) };
      if (freshFlow(req)) executor = planPolicy({ steps: subtaskSteps(g), final: `${subtaskText(g)} Done.` });
      return executor!.next(req, ctx);
    },
  };
}

let canonical: Array<CaseOf<AlrmGold>> | undefined;

/** The subtasks of every task of a case's scene (each task's canonical instruction), the case's own task last. */
function everyTask(c: CaseOf<AlrmGold>): AlrmGold {
  canonical ??= alrmCases().filter((x) => x.labels['category'] === 'CAN');
  const others = canonical.filter((x) => x.world.key === c.world.key && x.labels['task'] !== c.labels['task']);
  const subtasks = [...others.flatMap((x) => x.gold.subtasks), ...c.gold.subtasks];
  return { subtasks, ordered: false, taskObjects: [...new Set(subtasks.flatMap((g) => [g.object, ...(g.into ? [g.into] : [])]))] };
}

export const alrmSuite: Suite<AlrmGold> = {
  id: 'alrm',
  title: 'ALRM: 3 environments × 3 tasks × 6 instructions',
  paper: '002 §IV–V',
  report: alrmReport,
  defaultWorkflow: 'alrm/tap',
  workflows: ['alrm/tap', 'alrm/cap', 'flat'],
  // The paper's two executor modes over its eight robot API actions.
  protocol: { workflows: ['alrm/tap', 'alrm/cap'], toolSets: ['alrm'] },
  gold: AlrmGold,
  async generate(ctx) {
    const cases = alrmCases();
    // A case whose goal already holds where it starts would score doing nothing.
    for (const c of cases)
      await ctx.inWorld(c.world, async ({ control, robot }) => {
        for (const g of c.gold.subtasks) {
          const r = await goalHolds(control, robot, g);
          if (r.done) throw new Error(`${c.id}: ${g.object} already satisfies its subtask at the start (${r.why})`);
        }
      });
    return cases;
  },
  async score(c, o) {
    const calls = callsOf(o.events);
    // A model that failed did not do the task, whatever state the world is in.
    if (modelFailed(o.events))
      return {
        metrics: { alrm_score: 0, subtasks_done: 0, subtasks: c.gold.subtasks.length, irrelevant_actions: 0 },
        success: false,
        failureClass: 'model-error',
      };
    const done = await Promise.all(c.gold.subtasks.map(async (g) => (await goalHolds(o.control, o.robot, g)).done));
    if (c.gold.ordered) {
      // A subtask done out of order does not count: each must be placed after the one before it.
      let last = -1;
      c.gold.subtasks.forEach((g, i) => {
        const at = placedAt(calls, g.object);
        if (!done[i]) return;
        if (at < last) done[i] = false;
        else last = at;
      });
    }
    // Irrelevant actions: picking an object the task does not involve, and putting a task object down more often
    // than its subtasks ask (somewhere it was not asked to go, then again where it was).
    const objectOf = (x: (typeof calls)[number]) => {
      const d = x.data as { data?: { object?: unknown } } | undefined;
      return typeof d?.data?.object === 'string' ? d.data.object : undefined;
    };
    const succeeded = calls.filter((x) => x.ok && x.status === 'ok');
    const pickedOther = succeeded.filter((x) => {
      const ob = /pick|grasp|take/i.test(x.name) ? objectOf(x) : undefined;
      return ob !== undefined && !c.gold.taskObjects.includes(ob);
    }).length;
    const placed = new Map<string, number>();
    for (const x of succeeded) {
      const ob = /place|put|drop/i.test(x.name) ? objectOf(x) : undefined;
      if (ob !== undefined) placed.set(ob, (placed.get(ob) ?? 0) + 1);
    }
    const placedAgain = c.gold.subtasks
      .map((g) => g.object)
      .filter((ob, i, all) => all.indexOf(ob) === i)
      .reduce((n, ob) => n + Math.max(0, (placed.get(ob) ?? 0) - c.gold.subtasks.filter((g) => g.object === ob).length), 0);
    const irrelevant = pickedOther + placedAgain;
    const n = done.filter(Boolean).length;
    // Acting on an object the instruction does not involve is a violation, never partial credit: a model that
    // does every task of the scene would otherwise earn the rubric's "at least one subtask done" whatever it asked.
    const score = irrelevant > 0 ? 0 : n === done.length ? 2 : n >= 1 ? 1 : 0;
    return {
      metrics: { alrm_score: score, subtasks_done: n, subtasks: done.length, irrelevant_actions: irrelevant },
      success: score === 2,
      failureClass: score === 2 ? null : irrelevant ? 'irrelevant-action' : n === 0 ? 'none-done' : 'partial',
    };
  },
  oracle: (c, workflow) => alrmOracle(c, workflow),
  trivialAnswer: () => 'Done.',
  floors: [
    { floor: 'noop', maxScore: 0 },
    { floor: 'none', maxScore: 0 },
    { floor: 'random', maxScore: 0.25 },
  ],
  adversary: {
    // Every task of the scene in turn, whatever the instruction asked.
    everything: (c, workflow) => alrmOracle({ ...c, gold: everyTask(c) }, workflow),
  },
  variant: (wf) => (wf === 'alrm/tap' ? 'TaP' : wf === 'alrm/cap' ? 'CaP' : null),
};

export type AlrmCase = EvalCase;
