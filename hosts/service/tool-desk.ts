// The tool console's side of the session: tool sets built on the loaded robot
// (cached per scene), the tools as a model sees them, calls run exactly as a
// model's run (same validation text), Stop for running calls, and the ids a
// call's arguments name (the view outlines them).
import { AppApiError, type Request, type Response } from '../../contract/api';
import { jsonSafe } from '../../base/json';
import type { AppEvent, SceneMeta, ToolInfo } from '../../contract/schemas';
import type { SimControl } from '../../robot/sim/control';
import type { SimRobot } from '../../robot/sim/sim-robot';
import type { ToolRegistry } from '../../agents/tools/registry';
import { TOOL_SETS, buildToolSet, findToolSet } from '../../agents/tools/sets';
import type { Tool, ToolResult } from '../../agents/tools/tool';

/** The loaded world as the desk needs it. */
export interface DeskWorld {
  robot: SimRobot;
  control: SimControl;
  meta: SceneMeta;
  /** Tool registries built for this robot, by set id. */
  sets: Map<string, ToolRegistry>;
  /** The tools' scratch state (kept across console calls, as across a conversation). */
  toolState: Map<string, unknown>;
}

export interface ToolDeskOptions {
  world: () => DeskWorld | undefined;
  emit: (event: AppEvent) => void;
  /** After a call ends (the session re-publishes poses). */
  afterCall: () => void;
}

export class ToolDesk {
  private callIds = 0;
  private readonly inflight = new Map<number, { ctl: AbortController; done: Promise<unknown> }>();

  constructor(private readonly opts: ToolDeskOptions) {}

  get busy(): boolean {
    return this.inflight.size > 0;
  }

  private require(): DeskWorld {
    const w = this.opts.world();
    if (!w) throw new AppApiError('no_scene', 'no scene is loaded: call loadScene first');
    return w;
  }

  /** Aborts every running console call and waits (at most 2 s) for them to end. */
  async abortAll(): Promise<number> {
    const calls = [...this.inflight.values()];
    for (const c of calls) c.ctl.abort();
    // A paced skill waits for the ticker: wake it so it sees the abort.
    this.opts.world()?.control.wake();
    await Promise.race([Promise.allSettled(calls.map((c) => c.done)), new Promise((r) => setTimeout(r, 2000))]);
    return calls.length;
  }

  async registry(setId: string | undefined): Promise<{ id: string; reg: ToolRegistry }> {
    const cur = this.require();
    const id = setId ?? cur.meta.toolSet;
    let reg = cur.sets.get(id);
    if (!reg) {
      try {
        reg = await buildToolSet(id, cur.robot);
      } catch (e) {
        throw new AppApiError('invalid_request', (e as Error).message);
      }
      cur.sets.set(id, reg);
    }
    return { id, reg };
  }

  async listToolSets(): Promise<Response<'listToolSets'>> {
    const cur = this.require();
    const scene = cur.control.world.scene.scene;
    const named = [scene.toolSet, ...scene.toolSets];
    const out: Response<'listToolSets'> = TOOL_SETS.map((def) => {
      const missing = def.requires.filter((c) => !cur.robot.has(c));
      return {
        id: def.id,
        title: def.title,
        paper: def.paper,
        description: def.description,
        available: missing.length === 0,
        reason: missing.length ? `${cur.robot.info.name} has no ${missing.join(', ')} capability` : null,
        isDefault: def.id === scene.toolSet,
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
    const cur = this.require();
    const { id: set, reg } = await this.registry(req.set);
    const callId = ++this.callIds;
    const tool = reg.get(req.name);
    const t0 = performance.now();
    const s0 = cur.control.time();
    if (!tool) {
      // The same words the agent runtime gives a model that names a tool it does not have.
      const content = `Unknown tool "${req.name}". Available tools: ${reg.names().join(', ')}.`;
      return { callId, tool: req.name, set, ok: false, content, data: undefined, elapsedMs: 0, simSeconds: 0 };
    }
    const targets = this.targetsOf(req.args);
    this.opts.emit({
      type: 'tool_activity',
      phase: 'start',
      callId,
      tool: tool.name,
      args: req.args,
      targets,
      ok: null,
      source: 'console',
    });
    const ctl = new AbortController();
    const running = runTool(tool, req.args, { robot: cur.robot, signal: ctl.signal, state: cur.toolState });
    this.inflight.set(callId, { ctl, done: running });
    let r: ToolResult;
    try {
      r = await running;
    } finally {
      this.inflight.delete(callId);
    }
    this.opts.afterCall();
    this.opts.emit({ type: 'tool_activity', phase: 'end', callId, tool: tool.name, args: req.args, targets, ok: r.ok, source: 'console' });
    return {
      callId,
      tool: tool.name,
      set,
      ok: r.ok,
      content: r.content,
      data: jsonSafe(r.data),
      elapsedMs: Math.round(performance.now() - t0),
      simSeconds: Math.round((cur.control.time() - s0) * 1000) / 1000,
    };
  }

  async cancel(): Promise<Response<'cancelToolCall'>> {
    const n = await this.abortAll();
    return { ok: n > 0, message: n ? `stopped ${n} running tool call${n > 1 ? 's' : ''}` : 'no tool call is running' };
  }

  /** Ids of objects, people and places that the arguments name (for highlighting). */
  targetsOf(args: unknown): string[] {
    const cur = this.opts.world();
    if (!cur) return [];
    const out = new Set<string>();
    const visit = (v: unknown, depth: number): void => {
      if (depth > 4) return;
      if (typeof v === 'string') {
        if (v.length > 80) return;
        const r = cur.control.resolve(v);
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
