// skillbridge run: a conversation with a model driving the simulated robot
// through a workflow. One message as an argument, or turns read from stdin.
// Prints the conversation as it happens; every turn is traced to JSONL.
import type { OpenedSim } from '../../../robot/sim/open';
import { readFailure, readUserTextSync } from '../../../base/user-file';
import { z } from 'zod';
import { join } from 'node:path';
import { ConversationSpecError, openConversation } from '../../../agents/conversation';
import type { ApprovalGate } from '../../../agents/runtime/approval';
import type { Conversation, RunInfo, TurnResult } from '../../../agents/runtime/conversation';
import type { FlowEvent } from '../../../agents/runtime/events';
import type { FlowLimits } from '../../../agents/runtime/flow';
import { JsonlSink, newRunId } from '../../../agents/runtime/trace';
import { type Elicit, McpConnectError, type McpToolbox, connectMcpServers } from '../../../agents/tools/mcp/client';
import { McpConfigError, readMcpConfig } from '../../../agents/tools/mcp/config';
import { WORKFLOWS } from '../../../agents/workflows';
import { type ScriptedAnswer, simulatedUser } from '../../../agents/workflows/kit/simulated-user';
import { type Parsed, UsageError, intFlag, numberFlag, requireFlag, stringFlag } from '../args';
import { type Output, json } from '../output';
import { robotChoice } from '../robot-flag';
import { LineReader } from '../terminal';
import { checkWritableFile } from '../out-files';
import { referenceModelFactories } from '../../../eval/reference/factories';

const APPROVE = ['auto', 'ask', 'deny'] as const;
type ApproveMode = (typeof APPROVE)[number];

/** Where turn n's trace goes: the given file for turn 1, then FILE-turn2.jsonl… */
export function tracePathFor(base: string, turn: number): string {
  if (turn === 1) return base;
  return base.replace(/(\.jsonl)?$/, `-turn${turn}.jsonl`);
}

function short(text: string, max = 300): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** Prints flow events readably: streamed text, tool calls and results, warnings. */
function printer(o: Output, answers: unknown): (e: FlowEvent) => void {
  let inText = false;
  let inThought = false;
  // Reasoning is printed dim where the terminal shows colour, so the answer stands out.
  const dim = process.stdout.isTTY ? (s: string) => `\x1b[2m${s}\x1b[22m` : (s: string) => s;
  const endText = () => {
    if (inText || inThought) process.stdout.write('\n');
    inText = false;
    inThought = false;
  };
  // Multi-agent workflows name the stage of each line (router, planner, planner/executor, critic).
  const tag = (e: FlowEvent): string => (e.stage && e.stage !== 'agent' ? `[${e.stage}] ` : '');
  return (e) => {
    switch (e.type) {
      case 'reasoning':
        if (inText) endText();
        if (!inThought) process.stdout.write(dim('thinking: '));
        inThought = true;
        process.stdout.write(dim(e.delta));
        break;
      case 'route':
        o.out(`  [request classified as ${e.route}]`);
        break;
      case 'text':
        if (inThought) endText();
        if (!inText) process.stdout.write(`${tag(e)}model: `);
        inText = true;
        process.stdout.write(e.delta);
        break;
      case 'assistant':
        endText();
        break;
      case 'tool_start':
        endText();
        o.out(`  ${tag(e)}→ ${e.name}(${short(e.arguments, 200)})`);
        break;
      case 'tool_end':
        o.out(`  ${tag(e)}${e.ok ? '←' : '✗'} ${short(e.content)}  (${Math.round(e.durationMs)} ms)`);
        break;
      case 'note':
        endText();
        o.out(`  ${tag(e) || '[workflow] '}${short(e.text)}`);
        break;
      case 'code_run':
        endText();
        o.out(
          `  ${tag(e)}program ${e.id}: ${e.calls.length} call${e.calls.length === 1 ? '' : 's'}, ${e.ok ? 'ran to the end' : `ended: ${e.error?.kind ?? 'error'}`}`,
        );
        break;
      case 'approval':
        o.out(`  [approval: ${e.decision}${e.note ? ` — ${e.note}` : ''}]`);
        break;
      case 'warning':
        endText();
        o.out(`  ! ${e.code}: ${short(e.message, 200)}`);
        break;
      case 'safety':
        // Plain allows are in the trace; the terminal shows what the chain changed or stopped.
        if (e.verdict !== 'allow') o.out(`  [safety ${e.verdict}: ${short(e.reason, 200)}${e.answer ? ` — ${e.answer}` : ''}]`);
        break;
      case 'divergence':
        o.out(`  ≠ shadow: ${e.subject} — predicted ${short(e.predicted, 120)}, the robot reports ${short(e.actual, 120)}`);
        break;
      case 'retry':
        // The abandoned attempt's partial text stays on its own line; the next attempt starts a new one.
        endText();
        o.err(`  (retrying the model request in ${Math.round(e.delayMs)} ms: ${e.reason})`);
        break;
      case 'note':
        endText();
        o.out(`  [${e.stage || 'note'}] ${short(e.text, 300)}`);
        break;
      case 'ask':
        endText();
        if (answers) o.out(`  ? ${e.question}`);
        break;
      case 'answer':
        if (e.by !== 'person') o.out(`  ! ${e.by === 'none' ? '(nobody answered)' : `${e.answer}  (${e.by})`}`);
        break;
      case 'stop':
        endText();
        o.out(`  ■ stopped: ${e.cause.message}`);
        break;
      case 'final':
        endText();
        break;
      case 'error':
        endText();
        o.err(`  error: ${e.message}`);
        break;
      default:
        break;
    }
  };
}

const AnswersSchema = z.array(z.union([z.string(), z.strictObject({ when: z.string().min(1), answer: z.string() })]));

/** --answers FILE: the simulated person's answers, validated; a bad file is one line naming the problem. */
function readAnswers(file: string): ScriptedAnswer[] {
  let text: string;
  try {
    text = readUserTextSync(file);
  } catch (e) {
    throw new UsageError(`--answers: cannot read ${file}: ${readFailure(e)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (e) {
    throw new UsageError(`--answers: cannot read ${file} as JSON: ${(e as Error).message}`);
  }
  const r = AnswersSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new UsageError(
      `--answers: ${file}${issue.path.map((k) => `[${String(k)}]`).join('')}: ${issue.message}; give a JSON list of answers, or of {"when": "word", "answer": "text"}`,
    );
  }
  return r.data;
}

/**
 * A y/N question on the terminal; reuses the interactive reader when there is one.
 * `tools` overrides the mode per tool (an external MCP server's acting tools ask by default).
 */
function approvalGate(
  mode: ApproveMode,
  ask: (q: string, signal?: AbortSignal) => Promise<string>,
  tools: Record<string, ApproveMode> = {},
): ApprovalGate {
  const needsAsk = mode === 'ask' || Object.values(tools).includes('ask');
  return {
    policy: { information: 'auto', action: mode, tools },
    ...(needsAsk ? { ask: askAtTerminal(ask) } : {}),
  };
}

function askAtTerminal(ask: (q: string, signal?: AbortSignal) => Promise<string>): NonNullable<ApprovalGate['ask']> {
  return async (req) => {
    const a = (await ask(`Approve ${req.tool}(${req.arguments})? [y/N] `, req.signal)).trim().toLowerCase();
    return a === 'y' || a === 'yes'
      ? { approved: true }
      : { approved: false, note: a && a !== 'n' && a !== 'no' ? a : 'not approved at the terminal' };
  };
}

/** A server's approval question (MCP elicitation), answered by the --approve policy or the person. */
function elicitAnswer(mode: ApproveMode, ask: (q: string, signal?: AbortSignal) => Promise<string>): Elicit {
  return async (q, signal) => {
    if (mode === 'deny') return { approved: false, note: 'actions are denied by --approve deny' };
    if (mode === 'auto') return { approved: true };
    const a = (await ask(`The MCP server "${q.server}" asks: ${q.message}\nApprove? [y/N] `, signal)).trim().toLowerCase();
    return a === 'y' || a === 'yes' ? { approved: true } : { approved: false, ...(a && a !== 'n' && a !== 'no' ? { note: a } : {}) };
  };
}

const COMMANDS = '/reset forgets the conversation (the scene stays as it is; start the command again for a fresh scene); /help shows this.';

/** Interactive-mode commands: a line starting with "/" is for the session, not the model. */
async function interactiveCommand(line: string, session: Conversation): Promise<string> {
  const cmd = line.replace(/\s+/g, ' ').trim().toLowerCase();
  if (cmd === '/reset') {
    await session.reset();
    return '(conversation cleared; the scene is as it was)';
  }
  if (cmd === '/help') return COMMANDS;
  return `unknown command "${line}". ${COMMANDS}`;
}

export async function runCommand(p: Parsed, o: Output): Promise<number> {
  // --seed also seeds a reference policy (floor:random) beside a real robot.
  // --urdf rosbridge --robot ws://…: the robot is only read (its own description); its twin acts in --scene.
  const twin = stringFlag(p.flags, 'urdf') !== undefined ? (await import('../urdf-flag')).twinOf(p.flags) : undefined;
  const choice = twin
    ? { form: { kind: 'sim' as const, scene: twin.scene, seed: intFlag(p.flags, 'seed', 1) }, label: twin.scene, acceptNoEstop: false }
    : robotChoice(p, process.env, { seedElsewhere: true });
  const sceneId = choice.label;
  const workflowId = stringFlag(p.flags, 'workflow') ?? 'rtw/basic';
  if (!WORKFLOWS.some((w) => w.id === workflowId)) {
    throw new UsageError(`--workflow: unknown workflow "${workflowId}"; workflows: ${WORKFLOWS.map((w) => w.id).join(', ')}`);
  }
  const spec = requireFlag(
    p.flags,
    'model',
    'e.g. --model ollama:qwen3:8b, --model openai:gpt-4.1-mini, --model openai-compatible:MODEL@http://127.0.0.1:8080/v1 or --model scripted:turns.json',
  );
  const approve = (stringFlag(p.flags, 'approve') ?? 'auto') as ApproveMode;
  if (!APPROVE.includes(approve)) throw new UsageError(`--approve must be one of ${APPROVE.join(', ')}, got "${approve}"`);
  const seed = intFlag(p.flags, 'seed', 1);
  const limits: Partial<FlowLimits> = {};
  if (p.flags['time-limit'] !== undefined) {
    const s = numberFlag(p.flags, 'time-limit', 20, { min: 0.1, max: 86_400, off: 0 });
    limits.timeLimitMs = s === 0 ? null : s * 1000;
  }
  if (p.flags['max-iterations'] !== undefined) limits.maxIterations = intFlag(p.flags, 'max-iterations', 12, { min: 1, max: 1000 });
  const asJson = Boolean(p.flags['json']);
  const message = p.positionals.join(' ').trim();

  const answersFile = stringFlag(p.flags, 'answers');
  const answers = answersFile ? readAnswers(answersFile) : undefined;
  const setFlag = stringFlag(p.flags, 'set');
  const traceBase = stringFlag(p.flags, 'trace') ?? join('traces', `${newRunId()}.jsonl`);
  checkWritableFile(traceBase, '--trace');
  const traces: string[] = [];

  // One reader owns stdin: turns, and questions that give up when their run stops (Ctrl-C, the time limit).
  let interrupt = (): void => undefined;
  const reader = new LineReader({ output: message ? process.stderr : process.stdout, onInterrupt: () => interrupt() });
  const askLine = (q: string, signal?: AbortSignal): Promise<string> => reader.ask(q, signal);

  // Tools from external MCP servers (--mcp FILE): started now, closed when the run ends.
  const mcpFile = stringFlag(p.flags, 'mcp');
  let toolbox: McpToolbox | undefined;
  if (mcpFile) {
    try {
      toolbox = await connectMcpServers(await readMcpConfig(mcpFile), { elicit: elicitAnswer(approve, askLine) });
    } catch (e) {
      reader.close();
      if (e instanceof McpConfigError || e instanceof McpConnectError)
        throw new UsageError(`--mcp ${mcpFile}: ${e.message.replace(`${mcpFile}: `, '')}`);
      throw e;
    }
    if (!asJson)
      o.out(`MCP tools: ${toolbox.tools.map((t) => `${t.name}${t.category === 'action' ? ' (acts)' : ''}`).join(', ') || 'none'}`);
  }

  // --urdf: the described robot in the scene's simulator, opened here (the conversation takes it open).
  const urdf = stringFlag(p.flags, 'urdf') !== undefined ? await import('../urdf-flag') : undefined;
  let described: OpenedSim | undefined;
  if (urdf) {
    const loaded = (await urdf.urdfRobotOrTwin(p.flags))!;
    try {
      const { openSim } = await import('../../../robot/sim/open');
      described = await openSim(sceneId, { seed, robot: loaded });
    } catch (e) {
      reader.close();
      await toolbox?.close();
      throw urdf.urdfRefusal(e) ?? e;
    }
    if (!asJson) for (const line of urdf.describeImport(loaded, described.control.world).lines) o.out(line);
  }

  let traceCount = 0;
  let opened;
  try {
    opened = await openConversation({
      robot: described ? described.robot : choice.form,
      ...(described ? { sim: described.control } : {}),
      ...(choice.acceptNoEstop ? { safety: { acceptNoEstop: true } } : {}),
      workflow: workflowId,
      ...(setFlag ? { toolSet: setFlag } : {}),
      model: spec,
      // The evaluation's reference policies are model specs here too (floor:noop, floor:random, floor:none).
      modelFactories: referenceModelFactories(),
      env: process.env,
      approval: approvalGate(approve, askLine, toolbox?.approvalOverrides(approve)),
      ...(toolbox ? { extraTools: toolbox.tools } : {}),
      limits,
      seed,
      scene: sceneId,
      // Numbered per process, not per conversation: a /reset must not reuse turn 1's file.
      traceSinks: (_run: RunInfo) => {
        const path = tracePathFor(traceBase, ++traceCount);
        traces.push(path);
        try {
          return [new JsonlSink(path)];
        } catch (e) {
          throw new UsageError(
            `--trace ${path}: cannot write the trace there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
          );
        }
      },
      askUser: answers
        ? simulatedUser({ answers })
        : async ({ question, signal }) => ({ answer: await askLine(`${question}\n> `, signal), by: 'person' }),
      ...(asJson ? {} : { onEvent: printer(o, answers) }),
    });
  } catch (e) {
    reader.close();
    described?.control.dispose();
    await toolbox?.close();
    if (e instanceof ConversationSpecError)
      throw new UsageError(e.field === 'robot' ? e.message : `--${e.field === 'toolSet' ? 'set' : e.field}: ${e.message}`);
    throw e;
  }
  const { conversation: session, sim } = opened;
  const workflow = session.workflow;
  const model = session.model;

  // Ctrl-C stops the running turn (model request and skill) instead of killing the process.
  const onSigint = () => {
    if (session.busy) session.stop('stopped from the terminal (Ctrl-C)');
    else process.exit(130);
  };
  interrupt = onSigint;
  process.on('SIGINT', onSigint);
  // SIGTERM: the running turn stops and its trace gets its stop and end records before the process ends.
  let terminated = false;
  const onSigterm = () => {
    terminated = true;
    if (session.busy) session.stop('stopped: the process received SIGTERM');
    else process.exit(143);
  };
  process.on('SIGTERM', onSigterm);

  const report = (r: TurnResult): void => {
    if (asJson) return;
    if (r.reason === 'final') o.out(`\nanswer: ${r.final ?? ''}`);
    else o.out(`\n(turn ended: ${r.reason}${r.error ? ` — ${r.error.message}` : ''})`);
    o.out(
      `trace: ${traces[traces.length - 1] ?? '(none)'}  [${r.iterations} model turns, ${r.toolCallsRun} tool calls, ${r.usage.totalTokens} tokens]`,
    );
  };

  let last: TurnResult | undefined;
  let failed = false;
  try {
    if (message) {
      if (!asJson) o.out(`you: ${message}`);
      last = await session.send(message);
      report(last);
    } else {
      if (!asJson && process.stdin.isTTY)
        o.out(`${workflow.title} on ${sceneId} with ${model.id}. Type a message; /help lists commands; an empty line or Ctrl-D ends.`);
      while (!terminated) {
        if (process.stdin.isTTY) process.stdout.write('you: ');
        const line = await reader.next();
        if (line === null) break;
        const text = line.trim();
        if (!text) break;
        if (text.startsWith('/')) {
          if (!asJson) o.out(await interactiveCommand(text, session));
          continue;
        }
        last = await session.send(text);
        report(last);
        if (last.reason === 'model_error' || last.traceError) break;
      }
    }
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    reader.close();
  }
  // The operator's view of the world after the run, then the world goes.
  const facts = sim?.facts() ?? [];
  await opened.close();
  described?.control.dispose();
  await toolbox?.close();
  // A run whose trace could not be written was stopped there: one line, exit 1.
  if (last?.traceError) {
    if (asJson) json(o, { error: { code: 'trace', message: last.traceError } });
    else o.err(`skillbridge: ${last.traceError}`);
    return 1;
  }
  if (last?.reason === 'model_error') {
    failed = true;
    const fix =
      last.error?.kind === 'unreachable' ? ' Start the model server, or choose another with --model (see "skillbridge help").' : '';
    o.err(`skillbridge: the model failed: ${last.error?.message ?? 'unknown error'}${fix}`);
  }
  if (asJson) {
    json(o, {
      trace: traces[traces.length - 1] ?? null,
      traces,
      final: last?.final ?? null,
      reason: last?.reason ?? null,
      facts,
    });
  }
  return terminated ? 143 : failed ? 3 : 0;
}
