// What the robot's camera shows in an image sample, one picture or two. One
// picture: the robot stands at a kitchen place or before a tabletop. Two: the
// robot takes a picture, plays its own steps (it moves to another place, or
// opens a container), and takes another; the gold is read from the world after
// the steps, as the workflow plays them before the request (workflow.ts). The
// views are fixed lists, and which second place goes with a first is a stable
// hash: the same views, the same cases, on every build.
import type { PlanStep, WorldSpec } from '../../core/case';
import { playPlan } from '../../core/play';
import type { GenerateContext } from '../../core/suite';
import type { WorldSnapshot } from '../../../sim/world/sim-world';
import { hash32 } from '../../reference/rng';
import { type ObjInfo, type WorldInfo, readWorld } from '../raider/world-info';
import { PLACES, kitchen, step } from './make';
import { type PictureRef, pictureOf, pictureRefs, twoPictureRefs } from './picture';
import { BETWEEN_SET } from './workflow';

/** The kitchen places the robot looks from: the text suite's and two more. */
export const IMAGE_PLACES = [...PLACES, 'cabinet_1', 'kitchen_centre'];
const TABLETOPS = ['tabletop/fruits', 'tabletop/utensils', 'tabletop/boxes'] as const;
/** The closed containers with something inside, and where the robot opens each from. */
const CONTAINERS: ReadonlyArray<[container: string, at: string]> = [
  ['fridge_1', 'fridge_1'],
  ['cabinet_1', 'cabinet_1'],
  ['microwave_1', 'counter_3'],
];
/** Second places per first place in the two-place views. */
const MOVES_PER_PLACE = 3;

export interface View {
  world: WorldSpec;
  /** The view's part of case ids ("counter_1", "counter_1>sink_1", "fridge_1+open"). */
  env: string;
  /** Where the robot stands at the first picture ('' before a tabletop). */
  at: string;
  /** The robot's steps between its two pictures; empty: one picture. */
  between: PlanStep[];
  /** A tabletop (the ALRM tools) rather than the kitchen (the household tools). */
  table: boolean;
}

export interface Look extends View {
  /** The world at the request (after the steps), with the first picture's items that left the view. */
  info: WorldInfo;
  refs: PictureRef[];
}

/** Every view of the suite (the self-tests' small set: a few of each kind). */
export function imageViews(small: boolean): View[] {
  const places = small ? ['counter_1', 'stove_1', 'dining_table_1'] : IMAGE_PLACES;
  const one: View[] = places.map((at) => ({ world: kitchen(at), env: at, at, between: [], table: false }));
  const tables: View[] = (small ? TABLETOPS.slice(0, 1) : TABLETOPS).map((scene) => ({
    world: { key: scene, scene, edits: [], setup: [] },
    env: scene.split('/')[1]!,
    at: '',
    between: [],
    table: true,
  }));
  const moves: View[] = places.flatMap((at) =>
    IMAGE_PLACES.filter((b) => b !== at)
      .sort((x, y) => hash32(`move${at}${x}`) - hash32(`move${at}${y}`))
      .slice(0, small ? 1 : MOVES_PER_PLACE)
      .map((to) => ({ world: kitchen(at), env: `${at}>${to}`, at, between: [step('move_to', { location: to })], table: false })),
  );
  const opens: View[] = (small ? CONTAINERS.slice(0, 1) : CONTAINERS).map(([c, at]) => ({
    world: kitchen(at),
    env: `${c}+open`,
    at,
    between: [step('open', { object: c })],
    table: false,
  }));
  return [...one, ...tables, ...moves, ...opens];
}

/**
 * A generator context whose worlds have had the view's steps played: what the
 * request's world is. The steps are played once per world and the state after
 * them kept as a snapshot (a drive is most of a check's cost); a restore is the
 * state the steps leave, as the world pool's own snapshots are.
 */
export function afterSteps(ctx: GenerateContext, between: readonly PlanStep[]): GenerateContext {
  if (!between.length) return ctx;
  const after = new Map<string, WorldSnapshot>();
  return {
    ...ctx,
    inWorld: (spec, fn) =>
      ctx.inWorld(spec, async (w) => {
        const kept = after.get(spec.key);
        if (kept) w.control.restore(kept);
        else {
          const played = await playPlan(w.robot, w.control, BETWEEN_SET, between);
          if (!played.ok) throw new Error(`the steps between the pictures failed in ${spec.key}: ${played.played.at(-1)?.result.content}`);
          after.set(spec.key, w.control.snapshot());
        }
        return fn(w);
      }),
  };
}

const movable = (w: WorldInfo): ObjInfo[] => [...w.visible.values()].filter((o) => !o.fixed);

/** What the robot sees in a view, and the items its picture(s) single out; undefined when its steps fail. */
export async function look(ctx: GenerateContext, v: View): Promise<Look | undefined> {
  return ctx.inWorld(v.world, async ({ robot, control }) => {
    const before = await readWorld(v.world.scene, v.at, robot, control);
    const first = pictureOf(control, movable(before));
    if (!v.between.length) return { ...v, info: before, refs: pictureRefs(first.layout) };
    if (!(await playPlan(robot, control, BETWEEN_SET, v.between)).ok) return undefined;
    const at = control.world.body.at ?? v.at;
    const after = await readWorld(v.world.scene, at, robot, control);
    const second = pictureOf(control, movable(after));
    const info = { ...after, visible: new Map([...before.visible, ...after.visible]) };
    return { ...v, info, refs: twoPictureRefs(first, second) };
  });
}
