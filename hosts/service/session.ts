// The session service: AppApi over one simulated robot. It loads scenes, calls
// tools exactly as a model's calls run (same registry, same validation text),
// feeds exogenous events, reports facts, and streams packed poses. Headless it
// lets skills step the world as fast as they can; paced (the app), a ticker
// steps physics in wall time so the view shows motion while skills run.
import {
  type AppApi,
  AppApiError,
  type EventListener,
  type PoseListener,
  type Request,
  type Response,
  type Unsubscribe,
} from '../../contract/api';
import { jsonSafe } from '../../base/json';
import { FLOATS_PER_POSE, FRAME_HEADER, frameLength, writeHeader } from '../../contract/frames';
import type { AppEvent, SceneMeta, ToolInfo } from '../../contract/schemas';
import type { SimControl } from '../../robot/sim/control';
import { openSim } from '../../robot/sim/open';
import type { SimRobot } from '../../robot/sim/sim-robot';
import type { ToolRegistry } from '../../agents/tools/registry';
import { TOOL_SETS, buildToolSet, findToolSet } from '../../agents/tools/sets';
import type { Tool, ToolResult } from '../../agents/tools/tool';
import { isBuiltinScene, listScenes } from '../../scenes/registry';
import { SceneDataError } from '../../scenes/validation';
import { packPoses, type StreamEntry } from '../../sim/stream';
import { type ScriptFiles, type SecretLookup, normalizeBaseURL } from '../../agents/models/spec';
import { AgentHost } from './agent';
import { EvalHost } from './eval-host';
import { replayCase } from './replay';
import { buildSceneMeta } from './scene-meta';

export interface SessionOptions {
  /** Step physics in wall time from a ticker (the app); otherwise skills step it as fast as they can. */
  paced?: boolean;
  seed?: number;
  /** Pose frames per second (30-60). */
  frameHz?: number;
  /** Extra scene sources (a scene file path) a host allows besides the built-in ids. */
  allowFiles?: boolean;
  /** Agent runs write their JSONL traces here (web mode ./traces, desktop userData/traces). */
  traceDir?: string;
  /** API keys besides the environment (the desktop app's keychain store), per base URL. */
  secrets?: SecretLookup;
  /** Base URLs a page's model may get the environment's SKILLBRIDGE_API_KEY for (serve --allow-key-for). */
  allowKeyFor?: string[];
  /** Asks the person at the host whether the environment's key may go to a base URL a page named. */
  confirmKey?: (baseURL: string) => Promise<boolean>;
  /** Where scripted:FILE may read; default none (a page uploads the script instead). */
  scriptFiles?: ScriptFiles;
  /** Ollama's OpenAI-compatible base URL for detection (default http://127.0.0.1:11434/v1). */
  ollamaURL?: string;
  /** The Evaluate view's results folder (default eval-results/). */
  evalDir?: string;
}

interface Loaded {
  robot: SimRobot;
  control: SimControl;
  meta: SceneMeta;
  entries: StreamEntry[];
  sets: Map<string, ToolRegistry>;
  toolState: Map<string, unknown>;
  unsubscribe: Unsubscribe;
}

export class Session implements AppApi {
  private loaded: Loaded | undefined;
  private generation = 0;
  private seq = 0;
  private callIds = 0;
  private speed = 1;
  private readonly paced: boolean;
  private readonly seed: number;
  private readonly frameMs: number;
  private readonly poseListeners = new Set<PoseListener>();
  private readonly eventListeners = new Set<EventListener>();
  private readonly inflight = new Map<number, { ctl: AbortController; done: Promise<unknown> }>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private latest: Float32Array | undefined;
  private lastSentAt = 0;
  private loading: Promise<SceneMeta> | undefined;
  private readonly allowFiles: boolean;
  private readonly agent: AgentHost;
  private readonly evals: EvalHost;
  private readonly createdAt = new Date().toISOString();

  constructor(opts: SessionOptions = {}) {
    this.paced = opts.paced ?? false;
    this.seed = opts.seed ?? 1;
    this.frameMs = 1000 / Math.min(60, Math.max(30, opts.frameHz ?? 60));
    this.allowFiles = opts.allowFiles ?? false;
    this.agent = new AgentHost({
      ...(opts.traceDir ? { traceDir: opts.traceDir } : {}),
      ...(opts.secrets ? { secrets: opts.secrets } : {}),
      ...(opts.ollamaURL ? { ollamaURL: opts.ollamaURL } : {}),
      allowEnvKeyFor: envKeyPolicy(opts),
      scriptFiles: opts.scriptFiles ?? 'none',
      emit: (e) => this.emit(e),
      targetsOf: (args) => (this.loaded ? this.targetsOf(this.loaded, args) : []),
      wake: () => this.loaded?.control.wake(),
      afterTool: () => this.publish(true),
    });
    this.evals = new EvalHost({
      dir: opts.evalDir ?? 'eval-results',
      emit: (e) => this.emit(e),
      ...(opts.secrets ? { secrets: opts.secrets } : {}),
      replay: (c, calls) =>
        replayCase(c, calls, {
          seed: this.seed,
          install: (robot, control) => this.install(robot, control),
          emit: (e) => this.emit(e),
          nextCallId: () => ++this.callIds,
          targetsOf: (args) => (this.loaded ? this.targetsOf(this.loaded, args) : []),
          afterCall: () => this.publish(true),
        }),
    });
  }

  // ---------------------------------------------------------------- subscriptions

  onPoses(listener: PoseListener): Unsubscribe {
    this.poseListeners.add(listener);
    if (this.latest) listener(this.latest.slice());
    return () => this.poseListeners.delete(listener);
  }

  onEvent(listener: EventListener): Unsubscribe {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  private emit(event: AppEvent): void {
    for (const l of this.eventListeners) l(event);
  }

  // ---------------------------------------------------------------- scenes

  async listScenes(_req?: Request<'listScenes'>): Promise<Response<'listScenes'>> {
    return listScenes().map((s) => ({ ...s, paper: s.paper ?? null }));
  }

  async loadScene(req: Request<'loadScene'>): Promise<SceneMeta> {
    // Loads are serialised: a second load waits for the first, then replaces it.
    const prev = this.loading ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(() => this.doLoad(req.id));
    this.loading = next;
    try {
      return await next;
    } finally {
      if (this.loading === next) this.loading = undefined;
    }
  }

  private async doLoad(id: string): Promise<SceneMeta> {
    if (!isBuiltinScene(id) && !(this.allowFiles && /\.json$/i.test(id))) {
      const known = listScenes().map((s) => s.id);
      throw new AppApiError('unknown_scene', `unknown scene "${id}"; known scenes: ${known.join(', ')}`);
    }
    let robot: SimRobot;
    let control: SimControl;
    try {
      ({ robot, control } = await openSim(id, { seed: this.seed }));
    } catch (e) {
      if (e instanceof SceneDataError) throw new AppApiError('unknown_scene', e.message);
      throw e;
    }
    return this.install(robot, control);
  }

  /** Makes a world the current scene: paced, streamed, its robot's events forwarded (a loaded scene, or a case to replay). */
  async install(robot: SimRobot, control: SimControl): Promise<SceneMeta> {
    await this.unload();
    control.pace(this.paced);
    control.setSpeed(this.speed);
    this.generation++;
    const { meta, entries } = buildSceneMeta(control.world, this.generation);
    const unsubscribe = robot.events.subscribe((e) =>
      this.emit({ type: 'robot_event', event: { id: e.id, time: e.time, type: e.type, text: e.text } }),
    );
    this.loaded = { robot, control, meta, entries, sets: new Map(), toolState: new Map(), unsubscribe };
    this.latest = undefined;
    this.publish(true);
    this.startTicker();
    this.emit({ type: 'scene_loaded', sceneId: meta.id, generation: meta.generation });
    return meta;
  }

  async resetScene(_req?: Request<'resetScene'>): Promise<SceneMeta> {
    const cur = this.require();
    return this.loadScene({ id: cur.meta.id });
  }

  async currentScene(_req?: Request<'currentScene'>): Promise<SceneMeta | null> {
    // A window opened while the host loads its first scene gets that scene, not "none".
    if (this.loading) await this.loading.catch(() => undefined);
    return this.loaded?.meta ?? null;
  }

  /** Stops running calls, then frees the world. */
  private async unload(): Promise<void> {
    const cur = this.loaded;
    if (!cur) return;
    await this.agent.stopAndWait('stopped: the scene was replaced');
    this.agent.forget();
    await this.abortAll();
    cur.unsubscribe();
    this.loaded = undefined;
    cur.control.dispose();
  }

  private async abortAll(): Promise<number> {
    const calls = [...this.inflight.values()];
    for (const c of calls) c.ctl.abort();
    // A paced skill waits for the ticker: wake it so it sees the abort.
    this.loaded?.control.wake();
    await Promise.race([Promise.allSettled(calls.map((c) => c.done)), new Promise((r) => setTimeout(r, 2000))]);
    return calls.length;
  }

  async dispose(): Promise<void> {
    await this.evals.dispose();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.unload();
    this.poseListeners.clear();
    this.eventListeners.clear();
  }

  private require(): Loaded {
    if (!this.loaded) throw new AppApiError('no_scene', 'no scene is loaded: call loadScene first');
    return this.loaded;
  }

  // ---------------------------------------------------------------- clock and pose stream

  private startTicker(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.frameMs);
    // Headless hosts must be able to exit with a session open.
    this.timer.unref?.();
  }

  private tick(): void {
    const cur = this.loaded;
    if (!cur) return;
    cur.control.tick(performance.now());
    this.publish(false);
  }

  /** Packs the poses now and hands them to every listener, unless nothing moved. */
  private publish(force: boolean): void {
    const cur = this.loaded;
    if (!cur) return;
    const sim = cur.control.world;
    const joints = cur.meta.robot.jointNames.length;
    const frame = new Float32Array(frameLength(cur.entries.length, joints));
    packPoses(sim, cur.entries, frame.subarray(FRAME_HEADER, FRAME_HEADER + cur.entries.length * FLOATS_PER_POSE));
    if (joints) {
      const q = sim.body.q ?? [0, 0, 0, 0, 0];
      const o = FRAME_HEADER + cur.entries.length * FLOATS_PER_POSE;
      for (let i = 0; i < 5; i++) frame[o + i] = q[i] ?? 0;
      frame[o + 5] = sim.body.opening;
    }
    const now = Date.now();
    // Unchanged poses are not resent, but a heartbeat frame goes out each second.
    if (!force && this.latest && now - this.lastSentAt < 1000 && samePoses(this.latest, frame)) return;
    writeHeader(frame, this.generation, ++this.seq, sim.time, now);
    this.latest = frame;
    this.lastSentAt = now;
    for (const l of this.poseListeners) l(frame.slice());
  }

  // ---------------------------------------------------------------- tools

  private async registry(setId: string | undefined): Promise<{ id: string; reg: ToolRegistry }> {
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

  async listToolSets(_req?: Request<'listToolSets'>): Promise<Response<'listToolSets'>> {
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
    const targets = this.targetsOf(cur, req.args);
    this.emit({ type: 'tool_activity', phase: 'start', callId, tool: tool.name, args: req.args, targets, ok: null, source: 'console' });
    const ctl = new AbortController();
    const running = runTool(tool, req.args, { robot: cur.robot, signal: ctl.signal, state: cur.toolState });
    this.inflight.set(callId, { ctl, done: running });
    let r: ToolResult;
    try {
      r = await running;
    } finally {
      this.inflight.delete(callId);
    }
    this.publish(true);
    this.emit({ type: 'tool_activity', phase: 'end', callId, tool: tool.name, args: req.args, targets, ok: r.ok, source: 'console' });
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

  async cancelToolCall(_req?: Request<'cancelToolCall'>): Promise<Response<'cancelToolCall'>> {
    const n = await this.abortAll();
    return { ok: n > 0, message: n ? `stopped ${n} running tool call${n > 1 ? 's' : ''}` : 'no tool call is running' };
  }

  /** Ids of objects, people and places that the arguments name (for highlighting). */
  private targetsOf(cur: Loaded, args: unknown): string[] {
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

  // ---------------------------------------------------------------- world

  async injectEvent(req: Request<'injectEvent'>): Promise<Response<'injectEvent'>> {
    const cur = this.require();
    const control = cur.control;
    try {
      if (req.type === 'object_moved') {
        const r = control.resolve(req.object, ['object']);
        if (!r.ok) return { ok: false, message: r.message };
        control.inject({ type: 'object_moved', object: r.id, to: req.to, ...(req.by ? { by: req.by } : {}) });
      } else if (req.type === 'person_said') {
        control.inject({ type: 'person_said', text: req.text, ...(req.person ? { person: req.person } : {}) });
      } else {
        control.inject(req);
      }
    } catch (e) {
      return { ok: false, message: (e as Error).message };
    }
    this.publish(true);
    const b = await cur.robot.battery();
    const message =
      req.type === 'set_battery'
        ? `battery set to ${b.percent.toFixed(0)}% (${b.level})`
        : req.type === 'estop_pressed'
          ? 'emergency stop pressed: motion stops until it is released'
          : req.type === 'estop_released'
            ? 'emergency stop released'
            : req.type === 'person_said'
              ? `${req.person ?? 'a person'} said: "${req.text}"`
              : `moved ${req.object}`;
    return { ok: true, message };
  }

  async getBattery(_req?: Request<'getBattery'>): Promise<Response<'getBattery'>> {
    return this.require().robot.battery();
  }

  async getSnapshot(_req?: Request<'getSnapshot'>): Promise<Response<'getSnapshot'>> {
    const cur = this.require();
    const { robot, control } = cur;
    const sim = control.world;
    const last = await robot.events.lastId();
    const events = await robot.events.since(Math.max(0, last - 50));
    // The operator's view: what holds in the world, whether the robot perceived it or not.
    return {
      sceneId: cur.meta.id,
      time: control.time(),
      facts: control.facts(),
      battery: await robot.battery(),
      estop: control.estop,
      holding: control.holding() ?? null,
      at: sim.body.at ?? null,
      posture: sim.body.posture ?? null,
      busy: this.inflight.size > 0 || this.agent.busy,
      events: events.map((e) => ({ id: e.id, time: e.time, type: e.type, text: e.text })),
    };
  }

  async setSpeed(req: Request<'setSpeed'>): Promise<Response<'setSpeed'>> {
    this.speed = req.factor;
    this.loaded?.control.setSpeed(req.factor);
    return { factor: this.speed };
  }

  // ---------------------------------------------------------------- evaluation (the Evaluate view)

  async listSuites(_req?: Request<'listSuites'>): Promise<Response<'listSuites'>> {
    return this.evals.listSuites();
  }

  async startEval(req: Request<'startEval'>): Promise<Response<'startEval'>> {
    return this.evals.startEval(req);
  }

  async stopEval(_req?: Request<'stopEval'>): Promise<Response<'stopEval'>> {
    return this.evals.stopEval();
  }

  async listEvalRuns(_req?: Request<'listEvalRuns'>): Promise<Response<'listEvalRuns'>> {
    return this.evals.listEvalRuns();
  }

  async evalCases(req: Request<'evalCases'>): Promise<Response<'evalCases'>> {
    return this.evals.evalCases(req);
  }

  async evalReport(req: Request<'evalReport'>): Promise<Response<'evalReport'>> {
    return this.evals.evalReport(req);
  }

  async replayCase(req: Request<'replayCase'>): Promise<Response<'replayCase'>> {
    return this.evals.replayCase(req);
  }

  // ---------------------------------------------------------------- agent runs

  async run(req: Request<'run'>): Promise<Response<'run'>> {
    return this.agent.run(this.require().robot, req);
  }

  async stop(_req?: Request<'stop'>): Promise<Response<'stop'>> {
    return this.agent.stop();
  }

  async answerApproval(req: Request<'answerApproval'>): Promise<Response<'answerApproval'>> {
    return this.agent.answer(req);
  }

  async answerAsk(req: Request<'answerAsk'>): Promise<Response<'answerAsk'>> {
    return this.agent.answerAsk(req);
  }

  async listWorkflows(_req?: Request<'listWorkflows'>): Promise<Response<'listWorkflows'>> {
    return this.agent.listWorkflows(this.require().robot);
  }

  async probeModel(req: Request<'probeModel'>): Promise<Response<'probeModel'>> {
    return this.agent.probe(req);
  }

  async detectModels(_req?: Request<'detectModels'>): Promise<Response<'detectModels'>> {
    return this.agent.detect();
  }

  async exportTrace(req: Request<'exportTrace'>): Promise<Response<'exportTrace'>> {
    return this.agent.exportTrace(req);
  }

  async importTrace(req: Request<'importTrace'>): Promise<Response<'importTrace'>> {
    return this.agent.importTrace(req);
  }

  // ---------------------------------------------------------------- sessions (web mode serves several; this is one)

  async listSessions(_req?: Request<'listSessions'>): Promise<Response<'listSessions'>> {
    const scene = this.loaded?.meta.id ?? null;
    return [{ id: 'local', scene, clients: 1, observers: 0, running: this.agent.busy, createdAt: this.createdAt, own: true }];
  }

  async observeSession(req: Request<'observeSession'>): Promise<Response<'observeSession'>> {
    if (req.id === null || req.id === 'local') return { ok: true, message: 'this is your own session', observing: null };
    throw new AppApiError('unsupported', 'this host runs one session: there is no other to observe');
  }

  // ---------------------------------------------------------------- secrets (desktop host only)

  async setApiKey(_req?: Request<'setApiKey'>): Promise<Response<'setApiKey'>> {
    throw new AppApiError(
      'unsupported',
      'API keys are stored by the desktop app only (encrypted by the OS keychain). In web mode, set the key in the environment of "skillbridge serve" (e.g. OPENAI_API_KEY).',
    );
  }

  async hasApiKey(_req?: Request<'hasApiKey'>): Promise<Response<'hasApiKey'>> {
    return { stored: false };
  }

  async clearApiKey(_req?: Request<'clearApiKey'>): Promise<Response<'clearApiKey'>> {
    return { ok: false, message: 'no key store in this host' };
  }
}

/**
 * Whether the environment's key may go to a base URL a page named: listed at
 * the host, or confirmed by its person; otherwise not (the default for pages).
 */
function envKeyPolicy(opts: SessionOptions): (baseURL: string) => Promise<boolean> {
  const allowed = new Set((opts.allowKeyFor ?? []).map(normalizeBaseURL));
  return async (baseURL) => allowed.has(normalizeBaseURL(baseURL)) || ((await opts.confirmKey?.(baseURL)) ?? false);
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

function samePoses(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = FRAME_HEADER; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
