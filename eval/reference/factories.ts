// The reference policies as model specs — `oracle`, `floor:noop`, `floor:random`,
// `floor:none` — added to the conversation service through its model-factory
// hook, so agents/models never imports evaluation. Inside `skillbridge eval` the
// runner binds them to the case being run (the oracle's plan, the suite's trivial
// answer); any other host can use the floors as they are.
import type { ModelHostContext } from '../../agents/conversation';
import { type Model, ModelError } from '../../agents/models/model';
import type { ModelFactory } from '../../agents/models/spec';
import type { EvalCase } from '../core/case';
import type { AnySuite } from '../core/suite';
import { ADVERSARIES, CLAIM, cheatPolicy, sayPolicy, worldNames, wrongPolicy } from '../floors/adversaries';
import { SHAPES, branchPolicy, staticAnswerPolicy, verbOnlyPolicy } from '../floors/shapes';
import { answerPolicy, noopPolicy, policyModel, randomPolicy } from './policies';
import { hash32 } from './rng';

/** The floors: noop, random and none, then the adversarial ones and the named shapes (eval/floors/). */
export const FLOORS = ['noop', 'random', 'none', ...ADVERSARIES, ...SHAPES] as const;
export type FloorId = (typeof FLOORS)[number];

/** The case a reference model is playing, when the evaluation runner opened the conversation. */
export interface ReferenceBinding {
  suite: AnySuite;
  case: EvalCase;
  workflow: string;
  seed: number;
  trial: number;
}

/** Reference policies' model specs: `oracle` and every `floor:…`. */
export const REFERENCE_SPECS = ['oracle', ...FLOORS.map((f) => `floor:${f}`)] as const;

export function isReferenceSpec(spec: string): boolean {
  return (REFERENCE_SPECS as readonly string[]).includes(spec.trim().toLowerCase());
}

function needSim(ctx: ModelHostContext, spec: string) {
  if (!ctx.sim) throw new ModelError(`${spec} reads the simulator's ground truth; it runs on a simulated robot only`, 'config');
  return ctx.sim;
}

function adversary(rest: FloorId, b: ReferenceBinding | undefined, ctx: ModelHostContext) {
  const c = b ? { ...b.case, gold: b.suite.gold.parse(b.case.gold) } : undefined;
  const adv = b?.suite.adversary;
  const claim = c && adv?.claim ? adv.claim(c) : CLAIM;
  switch (rest) {
    case 'claim':
      return sayPolicy(() => claim);
    case 'constant':
      return sayPolicy(() => (c && adv?.constant ? adv.constant(c) : claim));
    case 'stuff':
      return sayPolicy(async (pctx) => {
        const names = await worldNames(pctx);
        return c && adv?.stuff ? adv.stuff(c, names) : `${claim} ${names.join(', ')}`;
      });
    case 'first-branch':
      return branchPolicy(false);
    case 'pack-ids':
      return branchPolicy(true);
    case 'static-answer':
      return staticAnswerPolicy();
    case 'verb-only':
      return verbOnlyPolicy();
    case 'do-everything':
      return c && b && adv?.everything ? adv.everything(c, b.workflow) : sayPolicy(() => claim);
    case 'wrong': {
      if (!b || !c)
        throw new ModelError('floor:wrong plays the oracle\'s tools on other objects: run it with "skillbridge eval"', 'config');
      needSim(ctx, 'floor:wrong');
      return wrongPolicy(b.suite.oracle(c, b.workflow), claim);
    }
    default:
      return cheatPolicy(claim);
  }
}

export function referenceModelFactories(binding?: () => ReferenceBinding | undefined): ModelFactory<ModelHostContext>[] {
  const oracle: ModelFactory<ModelHostContext> = {
    name: 'oracle',
    forms: ['oracle'],
    validate(rest) {
      if (rest) throw new ModelError(`Bad model spec "oracle:${rest}": the oracle takes no argument; write "oracle"`, 'config');
    },
    create(_rest, ctx): Model {
      const b = binding?.();
      if (!b)
        throw new ModelError(
          'the oracle plays the reference plan of an evaluation case, which it plans from ground truth: run it with "skillbridge eval --suite SUITE --model oracle"',
          'config',
        );
      const c = { ...b.case, gold: b.suite.gold.parse(b.case.gold) };
      return policyModel('oracle', b.suite.oracle(c, b.workflow), { control: needSim(ctx, 'oracle'), robot: ctx.robot });
    },
  };
  const floor: ModelFactory<ModelHostContext> = {
    name: 'floor',
    forms: FLOORS.map((f) => `floor:${f}`),
    validate(rest) {
      if (!(FLOORS as readonly string[]).includes(rest))
        throw new ModelError(`Bad model spec "floor:${rest}": floors are ${FLOORS.map((f) => `floor:${f}`).join(', ')}`, 'config');
    },
    create(rest, ctx): Model {
      const b = binding?.();
      const trivial = b ? b.suite.trivialAnswer({ ...b.case, gold: b.suite.gold.parse(b.case.gold) }) : 'none';
      const id = `floor:${rest}`;
      const pctx = { control: ctx.sim, robot: ctx.robot };
      switch (rest as FloorId) {
        case 'noop':
          return policyModel(id, noopPolicy(), pctx);
        case 'none':
          return policyModel(id, answerPolicy(trivial), pctx);
        case 'random': {
          const seed = hash32(`${b?.case.id ?? ctx.scene ?? ''}#${b?.trial ?? 1}#${b?.seed ?? ctx.seed ?? 1}`);
          return policyModel(id, randomPolicy(seed, trivial), pctx);
        }
        default:
          return policyModel(id, adversary(rest as FloorId, b, ctx), pctx);
      }
    },
  };
  return [oracle, floor];
}
