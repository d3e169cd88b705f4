// The tool console: tools called by a person exactly as a model's calls run
// (same registry, same validation text), on the loaded robot, with the objects
// they name highlighted and a Stop for the calls in flight. With a real robot
// (serve --robot) every call acts on that robot through its safety chain (the
// person's click is the approval; the shadow predicts); the simulator never
// answers for it, not even when the robot cannot be reached.
import { jsonSafe } from '../../base/json';
import { type SafetyChain, runToolSafely } from '../../agents/runtime/safety';
import type { Robot } from '../../robot/robot';
import { AppApiError, type Request, type Response } from '../../contract/api';
import type { AppEvent, ToolInfo } from '../../contract/schemas';
import type { ToolRegistry } from '../../agents/tools/registry';
import { TOOL_SETS, buildToolSet, canonicalToolSet, findToolSet } from '../../agents/tools/sets';
import type { Tool, ToolResult } from '../../agents/tools/tool';
import type { SimControl } from '../../robot/sim/control';
import type { SimRobot } from '../../robot/sim/sim-robot';

/** The loaded world as the console sees it. */
export interface ConsoleWorld {
  robot: SimRobot;
  control: SimControl;
  /** The scene's default tool set. */
  toolSet: string;
}

/** A real robot the console's calls act on, and the chain they pass (serve --robot). */
export type RealActor = () => Promise<{ robot: Robot; chain: SafetyChain }>;

export class ToolConsole {
  private readonly sets = new Map<string, ToolRegistry>();
  private readonly realSets = new Map<string, ToolRegistry>();
  private readonly toolState = new Map<string, unknown>();
  private readonly inflight = new Map<number, { ctl: AbortController; done: Promise<unknown> }>();
  private callIds = 0;

  constructor(
    private readonly world: ConsoleWorld,
    private readonly emit: (e: AppEvent) => void,
    /** Re-publishes poses after a call. */
    private readonly afterCall: () => void,
    private readonly real?: RealActor,
  ) {}

  get busy(): boolean {
    return this.inflight.size > 0;
  }

  private async registry(setId: string | undefined, robot: Robot = this.world.robot): Promise<{ id: string; reg: ToolRegistry }> {
    const id = setId ?? this.world.toolSet;
    const sets = robot === this.world.robot ? this.sets : this.realSets;
    let reg = sets.get(id);
    if (!reg) {
      try {
        reg = await buildToolSet(id, robot);
      } catch (e) {
        throw new AppApiError('invalid_request', (e as Error).message);
      }
      sets.set(id, reg);
    }
    return { id, reg };
  }

  listToolSets(): Response<'listToolSets'> {
    const { robot, control } = this.world;
    const scene = control.world.scene.scene;
    // Former set names (planner-executor) count as the set they became.
    const named = [scene.toolSet, ...scene.toolSets].map(canonicalToolSet);
    const out: Response<'listToolSets'> = TOOL_SETS.map((def) => {
      const missing = def.requires.filter((c) => !robot.has(c));
      return {
        id: def.id,
        title: def.title,
        paper: def.paper,
        description: def.description,
        available: missing.length === 0,
        reason: missing.length ? `${robot.info.name} has no ${missing.join(', ')} capability` : null,
        isDefault: def.id === named[0],
      };
    });
    for (const id of named) {
      if (findToolSet(id) || out.some((s) => s.id === id)) continue;
      out.push({
        id,
        title: id,
        paper: '',
        description: 'Named by this scene but not defined in agents/tools/sets yet.',
        available: false,
        reason: `tool set "${id}" is not defined yet`,
        isDefault: id === scene.toolSet,
      });
    }
    // The scene's own sets first, in the order it names them.
    const rank = (id: string): number => (named.includes(id) ? named.indexOf(id) : named.length);
    return out.sort((a, b) => rank(a.id) - rank(b.id));
  }

  async listTools(req: Request<'listTools'>): Promise<ToolInfo[]> {
    return (await this.registry(req.set)).reg.list().map(toolInfo);
  }

  async callTool(req: Request<'callTool'>): Promise<Response<'callTool'>> {
    const { control } = this.world;
    let actor: Awaited<ReturnType<RealActor>> | undefined;
    if (this.real) {
      try {
        actor = await this.real();
      } catch (e) {
        const set = req.set ?? this.world.toolSet;
        const content = `${req.name} was not run: ${(e as Error).message}`;
        return { callId: ++this.callIds, tool: req.name, set, ok: false, content, data: undefined, elapsedMs: 0, simSeconds: 0 };
      }
    }
    const robot = actor?.robot ?? this.world.robot;
    const { id: set, reg } = await this.registry(req.set, robot);
    const callId = ++this.callIds;
    const tool = reg.get(req.name);
    const t0 = performance.now();
    const s0 = control.time();
    if (!tool) {
      // The same words the agent runtime gives a model that names a tool it does not have.
      const content = `Unknown tool "${req.name}". Available tools: ${reg.names().join(', ')}.`;
      return { callId, tool: req.name, set, ok: false, content, data: undefined, elapsedMs: 0, simSeconds: 0 };
    }
    const targets = this.targetsOf(req.args);
    this.emit({ type: 'tool_activity', phase: 'start', callId, tool: tool.name, args: req.args, targets, ok: null, source: 'console' });
    const ctl = new AbortController();
    const running = actor
      ? runToolSafely(actor.chain, tool, req.args, {
          via: 'tool',
          // The person's click approves the call; the chain still checks the robot's state and holds what the shadow doubts.
          gate: { policy: { information: 'auto', action: 'auto' } },
          signal: ctl.signal,
          state: this.toolState,
        }).then((r) => r.result)
      : runTool(tool, req.args, { robot, signal: ctl.signal, state: this.toolState });
    this.inflight.set(callId, { ctl, done: running });
    let r: ToolResult;
    try {
      r = await running;
    } finally {
      this.inflight.delete(callId);
    }
    this.afterCall();
    this.emit({ type: 'tool_activity', phase: 'end', callId, tool: tool.name, args: req.args, targets, ok: r.ok, source: 'console' });
    return {
      callId,
      tool: tool.name,
      set,
      ok: r.ok,
      content: r.content,
      data: jsonSafe(r.data),
      elapsedMs: Math.round(performance.now() - t0),
      simSeconds: Math.round((control.time() - s0) * 1000) / 1000,
    };
  }

  /** Aborts the calls in flight and waits (at most 2 s) for them to confirm; returns how many there were. */
  async abortAll(): Promise<number> {
    const calls = [...this.inflight.values()];
    for (const c of calls) c.ctl.abort();
    // A paced skill waits for the ticker: wake it so it sees the abort.
    this.world.control.wake();
    await Promise.race([Promise.allSettled(calls.map((c) => c.done)), new Promise((r) => setTimeout(r, 2000))]);
    return calls.length;
  }

  /** Ids of objects, people and places that the arguments name (for highlighting). */
  targetsOf(args: unknown): string[] {
    const out = new Set<string>();
    const visit = (v: unknown, depth: number): void => {
      if (depth > 4) return;
      if (typeof v === 'string') {
        if (v.length > 80) return;
        const r = this.world.control.resolve(v);
        if (r.ok) out.add(r.id);
      } else if (Array.isArray(v)) {
        for (const x of v) visit(x, depth + 1);
      } else if (v && typeof v === 'object') {
        for (const x of Object.values(v)) visit(x, depth + 1);
      }
    };
    let value = args;
    if (typeof args === 'string') {
      try {
        value = JSON.parse(args);
      } catch {
        return [];
      }
    }
    visit(value, 0);
    return [...out];
  }
}

function toolInfo(t: Tool): ToolInfo {
  return {
    name: t.name,
    description: t.description,
    category: t.category,
    parameters: t.parameters,
    card: { ...t.card, constraints: t.card.constraints ?? null, requires: [...t.card.requires], tags: [...t.card.tags] },
  };
}

/** Validate then run, as the runtime does; a tool that throws reads as a failed call. */
async function runTool(tool: Tool, args: unknown, ctx: Parameters<Tool['call']>[1]): Promise<ToolResult> {
  try {
    return await tool.call(args, ctx);
  } catch (e) {
    return { ok: false, content: `${tool.name} failed: ${(e as Error).message ?? String(e)}` };
  }
}
