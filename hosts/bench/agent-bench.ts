// The agent-runtime benchmark (skillbridge bench agent): what the flow manager,
// session and trace cost per turn once model time and tool execution are taken
// out, for sessions of 1, 20 and 200 turns, with a scripted model (in process)
// and through the real openai client against a local server on 127.0.0.1.
// Also tool dispatch latency (validation + call) and trace write cost.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Completion, CompletionRequest, Model } from '../../agents/models/model';
import { createOpenAICompatibleModel } from '../../agents/models/openai-compatible';
import { openSimRobot } from '../../robot/sim/open';
import type { Robot } from '../../robot/robot';
import { Conversation } from '../../agents/runtime/conversation';
import { loopWorkflow } from '../../agents/workflows/kit/loop';
import { JsonlSink, Trace } from '../../agents/runtime/trace';
import { spareStats } from '../../agents/runtime/trace-files';
import type { Tool } from '../../agents/tools/tool';
import { buildToolSet } from '../../agents/tools/sets';
import { round } from '../../sim/math';
import { Worker } from 'node:worker_threads';
import type { ScriptStep } from '../../test/support/openai-server';
import { benchLocalModel, type LocalModelBench } from './agent-local';
import { benchTextParse, type TextParseRow } from './text-parse-bench';
import { type AgentPeersResult, benchAgentPeers } from './agent-peers';
import { type TurnCauses, TurnWatch } from './turn-causes';
import { runQueueWaitMs } from './preemption';

export interface Dist {
  median: number;
  p99: number;
}

export interface AgentRunBench {
  model: 'scripted' | 'local-server';
  turns: number;
  perTurnMs: Dist;
  /** Wall time per turn including the model and the tool, for scale. */
  wallPerTurnMs: Dist;
  /** What ran in the turns: GC, trace file calls, preemption (turn-causes.ts). */
  causes: TurnCauses;
  /** Turns whose trace file was a spare made ahead and renamed, and those that created theirs (trace-files.ts). */
  traceFiles: { spare: number; created: number };
}

export interface AgentBenchResult {
  node: string;
  cpus: number;
  target: string;
  /** Over every turn of every scripted run: the headline figure. */
  perTurnMs: Dist;
  /**
   * The p99 goal (≤ 2 ms), checked on `perTurnMs.p99`: wall time over every scripted turn, none left out.
   * Beside it, the same turns' p99 with the time each waited for a core taken out: what is ours when other processes share the machine (null where the kernel does not say).
   */
  goal: { p99Ms: number; met: boolean; ownP99Ms: number | null; ownMet: boolean | null };
  runs: AgentRunBench[];
  toolDispatchMs: { validateOnly: Dist; cheapTool: Dist; invalidArgs: Dist };
  traceWriteUs: { perRecord: Dist; recordsPerSecond: number };
  /** The text-tool-call parser on adversarial replies. */
  textParse: TextParseRow[];
  /** The same conversation through the raw fetch floor, our runtime, the openai SDK's loop and the Agents SDK. */
  peers: AgentPeersResult;
  /** The built-in local provider on the tiny generated model (agent-local.ts). */
  localModel: LocalModelBench;
}

const now = () => performance.now();

function dist(xs: number[]): Dist {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
  return { median: round(at(50), 4), p99: round(at(99), 4) };
}

/** Times spent inside the model and inside tools, so the runtime's own share can be isolated. */
class Clock {
  model = 0;
  tools = 0;
  /** Time the thread waited for a core inside the model and the tools (not the runtime's). */
  queuedOutside = 0;
}

/** Run-queue wait now, 0 where the kernel does not say (TurnWatch then reports the figure as unknown). */
const queuedNow = (): number => runQueueWaitMs() ?? 0;

function timedModel(inner: Model, clock: Clock): Model {
  return {
    id: inner.id,
    async complete(req: CompletionRequest): Promise<Completion> {
      const t = now();
      const q = queuedNow();
      try {
        return await inner.complete(req);
      } finally {
        // Read before the clock stops, so the read is the model's or tool's time, not the runtime's.
        const q1 = queuedNow();
        clock.model += now() - t;
        clock.queuedOutside += q1 - q;
      }
    },
  };
}

function timedTool(t: Tool, clock: Clock): Tool {
  return {
    ...t,
    async run(args, ctx) {
      const s = now();
      const q = queuedNow();
      try {
        return await t.run(args, ctx);
      } finally {
        // Read before the clock stops, so the read is the model's or tool's time, not the runtime's.
        const q1 = queuedNow();
        clock.tools += now() - s;
        clock.queuedOutside += q1 - q;
      }
    },
    async call(raw, ctx) {
      const p = t.parse(raw);
      if (!p.ok) return { ok: false, content: p.message };
      return this.run(p.args, ctx);
    },
  };
}

/**
 * Each turn: one call to a cheap information tool, then a short answer. The
 * replies are made ready, not parsed from a script: the model's own work and
 * garbage stay out of the runtime's figures (a scripted model also keeps every
 * request, whose copied histories grow with the square of the turns and made
 * the young-generation GC in the turns slow). Each reply comes on the event
 * loop's next turn, as any model's does (its answer arrives by I/O): a model
 * answering within the same task would run 200 turns without the event loop
 * ever turning, which no real model allows (the next turn's trace file, made
 * ahead on the thread pool, could then never arrive). The time of that hop is
 * model time, as a real model's wait is.
 */
function scriptedBenchModel(): Model {
  let iter = 0;
  return {
    id: 'scripted',
    async complete(): Promise<Completion> {
      await new Promise((r) => setImmediate(r));
      const i = iter++;
      if (i % 2 === 1) return { message: { role: 'assistant', content: 'Done.' }, toolCalls: [], finishReason: 'stop' };
      const call = { id: `c${i}`, type: 'function' as const, function: { name: 'get_reference_names', arguments: '{}' } };
      return {
        message: { role: 'assistant', content: null, tool_calls: [call] },
        toolCalls: [call],
        finishReason: 'tool_calls',
        toolCallSource: 'native',
      };
    },
  };
}

async function runSession(
  robot: Robot,
  model: Model,
  turns: number,
  traceDir: string,
  label: AgentRunBench['model'],
): Promise<{ bench: AgentRunBench; overheads: number[]; own: number[] | null }> {
  const clock = new Clock();
  const tools = (await buildToolSet('alrm', robot)).list().map((t) => timedTool(t, clock));
  const session = new Conversation({
    model: timedModel(model, clock),
    robot,
    workflow: loopWorkflow({
      id: 'bench',
      title: 'bench',
      description: 'bench',
      systemPrompt: () => 'You are a benchmark.',
      tools: () => tools,
      limits: { timeLimitMs: null },
    }),
    traceDir,
  });
  const overheads: number[] = [];
  const walls: number[] = [];
  const watch = new TurnWatch();
  const files0 = { ...spareStats };
  for (let i = 0; i < turns; i++) {
    clock.model = 0;
    clock.tools = 0;
    clock.queuedOutside = 0;
    watch.begin();
    const t0 = now();
    const r = await session.send(`request ${i}`);
    const wall = now() - t0;
    const overhead = Math.max(0, wall - clock.model - clock.tools);
    watch.end(overhead, clock.queuedOutside);
    if (r.reason !== 'final') throw new Error(`bench turn ${i} ended with ${r.reason}: ${r.error?.message ?? ''}`);
    walls.push(wall);
    overheads.push(overhead);
  }
  const traceFiles = { spare: spareStats.taken - files0.taken, created: spareStats.created - files0.created };
  const causes = await watch.causes();
  return {
    bench: { model: label, turns, perTurnMs: dist(overheads), wallPerTurnMs: dist(walls), causes, traceFiles },
    overheads,
    own: watch.ownOverheads(),
  };
}

/** The test server in a worker thread (see model-server-worker.ts). */
async function startServerThread(steps: ScriptStep[]): Promise<{ url: string; close: () => Promise<void> }> {
  const w = new Worker(new URL('../service/worker-bootstrap.mjs', import.meta.url), {
    workerData: { entry: new URL('./model-server-worker.ts', import.meta.url).href, steps },
  });
  const url = await new Promise<string>((resolve, reject) => {
    w.once('error', reject);
    w.once('message', (m: { url: string }) => resolve(m.url));
  });
  return {
    url,
    close: async () => {
      w.postMessage('close');
      await Promise.race([new Promise((r) => w.once('exit', r)), new Promise((r) => setTimeout(r, 2000))]);
      await w.terminate();
    },
  };
}

export async function benchAgent(opts: { quick?: boolean; onProgress?: (l: string) => void } = {}): Promise<AgentBenchResult> {
  const say = opts.onProgress ?? (() => undefined);
  const robot = await openSimRobot('tabletop/fruits');
  const dir = mkdtempSync(join(tmpdir(), 'skillbridge-bench-agent-'));
  const runs: AgentRunBench[] = [];
  const scriptedOverheads: number[] = [];
  let scriptedOwn: number[] | null = [];
  const sizes = opts.quick ? [1, 20] : [1, 20, 200];
  try {
    // Warm-up: JIT, first trace file, first tool call.
    await runSession(robot, scriptedBenchModel(), 5, dir, 'scripted');
    for (const n of sizes) {
      const r = await runSession(robot, scriptedBenchModel(), n, dir, 'scripted');
      runs.push(r.bench);
      scriptedOverheads.push(...r.overheads);
      scriptedOwn = scriptedOwn && r.own ? [...scriptedOwn, ...r.own] : null;
      say(`scripted, ${n} turns: ${r.bench.perTurnMs.median} ms median overhead per turn`);
    }
    const steps = Array.from({ length: 2 * sizes.reduce((a, b) => a + b, 0) + 10 }, (_, i) =>
      i % 2 === 0 ? { toolCalls: [{ name: 'get_reference_names', arguments: {} }] } : { content: 'Done.' },
    );
    const server = await startServerThread([{ content: 'warm' }, ...steps]);
    try {
      // Warm-up: the openai SDK loads on the first request, and the first connection opens.
      await createOpenAICompatibleModel({ id: 'bench', baseURL: server.url, model: 'bench', stream: true }).complete({
        messages: [{ role: 'user', content: 'warm up' }],
      });
      for (const n of sizes) {
        const model = createOpenAICompatibleModel({ id: 'bench', baseURL: server.url, model: 'bench', stream: true });
        const r = await runSession(robot, model, n, dir, 'local-server');
        runs.push(r.bench);
        say(`local server, ${n} turns: ${r.bench.perTurnMs.median} ms median overhead per turn`);
      }
    } finally {
      await server.close();
    }

    // Tool dispatch: validation and call through the same entry point the runtime uses.
    const ctx = { robot, signal: new AbortController().signal, state: new Map<string, unknown>() };
    const alrm = await buildToolSet('alrm', robot);
    const cheap = alrm.get('get_reference_names')!;
    const pick = alrm.get('pick')!;
    const reps = opts.quick ? 300 : 2000;
    const validate: number[] = [];
    const cheapT: number[] = [];
    const invalid: number[] = [];
    for (let i = 0; i < reps; i++) {
      let t = now();
      pick.parse('{"object_name":"lemon_1"}');
      validate.push(now() - t);
      t = now();
      await cheap.call('{}', ctx);
      cheapT.push(now() - t);
      t = now();
      await pick.call('{"object": 3}', ctx);
      invalid.push(now() - t);
    }

    // Trace write cost: a realistic tool_result record, synchronously appended.
    const trace = new Trace({
      header: { runId: 'bench', scene: 'bench', workflow: 'bench', model: 'bench', seed: null },
      sinks: [new JsonlSink(join(dir, 'write.jsonl'))],
    });
    const per: number[] = [];
    const n = opts.quick ? 2000 : 20000;
    const t0 = now();
    for (let i = 0; i < n; i++) {
      const t = now();
      trace.record({
        type: 'tool_result',
        id: `c${i}`,
        name: 'pick',
        ok: true,
        status: 'ok',
        result: 'Success: picked up lemon_1 (lemon).',
        durationMs: 12,
      });
      per.push((now() - t) * 1000);
    }
    const total = now() - t0;
    trace.close();
    const peers = await benchAgentPeers({ robot, startServer: startServerThread, quick: Boolean(opts.quick), onProgress: say });
    const textParse = benchTextParse(opts.quick ? { quick: true } : {});
    say(`text-tool-call parser: ${Math.max(...textParse.map((r) => r.parseMs))} ms worst parse`);
    const perTurnMs = dist(scriptedOverheads);
    const ownP99Ms = scriptedOwn ? dist(scriptedOwn).p99 : null;
    return {
      node: process.version,
      cpus: (await import('node:os')).cpus().length,
      target: 'runtime overhead per turn, model and tool excluded: median ≤ 1 ms, p99 ≤ 2 ms',
      perTurnMs,
      goal: { p99Ms: perTurnMs.p99, met: perTurnMs.p99 <= 2, ownP99Ms, ownMet: ownP99Ms === null ? null : ownP99Ms <= 2 },
      runs,
      toolDispatchMs: { validateOnly: dist(validate), cheapTool: dist(cheapT), invalidArgs: dist(invalid) },
      traceWriteUs: { perRecord: dist(per), recordsPerSecond: Math.round((n * 1000) / total) },
      textParse,
      peers,
      localModel: await benchLocalModel(opts.quick ? { quick: true } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
