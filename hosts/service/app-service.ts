// The app service: AppApi over one simulated robot. It loads scenes, and hands
// the loaded world to its parts: the pose stream (./pose-stream.ts), the tool
// console (./tool-console.ts) and the agent host (./agent.ts); it feeds
// exogenous events and reports the operator's view of the world. Headless it lets
// skills step the world as fast as they can; paced (the app), the pose stream's
// ticker steps physics in wall time so the view shows motion while skills run.
// Every field that names a suite, a model, a run, a trace, a scene, a server or an
// uploaded file is parsed here, once, by the host policy (./host-policy.ts).
import {
  type AppApi,
  AppApiError,
  type EventListener,
  type PoseListener,
  type Request,
  type Response,
  type Unsubscribe,
} from '../../contract/api';
import type { RunEvent } from '../../contract/agent-runs';
import type { AppEvent, SceneMeta, ToolInfo } from '../../contract/schemas';
import { frameLength } from '../../contract/frames';
import type { SimControl } from '../../robot/sim/control';
import { openSim } from '../../robot/sim/open';
import { RobotImportError } from '../../sim/world/imported-robot';
import type { SimRobot } from '../../robot/sim/sim-robot';
import { listScenes } from '../../scenes/registry';
import { SceneDataError } from '../../scenes/validation';
import { AgentHost } from './agent';
import { EvalHost } from './eval-host';
import { replayCase } from './replay';
import { ExerciseBook, leaves as goalLeaves, loadCardFolder } from './exercises';
import { ExerciseProgress } from './exercise-progress';
import { PhysicsClock } from './physics-clock';
import { PoseStream } from './pose-stream';
import { RunArchive } from './run-archive';
import { SINGLE_HOST, ownSessionList } from './single-host';
import { buildSceneMeta } from './scene-meta';
import type { AppServiceOptions } from './app-options';
import { HostPolicy } from './host-policy';
import { RobotChooser } from './robot-choice';
import { LocalModelsHost } from './local-models';
import { RealLink } from './real-link';
import { ToolConsole } from './tool-console';
import { injectWorldEvent, snapshotOf } from './world-ops';

export type { AppServiceOptions, RealRobotForm } from './app-options';

interface Loaded {
  robot: SimRobot;
  control: SimControl;
  meta: SceneMeta;
  tools: ToolConsole;
  unsubscribe: Unsubscribe;
}

export class AppService implements AppApi {
  private loaded: Loaded | undefined;
  private generation = 0;
  private readonly clock: PhysicsClock;
  private readonly poses: PoseStream;
  private readonly eventListeners = new Set<EventListener>();
  private loading: Promise<SceneMeta> | undefined;
  private readonly policy: HostPolicy;
  private readonly agent: AgentHost;
  private readonly evals: EvalHost;
  private replayCalls = 1_000_000; // replayed calls number apart from the console's
  private readonly real: RealLink | undefined;
  private readonly createdAt = new Date().toISOString();
  private readonly archive: RunArchive;
  private readonly exercises: ExerciseBook;
  private readonly models: LocalModelsHost;
  /** Tool calls since the scene was loaded, and the last final answer: what exercise goals are checked on. */
  private readonly progress = new ExerciseProgress();
  private readonly robots: RobotChooser;

  constructor(opts: AppServiceOptions = {}) {
    this.clock = new PhysicsClock({
      paced: opts.paced ?? false,
      seed: opts.seed ?? 1,
      control: () => this.loaded?.control,
      emit: (e) => this.emit(e),
      published: () => this.poses.publish(true),
    });
    this.archive = new RunArchive({ ...(opts.traceDir ? { traceDir: opts.traceDir } : {}), ...(opts.log ? { log: opts.log } : {}) });
    this.exercises = new ExerciseBook(opts.exercisesDir ? loadCardFolder(opts.exercisesDir, opts.log) : []);
    this.poses = new PoseStream(1000 / Math.min(60, Math.max(30, opts.frameHz ?? 60)), this.archive);
    this.policy = opts.policy ?? new HostPolicy(opts);
    this.robots = new RobotChooser(opts.urdf);
    this.real = opts.robot ? new RealLink(opts.robot) : undefined;
    this.models = new LocalModelsHost({
      // The one folder runs, evaluations and the store share (the host's, not the environment's).
      dir: this.policy.modelsDir(),
      emit: (e) => this.emit(e),
      access: () => this.policy.modelStore(),
    });
    this.agent = new AgentHost({
      ...(opts.traceDir ? { traceDir: opts.traceDir } : {}),
      ...(opts.ollamaURL ? { ollamaURL: opts.ollamaURL } : {}),
      emit: (e) => this.emit(e),
      targetsOf: (args) => this.loaded?.tools.targetsOf(args) ?? [],
      wake: () => this.loaded?.control.wake(),
      afterTool: () => this.poses.publish(true),
    });
    this.evals = new EvalHost({
      dir: opts.evalDir ?? 'eval-results',
      emit: (e) => this.emit(e),
      replay: (c, calls, seed) =>
        replayCase(c, calls, {
          seed,
          install: (robot, control) => this.install(robot, control),
          emit: (e) => this.emit(e),
          nextCallId: () => ++this.replayCalls,
          targetsOf: (args) => this.loaded?.tools.targetsOf(args) ?? [],
          afterCall: () => this.poses.publish(true),
        }),
    });
  }

  // ---------------------------------------------------------------- subscriptions

  onPoses(listener: PoseListener): Unsubscribe {
    return this.poses.onPoses(listener);
  }

  onEvent(listener: EventListener): Unsubscribe {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  private emit(event: AppEvent): void {
    // A run asked to do a task card's task gets the card's goal checked on the world before its end is told.
    if (event.type === 'run' && event.event.kind === 'final' && event.event.reason === 'done') {
      const note = this.goalCheckOf(event.event.runId, event.event.text);
      if (note) this.relay({ type: 'run', event: note });
    }
    this.relay(event);
  }

  private relay(event: AppEvent): void {
    this.follow(event);
    for (const l of this.eventListeners) l(event);
  }

  /** The goal check of a finished run, as a note event (contract/run-outcome.ts); none when no card is its task. */
  private goalCheckOf(runId: string, answer: string): RunEvent | undefined {
    const cur = this.loaded;
    const message = this.archive.list().find((r) => r.runId === runId)?.message;
    if (!cur || message === undefined) return undefined;
    const id = this.exercises.forMessage(cur.meta.id, message);
    if (!id) return undefined;
    const { result, score } = this.exercises.check(id, cur.meta.id, { facts: cur.control.facts(), ...this.progress.done(), answer });
    const unmet = goalLeaves(result.checks).filter((c) => !c.ok);
    const detail = result.ok ? 'the world agrees' : unmet.map((c) => `${c.label}: ${c.missing ?? 'not so'}`).join('; ');
    return {
      kind: 'note',
      runId,
      stage: '',
      text: `goal check (task card "${score.title}"): ${result.ok ? '✓ met' : `✗ not met: ${detail}`}`,
      data: { goalCheck: { title: score.title, ok: result.ok, detail } },
    };
  }

  /** What the service keeps from its own events: the runs, the calls and answers exercises are checked on. */
  private follow(e: AppEvent): void {
    const cur = this.loaded;
    this.archive.onEvent(
      e,
      cur ? { meta: cur.meta, frameLength: frameLength(cur.meta.stream.length, cur.meta.robot.jointNames.length) } : undefined,
    );
    this.progress.onEvent(e);
  }

  // ---------------------------------------------------------------- scenes

  listScenes = async (_req?: Request<'listScenes'>): Promise<Response<'listScenes'>> =>
    listScenes().map((s) => ({ ...s, paper: s.paper ?? null }));

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
    const scene = this.policy.scene(id);
    let robot: SimRobot;
    let control: SimControl;
    try {
      ({ robot, control } = await openSim(scene.id, {
        seed: this.clock.world.seed,
        noise: this.clock.world.noise,
        ...(this.robots.current ? { robot: this.robots.current } : {}),
      }));
    } catch (e) {
      if (e instanceof SceneDataError) throw new AppApiError('unknown_scene', e.message);
      if (e instanceof RobotImportError) throw new AppApiError('invalid_request', e.message);
      throw e;
    }
    return this.install(robot, control);
  }

  /** Makes a world the current scene: paced, streamed, its robot's events forwarded (a loaded scene, or a case to replay). */
  async install(robot: SimRobot, control: SimControl): Promise<SceneMeta> {
    await this.unload();
    control.pace(this.clock.paced);
    this.clock.adopt(control);
    this.progress.reset();
    this.generation++;
    const { meta, entries } = buildSceneMeta(control.world, this.generation);
    const offRobot = robot.events.subscribe((e) =>
      this.emit({ type: 'robot_event', event: { id: e.id, time: e.time, type: e.type, text: e.text } }),
    );
    // The view draws the world: its speech bubble goes over the real speaker, whom the robot may not know.
    const offWorld = control.world.events.onEvent((e) => {
      if (e.type === 'person_said') this.emit({ type: 'person_spoke', id: e.id, person: e.person ?? null, text: e.text });
    });
    const unsubscribe = () => {
      offRobot();
      offWorld();
    };
    const real = this.real;
    const tools = new ToolConsole(
      { robot, control, toolSet: meta.toolSet },
      (e) => this.emit(e),
      () => this.poses.publish(true),
      // serve --robot: the console acts on the real robot, the scene its shadow.
      real ? () => real.console({ robot, control }) : undefined,
    );
    this.loaded = { robot, control, meta, tools, unsubscribe };
    this.poses.attach({ control, entries, joints: meta.robot.jointNames.length, generation: this.generation });
    this.emit({ type: 'scene_loaded', sceneId: meta.id, generation: meta.generation });
    this.clock.announce();
    return meta;
  }

  async resetScene(_req?: Request<'resetScene'>): Promise<SceneMeta> {
    return this.loadScene({ id: this.require().meta.id });
  }

  putRobotFile = async (req: Request<'putRobotFile'>): Promise<Response<'putRobotFile'>> =>
    this.robots.put(this.policy.robotUploadPath(req.path), req.offset, req.data, req.start);

  useRobot = async (req: Request<'useRobot'>): Promise<Response<'useRobot'>> => this.robots.use(req.robot, () => this.resetScene());

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
    this.archive.sceneReplaced();
    await cur.tools.abortAll();
    cur.unsubscribe();
    this.loaded = undefined;
    this.poses.detach();
    cur.control.dispose();
  }

  async dispose(): Promise<void> {
    this.models.dispose();
    await this.evals.dispose();
    await this.unload();
    await this.real?.close();
    this.robots.dispose();
    this.poses.dispose();
    this.eventListeners.clear();
  }

  private require(): Loaded {
    if (!this.loaded) throw new AppApiError('no_scene', 'no scene is loaded: call loadScene first');
    return this.loaded;
  }

  // ---------------------------------------------------------------- tools

  listToolSets = async (_req?: Request<'listToolSets'>): Promise<Response<'listToolSets'>> => this.require().tools.listToolSets();

  listTools = async (req: Request<'listTools'>): Promise<ToolInfo[]> => this.require().tools.listTools(req);

  callTool = async (req: Request<'callTool'>): Promise<Response<'callTool'>> => this.require().tools.callTool(req);

  async cancelToolCall(_req?: Request<'cancelToolCall'>): Promise<Response<'cancelToolCall'>> {
    const n = (await this.loaded?.tools.abortAll()) ?? 0;
    return { ok: n > 0, message: n ? `stopped ${n} running tool call${n > 1 ? 's' : ''}` : 'no tool call is running' };
  }

  // ---------------------------------------------------------------- world

  async injectEvent(req: Request<'injectEvent'>): Promise<Response<'injectEvent'>> {
    const cur = this.require();
    const r = await injectWorldEvent(cur, req);
    if (!r.ok) return r;
    this.poses.publish(true);
    if (req.type === 'estop_pressed') {
      // A real robot's running job is cancelled at once (its skill would not see the shadow's e-stop);
      // in simulation the running skill reports the e-stop, then the run stops.
      const why = `the emergency stop was pressed${req.by ? ` by ${req.by}` : ''}`;
      if (this.real) {
        this.agent.stop(why);
        await cur.tools.abortAll();
      } else this.agent.stopAfterRunningCall(why);
    }
    return r;
  }

  async getBattery(_req?: Request<'getBattery'>): Promise<Response<'getBattery'>> {
    const cur = this.require();
    // serve --robot: the robot's own battery; the shadow's would be a guess.
    return this.real ? (await this.real.robot()).battery() : cur.robot.battery();
  }

  getRobotSafety = async (_req?: Request<'getRobotSafety'>): Promise<Response<'getRobotSafety'>> => (this.real ? this.real.safety() : null);

  async getSnapshot(_req?: Request<'getSnapshot'>): Promise<Response<'getSnapshot'>> {
    const cur = this.require();
    return snapshotOf(cur, cur.tools.busy || this.agent.busy);
  }

  setSpeed = async (req: Request<'setSpeed'>): Promise<Response<'setSpeed'>> => this.clock.setSpeed(req);

  // ---------------------------------------------------------------- evaluation (the Evaluate view)

  listSuites = async (_req?: Request<'listSuites'>): Promise<Response<'listSuites'>> => this.evals.listSuites();

  async startEval(req: Request<'startEval'>): Promise<Response<'startEval'>> {
    const suite = this.policy.suite(req.suite);
    return this.evals.startEval({ ...req, suite, model: await this.policy.evalModel(req.model) });
  }

  stopEval = async (_req?: Request<'stopEval'>): Promise<Response<'stopEval'>> => this.evals.stopEval();

  listEvalRuns = async (_req?: Request<'listEvalRuns'>): Promise<Response<'listEvalRuns'>> => this.evals.listEvalRuns();

  async evalCases(req: Request<'evalCases'>): Promise<Response<'evalCases'>> {
    return this.evals.evalCases({ ...req, runId: this.policy.runId(req.runId) });
  }

  async evalReport(req: Request<'evalReport'>): Promise<Response<'evalReport'>> {
    return this.evals.evalReport({ ...req, runId: this.policy.runId(req.runId) });
  }

  caseTranscript = async (req: Request<'caseTranscript'>): Promise<Response<'caseTranscript'>> =>
    this.evals.caseTranscript({ ...req, runId: this.policy.runId(req.runId) });
  caseReplay = async (req: Request<'caseReplay'>): Promise<Response<'caseReplay'>> =>
    this.evals.caseReplay({ ...req, runId: this.policy.runId(req.runId) });
  getCaseImage = async (req: Request<'getCaseImage'>): Promise<Response<'getCaseImage'>> =>
    this.evals.caseImage({ ...req, runId: this.policy.runId(req.runId) }, this.policy.traceImageId(req.image));

  replayCase = async (req: Request<'replayCase'>): Promise<Response<'replayCase'>> =>
    this.evals.replayCase({ ...req, runId: this.policy.runId(req.runId) });

  // ---------------------------------------------------------------- the physics clock and world settings

  getSimState = async (_req?: Request<'getSimState'>): Promise<Response<'getSimState'>> => this.clock.state();
  setPaused = async (req: Request<'setPaused'>): Promise<Response<'setPaused'>> => this.clock.setPaused(req);
  stepPhysics = async (req: Request<'stepPhysics'>): Promise<Response<'stepPhysics'>> => this.clock.step(this.require().control, req);
  getWorldSettings = async (_req?: Request<'getWorldSettings'>): Promise<Response<'getWorldSettings'>> => this.clock.getSettings();
  setWorldSettings = async (req: Request<'setWorldSettings'>): Promise<Response<'setWorldSettings'>> => this.clock.setSettings(req);

  // ---------------------------------------------------------------- agent runs

  async run(req: Request<'run'>): Promise<Response<'run'>> {
    const cur = this.require();
    const { script, ...rest } = req;
    const parsed = { ...rest, model: this.policy.model(req.model, script) };
    if (!this.real) return this.agent.run(cur.robot, parsed);
    const { robot, predictor, acceptNoEstop } = await this.real.open(cur);
    return this.agent.run(robot, parsed, { predictor, ...(acceptNoEstop ? { acceptNoEstop } : {}) });
  }

  stop = async (_req?: Request<'stop'>): Promise<Response<'stop'>> => this.agent.stop();
  answerApproval = async (req: Request<'answerApproval'>): Promise<Response<'answerApproval'>> => this.agent.answer(req);
  answerAsk = async (req: Request<'answerAsk'>): Promise<Response<'answerAsk'>> => this.agent.answerAsk(req);
  listWorkflows = async (_req?: Request<'listWorkflows'>): Promise<Response<'listWorkflows'>> =>
    this.agent.listWorkflows(this.require().robot);

  probeModel = async (req: Request<'probeModel'>): Promise<Response<'probeModel'>> =>
    this.agent.probe(this.policy.model(req.spec, req.script, 'spec'));

  detectModels = async (_req?: Request<'detectModels'>): Promise<Response<'detectModels'>> => this.agent.detect();

  exportTrace = async (req: Request<'exportTrace'>): Promise<Response<'exportTrace'>> =>
    this.agent.exportTrace({ runId: this.policy.traceId(req.runId) });

  importTrace = async (req: Request<'importTrace'>): Promise<Response<'importTrace'>> => this.agent.importTrace(req);
  getRunImage = async (req: Request<'getRunImage'>): Promise<Response<'getRunImage'>> =>
    this.agent.picture(this.policy.traceId(req.runId), this.policy.traceImageId(req.image));

  listRuns = async (_req?: Request<'listRuns'>): Promise<Response<'listRuns'>> => this.archive.list();

  async getRunReplay(req: Request<'getRunReplay'>): Promise<Response<'getRunReplay'>> {
    const runId = this.policy.traceId(req.runId);
    const { text } = await this.agent.exportTrace({ runId });
    return this.archive.replay(runId, this.agent.importTrace({ text }));
  }

  // ---------------------------------------------------------------- exercises

  listExercises = async (_req?: Request<'listExercises'>): Promise<Response<'listExercises'>> => this.exercises.list(this.loaded?.meta.id);

  addExercise = async (req: Request<'addExercise'>): Promise<Response<'addExercise'>> => this.exercises.add(req.text);

  async checkExercise(req: Request<'checkExercise'>): Promise<Response<'checkExercise'>> {
    const cur = this.require();
    const { result, score } = this.exercises.check(req.id, cur.meta.id, { facts: cur.control.facts(), ...this.progress.done() });
    this.emit({ type: 'exercise', score });
    return result;
  }

  // ---------------------------------------------------------------- one session (single-host.ts); the key store is the policy's

  listSessions = async (_req?: Request<'listSessions'>): Promise<Response<'listSessions'>> =>
    ownSessionList(this.loaded?.meta.id ?? null, this.agent.busy, this.createdAt, this.archive.list().at(-1));

  observeSession = async (req: Request<'observeSession'>): Promise<Response<'observeSession'>> => SINGLE_HOST.observeSession(req);
  setSessionLabel = async (req: Request<'setSessionLabel'>): Promise<Response<'setSessionLabel'>> => SINGLE_HOST.setSessionLabel(req);
  stopGroups = async (req: Request<'stopGroups'>): Promise<Response<'stopGroups'>> => SINGLE_HOST.stopGroups(req);
  setViewVisible = async (req: Request<'setViewVisible'>): Promise<Response<'setViewVisible'>> => SINGLE_HOST.setViewVisible(req);

  // ---------------------------------------------------------------- local models (./local-models.ts)

  listLocalModels = (req: Request<'listLocalModels'>): Promise<Response<'listLocalModels'>> => this.models.list(req);
  pullLocalModel = (req: Request<'pullLocalModel'>): Promise<Response<'pullLocalModel'>> =>
    this.models.pull({ id: this.policy.localModelId(req.id) });
  cancelLocalModelPull = (req: Request<'cancelLocalModelPull'>): Promise<Response<'cancelLocalModelPull'>> =>
    this.models.cancel({ id: this.policy.localModelId(req.id) });
  removeLocalModel = (req: Request<'removeLocalModel'>): Promise<Response<'removeLocalModel'>> =>
    this.models.remove({ id: this.policy.localModelId(req.id) });

  // ---------------------------------------------------------------- keys (the host policy's store)

  setApiKey = async (req: Request<'setApiKey'>): Promise<Response<'setApiKey'>> =>
    this.policy.keyStore().setApiKey({ ...req, baseURL: this.policy.serverUrl(req.baseURL) });
  hasApiKey = async (req: Request<'hasApiKey'>): Promise<Response<'hasApiKey'>> =>
    this.policy.keyStore().hasApiKey({ baseURL: this.policy.serverUrl(req.baseURL) });
  clearApiKey = async (req: Request<'clearApiKey'>): Promise<Response<'clearApiKey'>> =>
    this.policy.keyStore().clearApiKey({ baseURL: this.policy.serverUrl(req.baseURL) });
}
