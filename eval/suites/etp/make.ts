// What every ETP case generator shares: the tool groups a case offers, the
// kitchen places it stands at, the world spec of a place, a case from its parts,
// and the stable orders distractors and candidates are drawn in.
import type { PlanStep, WorldSpec } from '../../core/case';
import type { CaseOf } from '../../core/suite';
import { hash32 } from '../../reference/rng';
import type { EtpGold } from './gold';

export const HOUSEHOLD = [
  'robot_holding',
  'object_detection',
  'dist_to_target',
  'get_obj_state',
  'check_obj_relationship',
  'get_obj_properties',
];
export const ACTION_TOOLS = ['pick', 'place', 'move_to', 'open', 'close', 'turnon', 'turnoff', 'slice', 'say'];
export const ALRM = ['get_objects', 'get_reference_names', 'get_pose', 'compute_grasp', 'pick', 'place', 'move_to_home_pos'];
export const PLACES = ['counter_1', 'fridge_1', 'counter_2', 'sink_1', 'stove_1', 'counter_3', 'dining_table_1'];
export const step = (tool: string, args: Record<string, unknown> = {}): PlanStep => ({ tool, args });

export type Case = CaseOf<EtpGold>;
const blank = {
  needTrue: null,
  tool: null,
  toolArgs: null,
  argNames: {},
  next: null,
  chainSet: [],
  order: [],
  plan: [],
  goalFacts: [],
  answerNames: [],
  between: [],
} as const;

export function kitchen(at: string, tag = '', setup: WorldSpec['setup'] = []): WorldSpec {
  return { key: `etp/kitchen/${at}${tag}`, scene: 'kitchen', edits: [{ kind: 'robot', at }], setup };
}

export function mk(
  id: string,
  world: WorldSpec,
  instruction: string,
  labels: Record<string, string>,
  gold: Omit<EtpGold, keyof typeof blank> & Partial<EtpGold>,
): Case {
  return {
    id,
    suite: 'etp',
    world,
    instruction,
    labels: { scene: world.scene, ...labels },
    limits: { maxIterations: 14 },
    gold: { ...blank, argNames: {}, order: [], chainSet: [], plan: [], goalFacts: [], answerNames: [], between: [], ...gold } as EtpGold,
  };
}

/** Three distractors for a tool: same-dimension neighbours first, picked by a stable hash. */
export function distractors(right: string, pool: readonly string[], salt: string): string[] {
  return pool
    .filter((t) => t !== right)
    .sort((a, b) => hash32(`${salt}${a}`) - hash32(`${salt}${b}`))
    .slice(0, 3);
}

export function shuffled(xs: string[], salt: string): string[] {
  return [...xs].sort((a, b) => hash32(`${salt}${a}`) - hash32(`${salt}${b}`));
}

/** The names each argument that holds `id` goes by: the gold a call's arguments are matched against, exactly. */
export function objectArgs(args: Record<string, unknown>, id: string, names: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(args)
      .filter(([, v]) => v === id)
      .map(([k]) => [k, [...names]]),
  );
}
