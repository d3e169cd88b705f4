// skillbridge run: a conversation with a model driving the simulated robot
// through a workflow. One message as an argument, or turns read from stdin.
// Prints the conversation as it happens; every turn is traced to JSONL.
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { ConversationSpecError, openConversation } from '../../../agents/conversation';
import type { ApprovalGate } from '../../../agents/runtime/approval';
import type { Conversation, RunInfo, TurnResult } from '../../../agents/runtime/conversation';
import type { FlowEvent } from '../../../agents/runtime/events';
import type { FlowLimits } from '../../../agents/runtime/flow';
import { JsonlSink, newRunId } from '../../../agents/runtime/trace';
import { WORKFLOWS } from '../../../agents/workflows';
import { type Parsed, UsageError, intFlag, numberFlag, requireFlag, stringFlag } from '../args';
import { type Output, json } from '../output';
import { robotChoice } from '../robot-flag';

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
function printer(o: Output): (e: FlowEvent) => void {
  let inText = false;
  let inThought = false;
  // Reasoning is printed dim where the terminal shows colour, so the answer stands out.
  const dim = process.stdout.isTTY ? (s: string) => `\x1b[2m${s}\x1b[22m` : (s: string) => s;
  const endText = () => {
    if (inText || inThought) process.stdout.write('\n');
    inText = false;
    inThought = false;
  };
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
        if (!inText) process.stdout.write('model: ');
        inText = true;
        process.stdout.write(e.delta);
        break;
      case 'assistant':
        endText();
        break;
      case 'tool_start':
        endText();
        o.out(`  → ${e.name}(${short(e.arguments, 200)})`);
        break;
      case 'tool_end':
        o.out(`  ${e.ok ? '←' : '✗'} ${short(e.content)}  (${Math.round(e.durationMs)} ms)`);
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
        o.err(`  (retrying the model request in ${Math.round(e.delayMs)} ms: ${e.reason})`);
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

/** A y/N question on the terminal; reuses the interactive reader when there is one. */
function approvalGate(mode: ApproveMode, ask: (q: string) => Promise<string>): ApprovalGate {
  if (mode === 'auto') return { policy: { information: 'auto', action: 'auto' } };
  if (mode === 'deny') return { policy: { information: 'auto', action: 'deny' } };
  return {
    policy: { information: 'auto', action: 'ask' },
    ask: async (req) => {
      const a = (await ask(`Approve ${req.tool}(${req.arguments})? [y/N] `)).trim().toLowerCase();
      return a === 'y' || a === 'yes'
        ? { approved: true }
        : { approved: false, note: a && a !== 'n' && a !== 'no' ? a : 'not approved at the terminal' };
    },
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
  const choice = robotChoice(p);
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
    const s = numberFlag(p.flags, 'time-limit', 20);
    limits.timeLimitMs = s <= 0 ? null : s * 1000;
  }
  if (p.flags['max-iterations'] !== undefined) limits.maxIterations = intFlag(p.flags, 'max-iterations', 12);
  const asJson = Boolean(p.flags['json']);
  const message = p.positionals.join(' ').trim();

  const setFlag = stringFlag(p.flags, 'set');
  const traceBase = stringFlag(p.flags, 'trace') ?? join('traces', `${newRunId()}.jsonl`);
  const traces: string[] = [];

  const rl = message ? undefined : createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  const lines = rl?.[Symbol.asyncIterator]();
  const askLine = async (q: string): Promise<string> => {
    if (rl && lines) {
      process.stdout.write(q);
      const n = await lines.next();
      return n.done ? '' : String(n.value);
    }
    // One-shot run: read a single answer from stdin.
    const once = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return await new Promise<string>((resolve) => {
        once.question(q, resolve);
        once.once('close', () => resolve(''));
      });
    } finally {
      once.close();
    }
  };

  let traceCount = 0;
  let opened;
  try {
    opened = await openConversation({
      robot: choice.form,
      workflow: workflowId,
      ...(setFlag ? { toolSet: setFlag } : {}),
      model: spec,
      env: process.env,
      approval: approvalGate(approve, askLine),
      limits,
      seed,
      scene: sceneId,
      // Numbered per process, not per conversation: a /reset must not reuse turn 1's file.
      traceSinks: (_run: RunInfo) => {
        const path = tracePathFor(traceBase, ++traceCount);
        traces.push(path);
        return [new JsonlSink(path)];
      },
      askUser: async ({ question }) => ({ answer: await askLine(`${question}\n> `), by: 'person' }),
      ...(asJson ? {} : { onEvent: printer(o) }),
    });
  } catch (e) {
    rl?.close();
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
  process.on('SIGINT', onSigint);

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
      while (lines) {
        if (process.stdin.isTTY) process.stdout.write('you: ');
        const n = await lines.next();
        if (n.done) break;
        const text = String(n.value).trim();
        if (!text) break;
        if (text.startsWith('/')) {
          if (!asJson) o.out(await interactiveCommand(text, session));
          continue;
        }
        last = await session.send(text);
        report(last);
        if (last.reason === 'model_error') break;
      }
    }
  } finally {
    process.off('SIGINT', onSigint);
    rl?.close();
  }
  // The operator's view of the world after the run, then the world goes.
  const facts = sim?.facts() ?? [];
  await opened.close();
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
  return failed ? 3 : 0;
}
