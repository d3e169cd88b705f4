// What a suite is: how its cases are generated from the world, how a finished
// case is scored from the final physical state and the order of events, the
// reference policies (the oracle's plan, the trivial answer of the floors), and
// the report spec it is described by. Suites live in eval/suites/<id>/.
import type { z } from 'zod';
import type { CompletionRequest } from '../../agents/models/model';
import type { ScriptedTurn } from '../../agents/models/scripted';
import type { FlowEvent } from '../../agents/runtime/events';
import type { TurnResult } from '../../agents/runtime/conversation';
import type { Workflow } from '../../agents/runtime/workflow';
import type { Robot } from '../../robot/robot';
import type { SimControl } from '../../robot/sim/control';
import type { SimRobot } from '../../robot/sim/sim-robot';
import type { SuiteReportSpec } from '../report/spec';
import type { EvalCase, WorldSpec } from './case';

/** A case whose gold has the suite's type. */
export type CaseOf<G> = Omit<EvalCase, 'gold'> & { gold: G };

/** What a generator may use: worlds built and restored as the runner does. */
export interface GenerateContext {
  /** Runs `fn` on the world `spec` describes, restored to its snapshot first (dry runs leave nothing behind). */
  inWorld<T>(spec: WorldSpec, fn: (w: { robot: SimRobot; control: SimControl }) => Promise<T>): Promise<T>;
  onProgress?(text: string): void;
  /**
   * A small set for the suites' self-tests: generators that search many worlds
   * (RAIDER) look at fewer places and keep a few cases per category.
   */
  small?: boolean;
}

/** How the case went, for scoring. */
export interface CaseOutcome {
  events: readonly FlowEvent[];
  /** The simulated time at which each event arrived (same index as events). */
  times: readonly number[];
  /** The main turn (the person's instruction). */
  turn: TurnResult;
  /** The world now (ground truth for the goal predicates). */
  control: SimControl;
  robot: Robot;
  /** What a suite's afterTurn hook found (RAIDER's recovery turn). */
  extra: Record<string, unknown>;
}

export type MetricValue = number | boolean | null;

export interface Scored {
  metrics: Record<string, MetricValue>;
  /** Counts as solved for pass^k; default: the headline score is 1. */
  success?: boolean;
  failureClass?: string | null;
}

/** A turn the reference policy plays (as a scripted model turn). */
export type PolicyTurn = ScriptedTurn;

export interface PolicyContext {
  /** The simulator (ground truth): the oracle reads it; undefined on a real robot, where only the floors run. */
  control: SimControl | undefined;
  robot: Robot;
}

/** The simulator of a policy's context; the oracle cannot plan without it. */
export function truthOf(ctx: PolicyContext): SimControl {
  if (!ctx.control) throw new Error('the oracle reads the simulator: it runs on a simulated robot only');
  return ctx.control;
}

/** A reference policy for one case: called for every model request of the case. */
export interface Policy {
  next(req: CompletionRequest, ctx: PolicyContext): PolicyTurn | Promise<PolicyTurn>;
}

/** A floor: a policy that should score low; the self-test fails when it climbs above `maxScore`. */
export interface FloorBound {
  floor: 'noop' | 'random' | 'none' | 'claim' | 'constant' | 'stuff' | 'wrong' | 'cheat';
  /** The most the floor may score (the headline, 0–1) on the self-test's sample. */
  maxScore: number;
}

/** What a suite tells the adversarial floors (eval/floors/): its phrasing of a claim, its most frequent label, its issue words. */
export interface SuiteAdversary<G = unknown> {
  /** A success claim in the suite's answer format (default: a generic claim). */
  claim?(c: CaseOf<G>): string;
  /** The suite's most frequent label as a final answer (default: the claim). */
  constant?(c: CaseOf<G>): string;
  /** An answer naming every name in `names` and every issue word the suite knows (default: the claim and the names). */
  stuff?(c: CaseOf<G>, names: readonly string[]): string;
  /** Every task the case's scene has, whatever the instruction asks (ALRM's do-everything shape); default: the claim. */
  everything?(c: CaseOf<G>, workflow: string): Policy;
}

export interface AfterTurnContext {
  case: EvalCase;
  /** Opens another turn in the same world (a new conversation on the same robot): RAIDER's recovery. */
  sendFresh(opts: { workflow: string; toolSet?: string; message: string; stage: string }): Promise<TurnResult>;
  events: readonly FlowEvent[];
  times: readonly number[];
  turn: TurnResult;
  extra: Record<string, unknown>;
}

/** The workflows and tool sets a suite's scores are defined for (./protocol.ts). */
export interface SuiteProtocol {
  /** Workflows the suite is defined for ("per-case": each case's own). */
  workflows: readonly string[];
  /** Tool sets its cases may run with. */
  toolSets: readonly string[];
}

export interface Suite<G = unknown> {
  id: string;
  title: string;
  /** Where it comes from, e.g. "RAIDER (paper 001) §4". */
  paper: string;
  report: SuiteReportSpec;
  /** The workflow a run uses unless told otherwise. */
  defaultWorkflow: string;
  /** Workflows the cases (and the oracle) fit; others run, but the oracle may not solve them. */
  workflows: readonly string[];
  /** The paper's setup (or the suite's own): other workflows run only with --off-protocol, marked. Default: `workflows`. */
  protocol?: SuiteProtocol;
  gold: z.ZodType<G>;
  generate(ctx: GenerateContext): Promise<Array<CaseOf<G>>>;
  /** Extra turns after the person's instruction (RAIDER's recovery from the explanation, §4.3). */
  afterTurn?(ctx: AfterTurnContext & { case: CaseOf<G> }): Promise<void>;
  score(c: CaseOf<G>, o: CaseOutcome): Scored | Promise<Scored>;
  /** The oracle: plans from ground truth and the case's gold. */
  oracle(c: CaseOf<G>, workflow: string): Policy;
  /** The trivial answer of floor:none (RAIDER: always "none"). */
  trivialAnswer(c: CaseOf<G>): string;
  floors: readonly FloorBound[];
  adversary?: SuiteAdversary<G>;
  /**
   * A case's own workflow, for suites whose cases each belong to one (RTW: TORO,
   * MAYA, AIMM); used when the run's workflow is "per-case" (their default).
   */
  caseWorkflow?(c: CaseOf<G>): string;
  /** Workflows the suite itself defines (ETP's candidate-set loop), built per case. */
  ownWorkflows?: Record<string, (c: CaseOf<G>, robot: Robot) => Promise<Workflow>>;
  /**
   * An optional free-text judge with the user's own model (--judge SPEC): the
   * question for one finished case, answered yes or no, recorded as `metric` (1/0)
   * beside the structural metrics, never in the headline. Undefined: nothing to judge.
   */
  judge?: { metric: string; prompt(c: CaseOf<G>, o: CaseOutcome): { system: string; user: string } | undefined };
  /** The row label for a workflow (RAIDER's BASIC, ALRM's TaP); null = the workflow id. */
  variant?(workflow: string): string | null;
}

/** The run's workflow when each case brings its own. */
export const PER_CASE = 'per-case';

/** Suites are generic over their gold; the runner holds them as this (methods are bivariant, so any Suite<G> fits). */
export type AnySuite = Suite<unknown>;
