// A workflow is a program over models and tools (the papers' "workflows"): each
// turn it runs `run(ctx)`, which may open flows (RAIDER's loop, ./flow) under
// named stages, hand a task to another agent through a tool, ask the person,
// leave notes in the trace, and interrupt a running call. Single-loop workflows
// (TORO, MAYA, AIMM, flat) are one flow; the seeds' multi-agent workflows
// (planner + executor, router + critic, recovery plans) compose several.
// The seams follow openai-agents-js (agents as tools, one concern per runner
// file) without its god objects: the context below is all a workflow gets.
import type { ChatMessage, ImagePart, Model } from '../models/model';
import type { Robot } from '../../robot/robot';
import type { CodeRun, InvokedResult, Tool, ToolCategory } from '../tools/tool';
import type { FlowReason } from './events';
import type { ClassifyResult, FlowLimits, FlowResult, FlowView, ToolChoice, ToolsFn } from './flow';

export interface FlowSpec {
  /** The stage name, relative to the caller ("executor" inside "planner" is "planner/executor"). */
  stage: string;
  /** Default: the conversation's model. */
  model?: Model;
  /**
   * Which conversation the flow runs in: `memory: true` is the stage's own history,
   * kept across turns (started with `system`); otherwise `messages` (appended in
   * place), or a fresh list of `system` and `input`.
   */
  memory?: boolean;
  messages?: ChatMessage[];
  system?: string;
  /** The user message for this flow; default the turn's request. */
  input?: string;
  /** Pictures that go with that message (a model that reads images sees them; others read the text only). */
  images?: ImagePart[];
  tools: readonly Tool[] | ToolsFn;
  limits?: Partial<FlowLimits>;
  toolChoice?: ToolChoice | ((view: FlowView) => ToolChoice | undefined);
  classify?: (req: { messages: readonly ChatMessage[]; signal: AbortSignal }) => Promise<ClassifyResult>;
  /** Warning 1's check for this flow (e.g. RAIDER's `final_response` JSON). */
  looksFinal?: (text: string) => boolean;
  /** A misspelt tool name that clearly means one offered tool runs it (RAIDER's fuzzy matching, paper 001 §4.1.2). */
  matchToolNames?: boolean;
  temperature?: number;
  /** Also ends the flow when this aborts (the signal of the tool that runs the flow). */
  signal?: AbortSignal;
}

export interface InvokeOptions {
  /** The stage the call is traced under (a full path, e.g. "recovery"). */
  stage: string;
  /** The call or program that made this call; the trace nests it there. */
  parent?: string;
  signal?: AbortSignal;
}

export interface AgentToolSpec {
  /** The tool name the calling model sees. */
  name: string;
  description: string;
  /** The sub-agent's stage, under the calling flow's stage. */
  stage: string;
  system: string;
  tools: readonly Tool[] | ToolsFn;
  model?: Model;
  limits?: Partial<FlowLimits>;
  looksFinal?: (text: string) => boolean;
  /** 'action' (default) when the sub-agent may move the robot, so approval policies apply to the hand-off. */
  category?: ToolCategory;
}

export interface WorkflowRun {
  readonly robot: Robot;
  readonly model: Model;
  /** The person's request for this turn. */
  readonly userText: string;
  /** Tool scratch space kept across turns (e.g. check_events' cursor). */
  readonly state: Map<string, unknown>;
  /** Aborts when the turn is stopped. */
  readonly signal: AbortSignal;
  /** A system prompt a person wrote for this conversation; replaces the workflow's main prompt. */
  readonly promptOverride: string | undefined;
  flow(spec: FlowSpec): Promise<FlowResult>;
  /** Asks the person (a dialog in the app, the terminal in the CLI, a simulated user in evaluation); `stage` for the trace. */
  askUser(question: string, stage?: string): Promise<string>;
  /** A line in the trace and the live view: a hand-off, a verdict, a plan. */
  note(text: string, data?: unknown, stage?: string): void;
  /** Another agent as a tool: its flow runs under `stage` with the task the caller writes. */
  agentTool(spec: AgentToolSpec): Tool;
  /** Interrupts the tool calls running now (not the turn); each returns with `reason` as its result. */
  preempt(reason: string): number;
  /**
   * Runs a tool for the program itself (a recovery plan's step, not a model's call): traced as a
   * tool call and result under `stage`, with approval, Stop and preemption like any call.
   */
  invoke(tool: Tool, args: unknown, o: InvokeOptions): Promise<InvokedResult>;
  /** Records a sandboxed program the workflow ran itself (a recovery plan); tools use `ToolContext.codeRun`. */
  codeRun(run: CodeRun, stage?: string): void;
}

export interface WorkflowOutcome {
  reason: FlowReason;
  final: string | undefined;
  error?: { message: string; kind?: string };
}

export interface Workflow {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** The stages a turn may run, in order (for listings and the trace view). */
  readonly stages: readonly string[];
  /** The main prompt, as shown to (and editable by) a person. */
  systemPrompt(robot: Robot): string;
  run(ctx: WorkflowRun): Promise<WorkflowOutcome>;
}

/** What a single loop's tools function sees at each iteration. */
export interface WorkflowContext extends FlowView {
  robot: Robot;
}
