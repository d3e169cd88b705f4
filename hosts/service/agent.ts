// The agent side of the session service: runs a workflow's flow on the robot the
// service already holds (the same world the console and the view use), streams
// what happens as run events, asks the person through approval requests, and
// keeps each run's trace (a JSONL file when a traces folder is set, and in
// memory for export). Mirrors hosts/cli/commands/run.ts.
import { readUserText } from '../../base/user-file';
import { join } from 'node:path';
import { AppApiError, type Request, type Response } from '../../contract/api';
import type { AppEvent, RunEndReason, RunEvent } from '../../contract/schemas';
import { ModelError } from '../../agents/models/model';
import { createModel } from '../../agents/models/spec';
import type { TraceImageId, TraceRef } from '../../base/host-refs';
import type { HostModel } from './host-policy';
import type { Robot } from '../../robot/robot';
import type { ApprovalAnswer, ApprovalGate } from '../../agents/runtime/approval';
import type { SafetyOptions } from '../../agents/runtime/safety';
import type { FlowEvent } from '../../agents/runtime/events';
import { ConversationSpecError, openConversation } from '../../agents/conversation';
import type { AskUser, Conversation as AgentSession, TurnResult } from '../../agents/runtime/conversation';
import { MemorySink, TRACE_MAX_BYTES, type TraceLine, TraceFormatError, parseTrace, traceNotes } from '../../agents/runtime/trace';
import { WORKFLOWS, createWorkflow } from '../../agents/workflows';
import { detectOllama, probeModelSpec } from './model-checks';
import { runEventOf } from './run-events';
import { runPicture } from './run-pictures';

export interface AgentHostOptions {
  /** Each run's JSONL trace goes here (`<runId>.jsonl`); none when unset. */
  traceDir?: string;
  /** Ollama's OpenAI-compatible endpoint, for detection. */
  ollamaURL?: string;
  emit: (event: AppEvent) => void;
  /** Ids of objects, people and places that tool arguments name. */
  targetsOf: (args: unknown) => string[];
  /** Wakes a paced skill so it sees an abort at once. */
  wake: () => void;
  /** Called after a tool call ends (the service re-publishes poses). */
  afterTool: () => void;
}

interface Conversation {
  key: string;
  robot: Robot;
  session: AgentSession;
  /** Shadow mode's predictor the conversation's safety chain consults (serve --robot). */
  predictor: SafetyOptions['predictor'];
}

interface Running {
  runId: string;
  session: AgentSession;
  done: Promise<TurnResult | undefined>;
}

const KEEP_TRACES = 20;

/** A run request as the host policy parsed it: its model with the options (keys, file grant) it is built with. */
export type ParsedRun = Omit<Request<'run'>, 'model' | 'script'> & { model: HostModel };

export class AgentHost {
  private conversation: Conversation | undefined;
  private running: Running | undefined;
  private starting = false;
  private readonly approvals = new Map<string, (a: ApprovalAnswer) => void>();
  /** Questions the running workflow put to the person, by `${runId}/${askId}`. */
  private readonly asks = new Map<string, (answer: string) => void>();
  private currentRun = '';
  private readonly traces = new Map<string, MemorySink>();
  private approvalIds = 0;
  /** Tool calls of the running turn that have started and not ended. */
  private callsInFlight = 0;
  /** Stop the run as soon as the running call has reported (the e-stop). */
  private stopAfterCall: string | undefined;
  private agentCallIds = 1_000_000;
  private lastNamed = '';

  constructor(private readonly opts: AgentHostOptions) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  async listWorkflows(robot: Robot): Promise<Response<'listWorkflows'>> {
    const out: Response<'listWorkflows'> = [];
    for (const w of WORKFLOWS) {
      let systemPrompt = '';
      try {
        systemPrompt = (await createWorkflow(w.id, robot)).systemPrompt(robot);
      } catch (e) {
        systemPrompt = `(this workflow cannot run on ${robot.info.name}: ${(e as Error).message})`;
      }
      out.push({
        id: w.id,
        title: w.title,
        paper: w.paper,
        section: w.section,
        source: w.source,
        stages: [...w.stages],
        description: w.description,
        systemPrompt,
      });
    }
    return out;
  }

  probe(model: HostModel): Promise<Response<'probeModel'>> {
    return probeModelSpec(model);
  }

  detect(): Promise<Response<'detectModels'>> {
    return detectOllama(this.opts.ollamaURL);
  }

  /** Starts a turn and returns at once; events follow. */
  async run(robot: Robot, req: ParsedRun, safety?: SafetyOptions): Promise<Response<'run'>> {
    if (this.running || this.starting) throw new AppApiError('busy', 'a run is already going: stop it or wait for it to finish');
    this.starting = true;
    try {
      return await this.start(robot, req, safety);
    } finally {
      this.starting = false;
    }
  }

  private async start(robot: Robot, req: ParsedRun, safety?: SafetyOptions): Promise<Response<'run'>> {
    const spec = req.model.spec;
    const setKey = req.toolSet ?? '';
    const key = `${req.workflow}|${spec}|${setKey}|${req.systemPrompt ?? ''}`;
    let conv = this.conversation;
    if (!conv || conv.key !== key || conv.robot !== robot || conv.predictor !== safety?.predictor || req.fresh) {
      let session;
      try {
        ({ conversation: session } = await openConversation({
          robot,
          workflow: req.workflow,
          ...(req.toolSet ? { toolSet: req.toolSet } : {}),
          // Built here: the host's key policy and script sources apply to what a page names (spec.ts).
          model: createModel(spec, req.model.options),
          ...(safety ? { safety } : {}),
          // An edited prompt replaces only the prompt: tools, limits and routing stay the workflow's.
          ...(req.systemPrompt ? { systemPrompt: req.systemPrompt } : {}),
          ...(this.opts.traceDir ? { traceDir: this.opts.traceDir } : {}),
          askUser: (q) => this.askPerson(q),
          traceSinks: (info) => {
            const sink = new MemorySink();
            this.lastNamed = info.runId;
            this.traces.set(info.runId, sink);
            while (this.traces.size > KEEP_TRACES) this.traces.delete(this.traces.keys().next().value!);
            return [sink];
          },
        }));
      } catch (e) {
        if (e instanceof ModelError) throw new AppApiError('invalid_request', e.message);
        if (e instanceof ConversationSpecError) {
          const known = WORKFLOWS.map((w) => w.id).join(', ');
          throw new AppApiError(
            'invalid_request',
            e.field === 'workflow' ? `unknown workflow "${req.workflow}"; workflows: ${known}` : e.message,
          );
        }
        throw e;
      }
      conv = { key, robot, session, predictor: safety?.predictor };
      this.conversation = conv;
    }
    const session = conv.session;
    let runId = '';
    const send = (event: RunEvent): void => this.opts.emit({ type: 'run', event });
    const callArgs = new Map<string, { args: unknown; targets: string[]; activityId: number }>();
    const onEvent = (e: FlowEvent): void => {
      const event = runEventOf(e, runId);
      if (event) send(event);
      // The view outlines what an agent's call acts on, as it does for the console's.
      if (e.type === 'tool_start' && event?.kind === 'tool_call') {
        this.callsInFlight++;
        const targets = this.opts.targetsOf(event.args);
        const activityId = ++this.agentCallIds;
        callArgs.set(e.id, { args: event.args, targets, activityId });
        this.opts.emit({
          type: 'tool_activity',
          phase: 'start',
          callId: activityId,
          tool: e.name,
          args: event.args,
          targets,
          ok: null,
          source: 'agent',
        });
      } else if (e.type === 'tool_end') {
        const c = callArgs.get(e.id);
        if (c)
          this.opts.emit({
            type: 'tool_activity',
            phase: 'end',
            callId: c.activityId,
            tool: e.name,
            args: c.args,
            targets: c.targets,
            ok: e.ok,
            source: 'agent',
          });
        this.opts.afterTool();
        this.callsInFlight = Math.max(0, this.callsInFlight - 1);
        if (this.stopAfterCall !== undefined && this.callsInFlight === 0) this.stop(this.stopAfterCall);
      }
    };
    const done = session.send(req.message, { onEvent, approval: this.gate(req.approval ?? 'auto', () => runId) });
    // send() names the run synchronously (its trace sinks are made before the first await).
    runId = this.lastNamed;
    this.currentRun = runId;
    const tracePath = this.opts.traceDir ? join(this.opts.traceDir, `${runId}.jsonl`) : null;
    send({ kind: 'started', runId, message: req.message, workflow: req.workflow, model: spec, tracePath });
    const running: Running = {
      runId,
      session,
      done: done.then(
        (r) => {
          send({
            kind: 'final',
            runId,
            text: r.final ?? '',
            reason: endReason(r.reason),
            detail:
              r.reason === 'model_error'
                ? (r.error?.message ?? 'the model failed')
                : r.reason === 'stopped'
                  ? (r.stopped?.message ?? 'stopped')
                  : r.reason,
            tracePath,
            iterations: r.iterations,
            toolCalls: r.toolCallsRun,
            usage: r.usage,
            durationMs: Math.round(r.durationMs),
          });
          return r;
        },
        (e: unknown) => {
          const message = e instanceof Error ? e.message : String(e);
          send({ kind: 'error', runId, message });
          send({
            kind: 'final',
            runId,
            text: '',
            reason: 'error',
            detail: message,
            tracePath,
            iterations: 0,
            toolCalls: 0,
            usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
            durationMs: 0,
          });
          return undefined;
        },
      ),
    };
    this.running = running;
    this.callsInFlight = 0;
    this.stopAfterCall = undefined;
    void running.done.finally(() => {
      if (this.running === running) this.running = undefined;
    });
    return { runId, tracePath };
  }

  private gate(mode: 'auto' | 'ask' | 'deny', runId: () => string): ApprovalGate {
    if (mode === 'auto') return { policy: { information: 'auto', action: 'auto' } };
    if (mode === 'deny') return { policy: { information: 'auto', action: 'deny' } };
    return {
      policy: { information: 'auto', action: 'ask' },
      ask: (req) =>
        new Promise<ApprovalAnswer>((resolve) => {
          const id = `approval-${++this.approvalIds}`;
          const finish = (a: ApprovalAnswer): void => {
            this.approvals.delete(id);
            resolve(a);
          };
          this.approvals.set(id, finish);
          // A stopped run drops its open question (the flow ends the wait itself).
          req.signal.addEventListener('abort', () => this.approvals.delete(id), { once: true });
          this.opts.emit({
            type: 'run',
            event: {
              kind: 'approval_request',
              runId: runId(),
              id,
              callId: req.callId,
              tool: req.tool,
              args: req.args,
              reason: `${req.tool} is an ${req.category} tool: it runs only when you approve`,
            },
          });
        }),
    };
  }

  /** The workflow asks the person: a run event `ask`, answered by answerAsk (a stopped run drops the question). */
  private askPerson(q: Parameters<AskUser>[0]): ReturnType<AskUser> {
    const id = `${this.currentRun}/${q.id}`;
    return new Promise((resolve, reject) => {
      this.asks.set(id, (answer) => {
        this.asks.delete(id);
        resolve({ answer, by: 'person' });
      });
      q.signal.addEventListener(
        'abort',
        () => {
          this.asks.delete(id);
          reject(q.signal.reason instanceof Error ? q.signal.reason : new Error('the run was stopped'));
        },
        { once: true },
      );
      this.opts.emit({ type: 'run', event: { kind: 'ask', runId: this.currentRun, id, question: q.question, stage: q.stage } });
    });
  }

  answerAsk(req: Request<'answerAsk'>): Response<'answerAsk'> {
    const finish = this.asks.get(req.id);
    if (!finish) return { ok: false, message: `no open question "${req.id}" (it was answered, or the run ended)` };
    finish(req.answer.trim());
    return { ok: true, message: 'answered' };
  }

  answer(req: Request<'answerApproval'>): Response<'answerApproval'> {
    const finish = this.approvals.get(req.id);
    if (!finish) return { ok: false, message: `no open approval request "${req.id}" (it was answered, or the run ended)` };
    const note = req.note?.trim();
    finish({ approved: req.decision === 'approve', ...(note ? { note } : {}) });
    return { ok: true, message: req.decision === 'approve' ? 'approved' : 'rejected' };
  }

  /**
   * The e-stop: the running skill sees it and reports it as its result, then the
   * run stops before the model is asked again; with no call running, at once.
   */
  stopAfterRunningCall(reason: string): void {
    if (!this.running) return;
    if (this.callsInFlight === 0) {
      this.stop(reason);
      return;
    }
    this.stopAfterCall = reason;
    this.opts.wake();
    // A call that never reports must not keep the run going.
    setTimeout(() => {
      if (this.stopAfterCall === reason) this.stop(reason);
    }, 2000).unref?.();
  }

  /** Stops the model request and the running skill at once. */
  stop(reason = 'stopped by the user'): Response<'stop'> {
    this.stopAfterCall = undefined;
    const r = this.running;
    if (!r) return { ok: false, message: 'no run is going' };
    r.session.stop(reason);
    this.opts.wake();
    return { ok: true, message: `stopping run ${r.runId}` };
  }

  /** Stops a run and waits for it to end (before the world is replaced). */
  async stopAndWait(reason: string): Promise<void> {
    const r = this.running;
    if (!r) return;
    r.session.stop(reason);
    this.opts.wake();
    await Promise.race([r.done, new Promise((res) => setTimeout(res, 3000))]);
  }

  /** Forgets the conversation (a new scene). */
  forget(): void {
    this.conversation = undefined;
  }

  async exportTrace(req: { runId: TraceRef }): Promise<Response<'exportTrace'>> {
    const name = `${req.runId}.jsonl`;
    const mem = this.traces.get(req.runId);
    if (mem) return { name, text: toJsonl(mem.lines) };
    if (this.opts.traceDir) {
      try {
        return { name, text: await readUserText(join(this.opts.traceDir, name), { maxBytes: TRACE_MAX_BYTES }) };
      } catch {
        // fall through
      }
    }
    throw new AppApiError('invalid_request', `no trace for run "${req.runId}" in this session`);
  }

  /** A picture a tool of a run of this session gave (run-pictures.ts says where it may be read). */
  async picture(runId: TraceRef, image: TraceImageId): Promise<Response<'getRunImage'>> {
    return runPicture(`run ${runId}`, image, {
      memory: this.traces.get(runId),
      file: this.opts.traceDir ? { dir: this.opts.traceDir, name: runId } : undefined,
      readRecords: async () => parseTrace((await this.exportTrace({ runId })).text, `the trace of run ${runId}`).records,
    });
  }

  importTrace(req: Request<'importTrace'>): Response<'importTrace'> {
    try {
      const t = parseTrace(req.text, 'imported trace');
      return { header: t.header, records: t.records, truncated: t.truncated !== undefined, notes: traceNotes(t) };
    } catch (e) {
      throw new AppApiError('invalid_request', e instanceof TraceFormatError ? e.message : `not a trace: ${(e as Error).message}`);
    }
  }
}

function endReason(r: TurnResult['reason']): RunEndReason {
  if (r === 'final') return 'done';
  if (r === 'stopped') return 'stopped';
  if (r === 'model_error') return 'error';
  return 'limit';
}

function toJsonl(lines: readonly TraceLine[]): string {
  return lines.map((l) => JSON.stringify(l)).join('\n') + (lines.length ? '\n' : '');
}
