// Our agent runtime beside its peers (skillbridge bench agent): the same scripted
// conversation (each turn: the model calls get_reference_names once, then
// answers "Done.") through a raw fetch loop (the floor: HTTP over loopback and the
// server), our Conversation, the openai SDK's own tool loop (chat.completions.
// runTools) and the OpenAI Agents SDK (Agent + run), all against the same local
// OpenAI-compatible server on its own thread, all non-streaming, all running the
// same tool. Frameworks take turns in rounds so a change in machine load falls on
// all of them alike. Overhead per turn is wall time minus the floor's median.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAICompatibleModel } from '../../agents/models/openai-compatible';
import { type PeerLoop, openaiAgentsLoop, openaiRunToolsLoop } from '../../agents/models/peer-loops';
import { Conversation } from '../../agents/runtime/conversation';
import { buildToolSet } from '../../agents/tools/sets';
import { loopWorkflow } from '../../agents/workflows/kit/loop';
import type { Robot } from '../../robot/robot';
import { round } from '../../sim/math';
import type { ScriptStep } from '../../test/support/openai-server';

export interface PeerDist {
  median: number;
  p99: number;
}

export type PeerName = 'raw-fetch' | 'skillbridge' | 'openai-runTools' | 'openai-agents';

export interface PeerRow {
  name: PeerName;
  /** What ran (package and version), or why it did not. */
  what: string;
  ran: boolean;
  turns: number;
  wallPerTurnMs: PeerDist | null;
  /** Wall per turn minus the raw-fetch floor's median wall per turn. */
  overheadPerTurnMs: PeerDist | null;
  /** CPU time of the process per turn (the server thread's included, the same for all) minus the floor's median: steadier than wall time on a loaded machine. */
  cpuOverheadPerTurnMs: PeerDist | null;
}

export interface AgentPeersResult {
  rounds: number;
  turnsPerRound: number;
  loadBefore: number;
  loadAfter: number;
  rows: PeerRow[];
  /** Our median overhead per turn over each peer's (goal: ≤ 1 against the SDK loop); null when the peer did not run. */
  ratios: { vsOpenAIRunTools: number | null; vsOpenAIAgents: number | null };
  /** The same ratios of CPU overhead per turn. */
  cpuRatios: { vsOpenAIRunTools: number | null; vsOpenAIAgents: number | null };
  target: string;
}

/** Two requests per turn: a tool call, then the answer. */
export const PEER_TURN_STEPS: ScriptStep[] = [{ toolCalls: [{ name: 'get_reference_names', arguments: {} }] }, { content: 'Done.' }];

const TOOL_NAME = 'get_reference_names';
const TOOL_DESCRIPTION = 'Names of the objects the robot knows.';
const SYSTEM = 'You are a benchmark.';
const MODEL = 'bench';

const now = () => performance.now();
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function dist(xs: number[]): PeerDist {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
  return { median: round(at(50), 3), p99: round(at(99), 3) };
}

/** One framework's conversation: `turn(i)` sends user message i and resolves when the answer "Done." is in. */
interface Runner extends PeerLoop {
  name: PeerName;
}

const peerSpec = (baseURL: string, runTool: () => Promise<string>) => ({
  baseURL,
  model: MODEL,
  system: SYSTEM,
  tool: { name: TOOL_NAME, description: TOOL_DESCRIPTION, run: runTool },
  expect: 'Done.',
});

function expectDone(name: string, content: string | null | undefined): void {
  if (content !== 'Done.') throw new Error(`${name}: a turn ended with ${JSON.stringify(content)} instead of the scripted answer`);
}

async function rawFetch(url: string, runTool: () => Promise<string>): Promise<Runner> {
  const messages: unknown[] = [{ role: 'system', content: SYSTEM }];
  const tools = [
    { type: 'function', function: { name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: { type: 'object', properties: {} } } },
  ];
  const post = async (): Promise<{ content: string | null; tool_calls?: Array<{ id: string; function: { name: string } }> }> => {
    const r = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
      body: JSON.stringify({ model: MODEL, messages, tools }),
    });
    const body = (await r.json()) as {
      choices: Array<{ message: { content: string | null; tool_calls?: Array<{ id: string; function: { name: string } }> } }>;
    };
    const m = body.choices[0]!.message;
    messages.push(m);
    return m;
  };
  return {
    name: 'raw-fetch',
    what: `fetch (Node ${process.version})`,
    async turn(i) {
      messages.push({ role: 'user', content: `request ${i}` });
      let m = await post();
      while (m.tool_calls?.length) {
        for (const c of m.tool_calls) messages.push({ role: 'tool', tool_call_id: c.id, content: await runTool() });
        m = await post();
      }
      expectDone('raw-fetch', m.content);
    },
  };
}

async function ours(url: string, robot: Robot, traceDir: string): Promise<Runner> {
  const tool = (await buildToolSet('alrm', robot)).get(TOOL_NAME)!;
  const session = new Conversation({
    model: createOpenAICompatibleModel({ id: MODEL, baseURL: url, model: MODEL, stream: false }),
    robot,
    workflow: loopWorkflow({
      id: 'bench',
      title: 'bench',
      description: 'bench',
      systemPrompt: () => SYSTEM,
      tools: () => [tool],
      limits: { timeLimitMs: null },
    }),
    traceDir,
  });
  return {
    name: 'skillbridge',
    what: 'Conversation (agents/runtime), trace written per turn',
    async turn(i) {
      const r = await session.send(`request ${i}`);
      if (r.reason !== 'final') throw new Error(`skillbridge: a turn ended with ${r.reason}`);
    },
  };
}

/** The same conversation through each framework; `startServer` gets the whole script up front. */
export async function benchAgentPeers(opts: {
  robot: Robot;
  startServer: (steps: ScriptStep[]) => Promise<{ url: string; close: () => Promise<void> }>;
  quick?: boolean;
  onProgress?: (line: string) => void;
}): Promise<AgentPeersResult> {
  const say = opts.onProgress ?? (() => undefined);
  const rounds = opts.quick ? 3 : 10;
  const turnsPerRound = opts.quick ? 5 : 20;
  const warmTurns = opts.quick ? 3 : 10;
  const names: PeerName[] = ['raw-fetch', 'skillbridge', 'openai-runTools', 'openai-agents'];
  const turnsEach = warmTurns + rounds * turnsPerRound;
  // Every framework consumes exactly two scripted answers per turn; extra for a failed one's leftovers.
  const steps = Array.from({ length: names.length * turnsEach + 8 }, () => PEER_TURN_STEPS).flat();
  const loadBefore = loadavg()[0] ?? 0;
  const server = await opts.startServer(steps);
  const dir = mkdtempSync(join(tmpdir(), 'skillbridge-bench-peers-'));
  const ctx = { robot: opts.robot, signal: new AbortController().signal, state: new Map<string, unknown>() };
  const tool = (await buildToolSet('alrm', opts.robot)).get(TOOL_NAME)!;
  const runTool = async (): Promise<string> => (await tool.call('{}', ctx)).content;
  const rows = new Map<PeerName, PeerRow>();
  const walls = new Map<PeerName, number[]>();
  const cpus = new Map<PeerName, number[]>();
  try {
    const runners: Runner[] = [];
    const makers: Record<PeerName, () => Promise<Runner>> = {
      'raw-fetch': () => rawFetch(server.url, runTool),
      skillbridge: () => ours(server.url, opts.robot, dir),
      'openai-runTools': () => Promise.resolve({ name: 'openai-runTools', ...openaiRunToolsLoop(peerSpec(server.url, runTool)) }),
      'openai-agents': async () => ({ name: 'openai-agents', ...(await openaiAgentsLoop(peerSpec(server.url, runTool))) }),
    };
    for (const n of names) {
      try {
        const r = await makers[n]();
        for (let i = 0; i < warmTurns; i++) await r.turn(i);
        runners.push(r);
        walls.set(n, []);
        cpus.set(n, []);
        rows.set(n, {
          name: n,
          what: r.what,
          ran: true,
          turns: 0,
          wallPerTurnMs: null,
          overheadPerTurnMs: null,
          cpuOverheadPerTurnMs: null,
        });
      } catch (e) {
        rows.set(n, {
          name: n,
          what: `did not run: ${(e as Error).message.split('\n')[0]}`,
          ran: false,
          turns: 0,
          wallPerTurnMs: null,
          overheadPerTurnMs: null,
          cpuOverheadPerTurnMs: null,
        });
      }
    }
    for (let round_ = 0; round_ < rounds; round_++) {
      for (const r of runners) {
        const w = walls.get(r.name)!;
        const c = cpus.get(r.name)!;
        for (let i = 0; i < turnsPerRound; i++) {
          const t0 = now();
          const c0 = cpuMs();
          await r.turn(warmTurns + round_ * turnsPerRound + i);
          w.push(now() - t0);
          c.push(cpuMs() - c0);
        }
      }
      say(`agent peers: round ${round_ + 1} of ${rounds}`);
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const floor = walls.get('raw-fetch');
  const floorMedian = floor?.length ? dist(floor).median : 0;
  const floorCpu = cpus.get('raw-fetch');
  const floorCpuMedian = floorCpu?.length ? dist(floorCpu).median : 0;
  for (const [n, w] of walls) {
    const row = rows.get(n)!;
    row.turns = w.length;
    row.wallPerTurnMs = dist(w);
    row.overheadPerTurnMs = floor?.length ? dist(w.map((x) => x - floorMedian)) : null;
    row.cpuOverheadPerTurnMs = floorCpu?.length ? dist(cpus.get(n)!.map((x) => x - floorCpuMedian)) : null;
  }
  const ratioOf = (key: 'overheadPerTurnMs' | 'cpuOverheadPerTurnMs', n: PeerName): number | null => {
    const a = rows.get('skillbridge')?.[key]?.median;
    const b = rows.get(n)?.[key]?.median;
    return a === undefined || b === undefined || !(b > 0) ? null : round(a / b, 2);
  };
  const ratio = (n: PeerName) => ratioOf('overheadPerTurnMs', n);
  const cpuRatio = (n: PeerName) => ratioOf('cpuOverheadPerTurnMs', n);
  return {
    rounds,
    turnsPerRound,
    loadBefore: round(loadBefore, 2),
    loadAfter: round(loadavg()[0] ?? 0, 2),
    rows: names.map((n) => rows.get(n)!),
    ratios: { vsOpenAIRunTools: ratio('openai-runTools'), vsOpenAIAgents: ratio('openai-agents') },
    cpuRatios: { vsOpenAIRunTools: cpuRatio('openai-runTools'), vsOpenAIAgents: cpuRatio('openai-agents') },
    target: 'our overhead per turn ≤ the openai SDK loop (ratio ≤ 1)',
  };
}
