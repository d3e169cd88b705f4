// The RAIDER cases (paper 001 §4.1.1), generated from the kitchen: the robot
// stands at each of the scene's places, with its hand empty, holding something,
// or with an appliance opened or switched on (variants found in the world, not
// listed by hand); every action × way of referring to an argument × query type
// is a candidate; the expected issue is what the world says — no visible match
// is "not present" (IU3), several are ambiguous (IA), and one is tried in a dry
// run of the robot's own skill on the restored world, whose failure code names
// the issue (out of reach → IU1, blocked → IU2, already done → IU4, not
// pickable → IU5, hand full → IU6) or whose success means no issue (IN).
// Candidates are taken in a seeded order until each issue type has its quota,
// spread over query types, abstraction levels and actions.
import { buildToolSet } from '../../../agents/tools/sets';
import type { Outcome, Robot } from '../../../robot/robot';
import { builtinScene } from '../../../scenes/registry';
import type { PlanStep, SetupStep, WorldSpec } from '../../core/case';
import { withSimulatedUser } from '../../core/simulated-user';
import type { CaseOf, GenerateContext } from '../../core/suite';
import { hash32 } from '../../reference/rng';
import { ACTIONS, type RaiderAction, type RaiderGold, categoryOf } from './gold';
import { type Candidate, type Made, type Variant, guess, lastPlace, makeCase } from './make-case';
import { ACTION_STATE, phrase, references } from './queries';
import { readWorld } from './world-info';
import { goalReached } from './score';

export const RAIDER_SCENE = 'kitchen';
/** Cases per issue type (8 types: at least 260 cases in all, as the paper's 260). */
export const PER_ISSUE = 36;
const PER_CELL = 16;
const PER_ACTION = 16;

function specFor(at: string, setup: SetupStep[], tag: string): WorldSpec {
  return { key: `raider/${at}${tag ? `+${tag}` : ''}`, scene: RAIDER_SCENE, edits: [{ kind: 'robot', at }], setup };
}

async function act(robot: Robot, action: RaiderAction, target: string): Promise<Outcome> {
  const arm = robot.arm!;
  switch (action) {
    case 'pick':
      return arm.pick(target);
    case 'place':
      return arm.place({ kind: 'object', id: target });
    case 'open':
      return arm.setOpen(target, true);
    case 'close':
      return arm.setOpen(target, false);
    case 'turnon':
      return arm.setSwitch(target, true);
    case 'turnoff':
      return arm.setSwitch(target, false);
    case 'slice':
      return arm.slice(target);
  }
}

/** The places the robot stands at, and variants found there: holding something, an appliance opened or switched on. */
async function findVariants(ctx: GenerateContext): Promise<Variant[]> {
  const scene = builtinScene(RAIDER_SCENE).scene;
  const places = scene.locations
    .filter((l) => l.kind !== 'waypoint')
    .map((l) => l.id)
    .slice(0, ctx.small ? 4 : undefined);
  const out: Variant[] = [];
  const tryVariant = async (at: string, setup: SetupStep[], tag: string): Promise<Variant | undefined> => {
    const spec = specFor(at, setup, tag);
    try {
      const info = await ctx.inWorld(spec, ({ robot, control }) => readWorld(RAIDER_SCENE, at, robot, control));
      return { spec, at, info };
    } catch {
      return undefined; // a setup the world refuses is not a variant
    }
  };
  const bases: Variant[] = [];
  for (const at of places) {
    const v = await tryVariant(at, [], '');
    if (v) bases.push(v);
  }
  out.push(...bases);
  let holds = 0;
  let switched = 0;
  let obstructed = 0;
  const sceneObjects = new Map(builtinScene(RAIDER_SCENE).objects.map((o) => [o.id, o]));
  for (const b of bases) {
    const objs = [...b.info.visible.values()].sort((x, y) => (x.id < y.id ? -1 : 1));
    // Holding the knife where one lies (slicing needs it), else the first small thing that is free to take.
    const knife = objs.find((o) => o.props['canSlice'] && o.props['pickable']);
    const small = objs.find((o) => o.props['pickable'] && !o.props['receptacle'] && !o.fixed && o.onTop.length === 0 && o.id !== knife?.id);
    for (const h of [knife, holds < 4 ? small : undefined]) {
      if (!h) continue;
      const v = await tryVariant(b.at, [{ do: 'pick', object: h.id }], `holding-${h.id}`);
      if (v && v.info.held === h.id) {
        out.push(v);
        if (h !== knife) holds++;
      }
    }
    for (const o of objs.filter((x) => x.fixed && x.props['openable'] && x.state['open'] === false)) {
      const v = await tryVariant(b.at, [{ do: 'open', object: o.id }], `open-${o.id}`);
      if (v) out.push(v);
    }
    // Something put into an empty bowl, mug or pan (a scene edit): picking it, or placing into it, is obstructed.
    const container = objs.find((o) => o.props['pickable'] && o.props['receptacle'] && !o.inside.length && !o.onTop.length);
    const filler = objs.find(
      (o) => o.props['pickable'] && !o.props['receptacle'] && !o.onTop.length && o.id !== knife?.id && o.id !== container?.id,
    );
    const pos = container ? sceneObjects.get(container.id)?.placement.position : undefined;
    if (container && filler && pos && obstructed < 5) {
      const spec: WorldSpec = {
        key: `raider/${b.at}+${filler.id}-in-${container.id}`,
        scene: RAIDER_SCENE,
        edits: [
          { kind: 'robot', at: b.at },
          { kind: 'place', object: filler.id, position: pos, in: container.id },
        ],
        setup: [],
      };
      try {
        const info = await ctx.inWorld(spec, ({ robot, control }) => readWorld(RAIDER_SCENE, b.at, robot, control));
        if (info.visible.get(container.id)?.inside.includes(filler.id)) {
          out.push({ spec, at: b.at, info });
          obstructed++;
        }
      } catch {
        // the edit does not fit this scene
      }
    }
    const toggle = objs.find((x) => x.fixed && x.props['toggleable'] && x.state['on'] === false && !x.props['openable']);
    if (toggle && switched < 4) {
      const v = await tryVariant(b.at, [{ do: 'switch', object: toggle.id, on: true }], `on-${toggle.id}`);
      if (v) {
        out.push(v);
        switched++;
      }
    }
  }
  ctx.onProgress?.(`raider: ${out.length} kitchen variants`);
  return out;
}

/** Whether an action makes sense on an object in its state (an IU3 query should not also be impossible or already done). */
function sensible(action: RaiderAction, props: Record<string, boolean>, state: Record<string, boolean>): boolean {
  switch (action) {
    case 'pick':
      return Boolean(props['pickable']);
    case 'open':
    case 'close':
      return Boolean(props['openable']) && state['open'] === (action === 'close');
    case 'turnon':
    case 'turnoff':
      return Boolean(props['toggleable']) && state['on'] === (action === 'turnoff');
    case 'slice':
      return Boolean(props['sliceable']) && !state['sliced'];
    case 'place':
      return Boolean(props['receptacle']);
  }
}

export async function generateRaider(ctx: GenerateContext): Promise<Array<CaseOf<RaiderGold>>> {
  const variants = await findVariants(ctx);
  const sceneData = builtinScene(RAIDER_SCENE);
  const propsOf = new Map(sceneData.objects.map((o) => [o.id, o.properties as Record<string, boolean>]));
  const statesOf = new Map(sceneData.objects.map((o) => [o.id, o.states as Record<string, boolean>]));
  const bases = new Map(variants.filter((v) => v.spec.key === `raider/${v.at}`).map((v) => [v.at, v]));
  const candidates: Candidate[] = [];
  for (const v of variants) {
    for (const ref of references(v.info)) {
      for (const action of ACTIONS) {
        if (ref.state && ACTION_STATE[action] === ref.state) continue;
        if (ref.matches.length === 0) {
          // Not present here, but somewhere in the kitchen, with the hand free for it, and the action fitting the object.
          const e = ref.elsewhere;
          if (
            !e ||
            v.info.held ||
            action === 'place' ||
            action === 'slice' ||
            !sensible(action, propsOf.get(e) ?? {}, statesOf.get(e) ?? {})
          )
            continue;
          const where = v.info.placeOf.get(e);
          if (!where || where === v.at) continue;
        }
        candidates.push({ v, action, ref, order: hash32(`${v.spec.key}|${action}|${ref.abstraction}|${ref.text}`) });
      }
    }
  }
  candidates.sort((a, b) => a.order - b.order);
  const memo = new Map<string, Promise<Outcome>>();
  const dry = (v: Variant, action: RaiderAction, target: string): Promise<Outcome> => {
    const k = `${v.spec.key}|${action}|${target}`;
    let p = memo.get(k);
    if (!p) {
      p = ctx.inWorld(v.spec, ({ robot }) => act(robot, action, target));
      memo.set(k, p);
    }
    return p;
  };
  const count = new Map<string, number>();
  // The self-test's small set keeps three cases per issue type.
  const scale = ctx.small ? 3 / PER_ISSUE : 1;
  const full = (k: string, cap: number) => (count.get(k) ?? 0) >= Math.max(1, Math.round(cap * scale));
  const bump = (...ks: string[]) => ks.forEach((k) => count.set(k, (count.get(k) ?? 0) + 1));
  const cases: Array<CaseOf<RaiderGold>> = [];
  const ids = new Set<string>();
  for (const c of candidates) {
    const g = guess(c);
    if (g !== '?' && (full(g, PER_ISSUE) || full(`${g}|${c.ref.abstraction}`, PER_CELL) || full(`${g}|${c.action}`, PER_ACTION))) continue;
    const made = await makeCase(c, dry);
    if (!made) continue;
    const { issue } = made.gold;
    const abs = c.ref.abstraction;
    if (full(issue, PER_ISSUE) || full(`${issue}|${abs}`, PER_CELL) || full(`${issue}|${c.action}`, PER_ACTION)) continue;
    // A cheap first check: the action itself works from where the recovery goes, with the hand free.
    const finalStep = made.gold.recovery.at(-1);
    const there = bases.get(lastPlace(made.gold.recovery) ?? c.v.at);
    const cheap = ['IU1', 'IU3', 'IU6'].includes(issue) && made.gold.action !== 'place' && made.gold.action !== 'slice';
    if (cheap && needsCheck(made) && finalStep && there && !made.gold.recovery.some((x) => x.tool === 'open' && x !== finalStep)) {
      if (!(await dry(there, made.gold.action, String(finalStep.args['object'] ?? ''))).ok) continue;
    }
    // The recovery must reach its goal in the physics, or the case is not kept (a second issue would hide behind the first).
    if (needsCheck(made) && !(await recovers(ctx, c.v, made))) continue;
    // Alternate structured and natural queries within each issue type.
    const query = (count.get(issue) ?? 0) % 2 === 0 ? 'QU' : 'QS';
    const id = `${c.v.spec.key.replace(/^raider\//, '')}/${c.action}/${abs}/${query}/${c.ref.text.replace(/\s+/g, '-')}`;
    if (ids.has(id)) continue;
    ids.add(id);
    bump(issue, `${issue}|${abs}`, `${issue}|${c.action}`);
    cases.push({
      id,
      suite: 'raider',
      world: c.v.spec,
      instruction: phrase(c.action, c.ref, query, c.order, true),
      labels: { issue, query, abstraction: abs, action: c.action, place: c.v.at },
      toolSet: 'raider-household',
      limits: { maxIterations: 14 },
      ...(made.answers ? { answers: made.answers } : {}),
      gold: made.gold,
    });
    if (cases.length % 40 === 0) ctx.onProgress?.(`raider: ${cases.length} cases`);
  }
  return cases;
}

/**
 * Recoveries whose last step was not already tried in this world: an explanation
 * needs no check, and IA and IN end with the action the dry run did.
 */
function needsCheck(m: Made): boolean {
  return m.gold.goal.kind !== 'explain' && m.gold.issue !== 'IA' && m.gold.issue !== 'IN' && m.gold.recovery.length > 1;
}

/** Plays a recovery plan through the recovery tools on the case's world and checks its goal. */
async function recovers(ctx: GenerateContext, v: Variant, m: Made): Promise<boolean> {
  return ctx.inWorld(v.spec, async ({ robot, control }) => {
    const r = withSimulatedUser(robot, control, m.answers);
    const tools = await buildToolSet('raider-recovery', r);
    const state = new Map<string, unknown>();
    for (const step of m.gold.recovery as PlanStep[]) {
      const tool = tools.get(step.tool);
      if (!tool) return false;
      const res = await tool.call(step.args, { robot: r, signal: new AbortController().signal, state });
      if (!res.ok) return false;
    }
    return goalReached(m.gold.goal, control, []);
  });
}

export const categoryOfIssue = categoryOf;
