// ETP's tool-execution cases (paper 004 §3.2, App. E.3): the designated tool is
// called on an object the instruction names (Stage 1), then the next action uses
// what its real output says (Stage 2). The action's argument is something only
// that output reveals in this world — the item inside a container or on top of
// an object, the distance, the mass, the id of what the hand holds — so an answer
// that ignores the output (a first branch, a constant, every id at once) can only
// guess it. Each case's plan is played in the physics first; the gold is taken
// from the output the tool gave there, and the action's effect must hold after it.
import type { PlanStep, SetupStep } from '../../core/case';
import { playPlan } from '../../core/play';
import type { GenerateContext } from '../../core/suite';
import { hash32 } from '../../reference/rng';
import { type ObjInfo, type WorldInfo, namesOf } from '../raider/world-info';
import type { EtpNext } from './gold';
import { ACTION_TOOLS, type Case, kitchen, mk, objectArgs, step } from './make';

const SETS = ['raider-household', 'raider-recovery'];

interface Draft {
  id: string;
  setup: SetupStep[];
  tag: string;
  text: string;
  tool: string;
  args: Record<string, unknown>;
  subject: { id: string; names: string[] };
  difficulty: string;
  capability: string;
  /** The next action from the designated tool's real output (its result data): undefined drops the case. */
  next(data: unknown, content: string): { next: EtpNext; step: PlanStep } | undefined;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** A pick of an object the output named, checked by the hand holding it afterwards. */
function pickOf(w: WorldInfo, ids: unknown): { next: EtpNext; step: PlanStep } | undefined {
  const list = Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : [];
  const item = list.map((id) => w.visible.get(id)).find((o) => o && o.props['pickable'] && !o.fixed);
  if (!item || list.length !== 1) return undefined;
  return {
    next: { tool: 'pick', target: namesOf(item), effect: { kind: 'holding', object: item.id }, said: null },
    step: step('pick', { object: item.id }),
  };
}

/** A statement giving one quantity (2 %), the subject named or not. */
function sayValue(value: number, unit: string, subject: { id: string; names: string[] }, name: string) {
  const v = Number(value.toFixed(2));
  return {
    next: { tool: 'say', target: [], effect: null, said: { names: [], values: [v], allow: subject.names } },
    step: step('say', { statement: `The ${name} is ${v} ${unit}.` }),
  };
}

/** How an instruction refers to an object: by its name (the text cases), or by where it is in the picture (undefined: not referable). */
export type Refer = (o: ObjInfo) => string | undefined;
const byName: Refer = (o) => `the ${o.name}`;

export async function executionCases(
  ctx: GenerateContext,
  infos: ReadonlyMap<string, WorldInfo>,
  out: Case[],
  opts: { refer?: (at: string) => Refer } = {},
): Promise<void> {
  for (const [at, w] of infos) {
    const refer = opts.refer?.(at) ?? byName;
    const vis = [...w.visible.values()].filter((o) => refer(o) !== undefined).sort((a, b) => hash32(`ex${a.id}`) - hash32(`ex${b.id}`));
    const the = (o: ObjInfo) => refer(o)!;
    const drafts: Draft[] = [];
    const subjectOf = (o: ObjInfo) => ({ id: o.id, names: namesOf(o) });
    const container = vis.find(
      (o) => o.props['receptacle'] && !(o.props['openable'] && o.state['open'] === false) && o.inside.length === 1,
    );
    if (container) {
      drafts.push({
        id: `execution/${at}/inside-${container.id}`,
        setup: [],
        tag: '',
        text: `Use check_obj_relationship to see what is inside ${the(container)}, then pick up what is inside it.`,
        tool: 'check_obj_relationship',
        args: { relationship: 'inside', obj: container.id },
        subject: subjectOf(container),
        difficulty: 'hard',
        capability: 'reasoning',
        next: (data) => pickOf(w, data),
      });
    }
    const base = vis.find((o) => o.onTop.length === 1);
    if (base) {
      drafts.push({
        id: `execution/${at}/on-${base.id}`,
        setup: [],
        tag: '',
        text: `Use check_obj_relationship to see what lies on top of ${the(base)}, then pick that up.`,
        tool: 'check_obj_relationship',
        args: { relationship: 'on top of', obj: base.id },
        subject: subjectOf(base),
        difficulty: 'hard',
        capability: 'reasoning',
        next: (data) => pickOf(w, data),
      });
    }
    const far = vis.find((o) => !o.fixed);
    if (far) {
      drafts.push({
        id: `execution/${at}/distance-${far.id}`,
        setup: [],
        tag: '',
        text: `Use dist_to_target on ${the(far)}, then say how far away it is, in metres.`,
        tool: 'dist_to_target',
        args: { target: far.id },
        subject: subjectOf(far),
        difficulty: 'medium',
        capability: 'perception',
        next: (data) => {
          const d = num((data as { distanceM?: unknown } | undefined)?.distanceM);
          return d === undefined ? undefined : sayValue(d, 'm away', subjectOf(far), far.name);
        },
      });
    }
    // A text world asks its two questions of two objects; a picture's reference asks both of its one.
    const heavy = vis.find((o) => o.props['pickable'] && !o.fixed && (opts.refer !== undefined || o.id !== far?.id));
    if (heavy) {
      drafts.push({
        id: `execution/${at}/mass-${heavy.id}`,
        setup: [],
        tag: '',
        text: `Use get_obj_properties on ${the(heavy)}, then say how much it weighs, in kilograms.`,
        tool: 'get_obj_properties',
        args: { obj: heavy.id },
        subject: subjectOf(heavy),
        difficulty: 'easy',
        capability: 'cognition',
        next: (data) => {
          const kg = num((data as { massKg?: unknown } | undefined)?.massKg);
          return kg === undefined ? undefined : sayValue(kg, 'kg', subjectOf(heavy), heavy.name);
        },
      });
    }
    // What the hand holds is no object the instruction refers to: a text case only.
    const held = opts.refer
      ? undefined
      : vis.find((o) => o.props['pickable'] && !o.fixed && !o.props['receptacle'] && o.onTop.length === 0);
    if (held) {
      drafts.push({
        id: `execution/${at}/holding`,
        setup: [{ do: 'pick', object: held.id }],
        tag: `+holding-${held.id}`,
        text: 'Use robot_holding, then say the id of the object you are holding.',
        tool: 'robot_holding',
        args: {},
        subject: { id: held.id, names: [] },
        difficulty: 'easy',
        capability: 'perception',
        next: (data) => {
          const id = (data as { holding?: unknown } | undefined)?.holding;
          if (typeof id !== 'string') return undefined;
          return {
            // By its id: the instruction never names it, so only the tool's output can.
            next: { tool: 'say', target: [], effect: null, said: { names: [[id]], values: [], allow: [] } },
            step: step('say', { statement: `I am holding ${id}.` }),
          };
        },
      });
    }
    for (const d of drafts) {
      const world = kitchen(at, d.tag, d.setup);
      const first = step(d.tool, d.args);
      const made = await ctx.inWorld(world, async ({ robot, control }) => {
        const r = await playPlan(robot, control, SETS, [first]);
        const got = r.played[0]?.result;
        if (!r.ok || !got) return undefined;
        const n = d.next(got.data, got.content);
        if (!n) return undefined;
        const then = await playPlan(robot, control, SETS, [n.step]);
        if (!then.ok) return undefined;
        const e = n.next.effect;
        if (e?.kind === 'holding' && control.holding() !== e.object) return undefined;
        return n;
      });
      if (!made) continue;
      out.push(
        mk(
          d.id,
          world,
          d.text,
          { task: 'execution', difficulty: d.difficulty, capability: d.capability },
          {
            task: 'execution',
            tools: [d.tool, ...ACTION_TOOLS],
            tool: d.tool,
            toolArgs: d.args,
            argNames: objectArgs(d.args, d.subject.id, d.subject.names),
            next: made.next,
            plan: [first, made.step],
            final: 'Done.',
          },
        ),
      );
    }
  }
}
