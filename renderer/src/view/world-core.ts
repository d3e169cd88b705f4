// The core of the Babylon view of a live scene (world.ts adds the probes): meshes built once from SceneMeta
// (world-build.ts), moved by the latest pose frame just before each render
// (world-poses.ts), seen through an orbit camera and the robot's own camera
// (world-cameras.ts), with hover labels and probes (world-pick.ts). A frame is
// drawn only when something it shows changed (frame-demand.ts). The sim's
// frame (right-handed, Y up, metres) is drawn as is: the scene is switched to
// right-handed, so poses need no conversion. Deep imports keep the bundle to the parts used.
import { AdaptiveScale } from './adaptive-scale';
import { DrawRate, FrameDemand, type Wake } from './frame-demand';
import { PointerEventTypes } from '@babylonjs/core/Events/pointerEvents';
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { Engine } from '@babylonjs/core/Engines/engine';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { FxaaPostProcess } from '@babylonjs/core/PostProcesses/fxaaPostProcess';
import type { SceneMeta } from '../../../contract/schemas';
import { GL_ATTRIBUTES } from './early-canvas';
import { type SceneGraph, buildScene } from './world-build';
import { INSET_PERIOD_MS, INSET_PERIOD_SOFTWARE_MS, RobotCamera, defaultFraming, followRobot, makeOrbitCamera } from './world-cameras';
import { type DropHandler, ObjectDrag } from './world-drag';
import { type LabelPoint, type LabelSize, projectLabels } from './world-labels';
import { type Hover, Picker } from './world-pick';
import { PoseApplier } from './world-poses';

export interface ViewOptions {
  shadows: boolean;
  inset: boolean;
  colliders: boolean;
}

export interface WorldCallbacks {
  onHover(h: Hover | null): void;
  onContextLost(): void;
  /** Why the robot camera's image is one flat colour (something right in front of the lens), or null. */
  onInsetNote?(note: string | null): void;
}

/** Presentation settings the view follows. */
export interface ViewMotion {
  /** The orbit's target follows the robot. */
  follow: boolean;
}

const HIGHLIGHT = new Color3(1, 0.72, 0.1);

/** What is built for one loaded scene; replaced whole on the next load. */
interface Loaded {
  meta: SceneMeta;
  graph: SceneGraph;
  camera: ArcRotateCamera;
  robotCam: RobotCamera;
  poses: PoseApplier;
  picker: Picker;
  drag: ObjectDrag;
}

/** The view without its probes (world.ts adds them): building, drawing, cameras, poses, options. */
export class WorldCore {
  readonly engine: Engine;
  protected cur: Loaded | undefined;
  private insetCanvas: HTMLCanvasElement | null = null;
  private insetTimer: ReturnType<typeof setInterval> | undefined;
  private highlightIds: string[] = [];
  private insetNote: string | null = null;
  private follow = false;
  /** Live pose frames are drawn; a replay turns them off and shows its own frames. */
  private live = true;
  private dropHandler: DropHandler | null = null;
  /** Antialiasing (the quality setting): an FXAA pass on the orbit camera. */
  private antialias = false;
  private fxaa: FxaaPostProcess | undefined;
  readonly software: boolean;
  /** Frames drawn since the page loaded / since the current scene was built. */
  framesRendered = 0;
  framesSinceLoad = 0;
  /** Display frames the view looked at, drawn or not (nothing changed): the page kept up with the display. */
  displayFrames = 0;
  /** What must be drawn, and the rate drawing keeps while things change. */
  private readonly demand = new FrameDemand();
  protected readonly rate = new DrawRate();
  /** Counts changes to what the robot camera's image could show; the image is redrawn only after one. */
  private imageVersion = 0;
  private insetVersion = -1;
  /** Draw calls of the last frames (the engine's counter only grows: each frame's is a difference). */
  protected drawCalls: number[] = [];
  private drawCallsBefore = 0;
  contextLost = false;

  constructor(
    canvas: HTMLCanvasElement,
    private opts: ViewOptions,
    private readonly cb: WorldCallbacks,
  ) {
    // No MSAA in the context (it could only change by recreating the engine and the
    // scene): the quality setting's antialiasing is a post-process pass (setAntialias).
    this.engine = new Engine(canvas, false, { ...GL_ATTRIBUTES }, true);
    // Babylon writes this tab index on every pointer move: 0 keeps the view in the page's own tab order
    // (its default, 1, would put the view before everything else once the mouse had passed over it).
    this.engine.canvasTabIndex = 0;
    canvas.addEventListener('pointerleave', () => this.cb.onHover(null));
    this.engine.onContextLostObservable.add(() => {
      this.contextLost = true;
      this.cb.onContextLost();
    });
    this.software = /swiftshader|llvmpipe|softpipe|software|basic render/i.test(this.glRenderer);
    // Software GL is fill-rate bound: half the pixels per side is 4x fewer to shade.
    if (this.software) this.engine.setHardwareScalingLevel(2);
    this.engine.runRenderLoop(this.renderFrame);
  }

  private readonly renderFrame = () => {
    const cur = this.cur;
    if (!cur || this.contextLost) return;
    this.displayFrames++;
    const now = performance.now();
    // The camera takes its input (a drag, its inertia, following the robot) every display frame, drawn or not.
    if (this.follow) followRobot(cur.camera, cur.graph, cur.meta);
    cur.camera.update();
    const view = this.viewNow(cur.camera);
    const why = this.demand.due(now, view);
    if (why !== null) {
      cur.graph.scene.render(false);
      this.demand.drawn(now, view);
    }
    // Adaptive resolution judges only frames drawn for a change: a still scene is idle, not slow.
    const took = this.rate.tick(now, why !== null && why !== 'safety' && why !== 'settling');
    if (took === null) return;
    const level = this.adaptive.frame(this.rate.busyMs);
    if (level !== null) this.applyLevel(level);
  };

  /** What the picture is seen from: the orbit camera's view and projection, and the canvas's size. */
  private viewNow(camera: ArcRotateCamera): number[] {
    return [...camera.getViewMatrix().m, ...camera.getProjectionMatrix().m, this.engine.getRenderWidth(), this.engine.getRenderHeight()];
  }

  /** Something the next frame shows changed (`image`: the robot camera's image may show it too). */
  private wake(why: Wake, image = false): void {
    this.demand.wake(why);
    if (image) this.imageVersion++;
  }
  /** Adaptive resolution within the quality setting's base level and floor. */
  readonly adaptive = new AdaptiveScale(1, 1);

  private drawing = true;

  /**
   * Draws only while the page can be seen: a hidden tab (another group's, the
   * teacher's second tab) leaves the machine to the one in front. Poses still
   * arrive; the newest is drawn when the tab shows again.
   */
  setDrawing(on: boolean): void {
    if (on === this.drawing) return;
    this.drawing = on;
    if (on) {
      // The time hidden is not a slow frame.
      this.adaptive.reset(this.adaptive.base, this.adaptive.floor, this.adaptive.current);
      this.rate.pause();
      this.wake('shown');
      this.engine.runRenderLoop(this.renderFrame);
      this.applyCameras();
    } else {
      this.engine.stopRenderLoop(this.renderFrame);
      clearInterval(this.insetTimer);
      this.insetTimer = undefined;
    }
  }

  /** Pixels drawn per side are 1/level of the canvas's: the quality setting's level, up to its floor when frames come slowly. */
  setScaling(level: number, floor = level): void {
    this.adaptive.reset(level, floor);
    this.applyLevel(level);
  }

  private applyLevel(level: number): void {
    if (this.engine.getHardwareScalingLevel() === level) return;
    this.engine.setHardwareScalingLevel(level);
    this.engine.resize();
    this.wake('view');
  }

  /**
   * Antialiasing on or off: an FXAA pass over the orbit camera's image, added or
   * removed in place (the context's MSAA is fixed at creation; a pass keeps the
   * scene, its camera and its state as they are).
   */
  setAntialias(on: boolean): void {
    this.antialias = on;
    this.applyAntialias();
    this.wake('view');
  }

  private applyAntialias(): void {
    const cam = this.cur?.camera;
    if (this.fxaa && (!this.antialias || this.fxaa.getCamera() !== cam)) {
      this.fxaa.dispose(this.fxaa.getCamera() ?? undefined);
      this.fxaa = undefined;
    }
    if (this.antialias && cam && !this.fxaa) this.fxaa = new FxaaPostProcess('fxaa', 1, cam);
  }

  /** Whether the view is antialiased now (for tests and the probe). */
  get antialiased(): boolean {
    return !!this.fxaa && this.fxaa.getCamera() === this.cur?.camera;
  }

  get scene() {
    return this.cur?.graph.scene;
  }

  get glVersion(): string {
    return `webgl${this.engine.webGLVersion}`;
  }

  get glRenderer(): string {
    const info = this.engine.getGlInfo();
    return `${info.vendor} ${info.renderer}`;
  }

  resize(): void {
    this.engine.resize();
    this.wake('view');
  }

  /**
   * Draws a frame now: a scene just built shows at the next paint rather than after
   * whatever else the page queued before the next animation frame.
   */
  drawNow(): void {
    if (!this.drawing || this.contextLost || !this.cur) return;
    this.wake('scene');
    this.engine.beginFrame();
    this.renderFrame();
    this.engine.endFrame();
  }

  dispose(): void {
    if (this.insetTimer) clearInterval(this.insetTimer);
    this.insetTimer = undefined;
    this.cur?.graph.scene.dispose();
    this.engine.dispose();
  }

  // ---------------------------------------------------------------- building

  load(meta: SceneMeta): void {
    this.fxaa?.dispose();
    this.fxaa = undefined;
    this.cur?.graph.scene.dispose();
    this.cur = undefined;
    this.highlightIds = [];
    this.framesSinceLoad = 0;
    this.demand.loaded();
    this.imageVersion++;

    const graph = buildScene(this.engine, meta, { software: this.software, shadows: this.opts.shadows });
    const camera = makeOrbitCamera(graph, meta, this.aspect());
    const robotCam = new RobotCamera(graph, meta);
    robotCam.setCanvas(this.insetCanvas);
    const movable = new Set(meta.objects.filter((o) => !o.fixed).map((o) => o.id));
    const drag = new ObjectDrag(
      graph,
      () => cur.camera,
      movable,
      () => (this.live ? this.dropHandler : null),
    );
    const poses = new PoseApplier(graph, meta, (n) => drag.held.has(n.name));
    const picker = new Picker(graph, (h) => this.cb.onHover(h));
    const cur: Loaded = { meta, graph, camera, robotCam, poses, picker, drag };
    this.cur = cur;
    this.applyCameras();

    const scene = graph.scene;
    scene.onBeforeRenderObservable.add(() => {
      this.drawCallsBefore = this.engine._drawCalls.current;
      if (poses.applyPending()) this.imageVersion++;
      // A body that moved (pose, drag, replay) is drawn on its own from this frame on.
      graph.batched.releaseMoved();
    });
    scene.onAfterRenderObservable.add(() => {
      if (this.framesRendered === 0) performance.mark('sb:first-frame');
      this.drawCalls.push(this.engine._drawCalls.current - this.drawCallsBefore);
      if (this.drawCalls.length > 30) this.drawCalls.shift();
      this.framesRendered++;
      this.framesSinceLoad++;
      poses.afterRender();
    });
    scene.onPointerMove = () => picker.hover(cur.camera);
    // A drag turns the view or moves an object (world-drag.ts); hovering changes nothing drawn (its label is a
    // DOM element). Only a moved object changes what the robot camera sees: turning the view leaves its image be.
    scene.onPrePointerObservable.add((pi) => {
      if ((pi.event as PointerEvent).buttons !== 0 || pi.type === PointerEventTypes.POINTERUP)
        this.wake('pointer', drag.active !== undefined);
    });
    // Hover picks on its own (throttled); the scene's per-move pick is wasted work.
    scene.skipPointerMovePicking = true;
    this.setColliders(this.opts.colliders);
  }

  // ---------------------------------------------------------------- cameras

  /** The 2D canvas the robot-camera image is drawn on (null hides nothing, it just stops drawing). */
  setInsetCanvas(canvas: HTMLCanvasElement | null): void {
    this.insetCanvas = canvas;
    this.cur?.robotCam.setCanvas(canvas);
    this.insetVersion = -1;
  }

  private refreshInset(): void {
    if (!this.opts.inset || !this.cur || this.contextLost) return;
    // Nothing the robot camera could see changed since its last image: it still shows the present.
    if (this.insetVersion === this.imageVersion) return;
    this.insetVersion = this.imageVersion;
    this.cur.robotCam.refresh();
    // Its image is rendered within the next frame.
    this.wake('inset');
    const note = this.cur.robotCam.blocked();
    if (note !== this.insetNote) this.cb.onInsetNote?.((this.insetNote = note));
  }

  resetCamera(): void {
    const cur = this.cur;
    if (!cur) return;
    this.fxaa?.dispose(cur.camera);
    this.fxaa = undefined;
    cur.camera.dispose();
    cur.camera = makeOrbitCamera(cur.graph, cur.meta, this.aspect());
    this.applyCameras();
    this.wake('view');
  }

  /** The orbit distance the default view picks for the canvas as it is now (what a reframe sets). */
  framedRadius(): number {
    const cur = this.cur;
    return cur ? defaultFraming(cur.graph, cur.meta, this.aspect()).radius : 0;
  }

  private applyCameras(): void {
    const cur = this.cur;
    if (!cur) return;
    cur.graph.scene.activeCamera = cur.camera;
    cur.graph.scene.cameraToUseForPointers = cur.camera;
    this.applyAntialias();
    if (this.opts.inset && this.drawing && !this.insetTimer) {
      this.insetVersion = -1;
      this.insetTimer = setInterval(() => this.refreshInset(), this.software ? INSET_PERIOD_SOFTWARE_MS : INSET_PERIOD_MS);
      // A scene not drawn yet draws its first frame first; the timer brings the robot's image soon after.
      if (this.framesSinceLoad > 0) this.refreshInset();
    } else if (!this.opts.inset && this.insetTimer) {
      clearInterval(this.insetTimer);
      this.insetTimer = undefined;
    }
  }

  private aspect(): number {
    const h = this.engine.getRenderHeight();
    return h > 0 ? this.engine.getRenderWidth() / h : 16 / 9;
  }

  // ---------------------------------------------------------------- options

  setMotion(m: ViewMotion): void {
    this.follow = m.follow;
  }

  /** Where a dragged object is dropped (null: objects cannot be dragged, e.g. while only watching). */
  setDropHandler(h: DropHandler | null): void {
    this.dropHandler = h;
  }

  /** The id of the object being dragged, if any. */
  get dragging(): string | undefined {
    return this.cur?.drag.active;
  }

  /** Labels of the named things as they appear on the canvas now. */
  labels(size?: LabelSize): LabelPoint[] {
    const cur = this.cur;
    return cur ? projectLabels(this.engine, cur.camera, cur.graph, cur.meta, size) : [];
  }

  setOptions(opts: ViewOptions): void {
    const rebuild = opts.shadows !== this.opts.shadows;
    this.opts = opts;
    if (rebuild && this.cur) this.load(this.cur.meta);
    this.applyCameras();
    this.setColliders(opts.colliders);
    this.wake('view');
  }

  private setColliders(on: boolean): void {
    const g = this.cur?.graph;
    if (!g) return;
    // Built when first shown (no scene pays for them before its first frame otherwise).
    for (const m of on ? g.buildColliders() : g.colliderMeshes) m.setEnabled(on);
    this.wake('view', true);
  }

  setHighlight(ids: readonly string[]): void {
    const byId = this.cur?.graph.meshesById;
    if (!byId) return;
    // A still body is drawn in its batch: its own mesh is shown while highlighted, for the outline.
    const proxies = this.cur?.graph.batched.proxies;
    for (const id of this.highlightIds)
      for (const m of byId.get(id) ?? []) {
        m.renderOutline = false;
        if (proxies?.has(m)) m.isVisible = false;
      }
    this.highlightIds = ids.filter((id) => byId.has(id));
    for (const id of this.highlightIds) {
      for (const m of byId.get(id) ?? []) {
        if (proxies?.has(m)) m.isVisible = true;
        m.renderOutline = true;
        m.outlineColor = HIGHLIGHT;
        m.outlineWidth = 0.012;
      }
    }
    this.wake('view', true);
  }

  highlighted(): string[] {
    return [...this.highlightIds];
  }

  // ---------------------------------------------------------------- poses

  /** Keeps only the newest frame; it is applied just before the next render. */
  acceptFrame(frame: Float32Array): void {
    if (!this.live || !this.cur) return;
    if (this.cur.poses.accept(frame)) this.wake('poses');
  }

  /** Draws this frame now, whatever its sequence number (a replay seeking back and forth). */
  showFrame(frame: Float32Array): void {
    this.live = false;
    this.cur?.poses.apply(frame);
    this.wake('replay', true);
  }
}
