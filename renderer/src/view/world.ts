// The Babylon view of a live scene: meshes built once from SceneMeta, moved by
// the latest pose frame just before each render. The sim's frame (right-handed,
// Y up, metres) is drawn as is: the scene is switched to right-handed, so poses
// need no conversion. Deep imports keep the bundle to the parts used.
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { TargetCamera } from '@babylonjs/core/Cameras/targetCamera';
import { Ray } from '@babylonjs/core/Culling/ray';
import { Engine } from '@babylonjs/core/Engines/engine';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { ShadowGenerator } from '@babylonjs/core/Lights/Shadows/shadowGenerator';
import '@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { RenderTargetTexture } from '@babylonjs/core/Materials/Textures/renderTargetTexture';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateCapsule } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import { CreateDisc } from '@babylonjs/core/Meshes/Builders/discBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import '@babylonjs/core/Rendering/outlineRenderer';
import { Scene } from '@babylonjs/core/scene';
import { poseOffset, readHeader } from '../../../contract/frames';
import type { BodyMeta, SceneMeta, ShapePart } from '../../../contract/schemas';
import { BACKDROPS, buildBackdrop } from './environment';
import { type LatencyStats, stats } from './probe';

export interface ViewOptions {
  shadows: boolean;
  inset: boolean;
  colliders: boolean;
}

export interface Hover {
  id: string;
  label: string;
  x: number;
  y: number;
}

export interface WorldCallbacks {
  onHover(h: Hover | null): void;
  onContextLost(): void;
}

interface Tagged {
  id: string;
  label: string;
}

type Q = [number, number, number, number];
type V = [number, number, number];

function qmul(a: Q, b: Q): Q {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

function rotate(q: Q, v: V): V {
  const [x, y, z, w] = q;
  const ix = w * v[0] + y * v[2] - z * v[1];
  const iy = w * v[1] + z * v[0] - x * v[2];
  const iz = w * v[2] + x * v[1] - y * v[0];
  const iw = -x * v[0] - y * v[1] - z * v[2];
  return [ix * w + iw * -x + iy * -z - iz * -y, iy * w + iw * -y + iz * -x - ix * -z, iz * w + iw * -z + ix * -y - iy * -x];
}

function zRot(angle: number): Q {
  return [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];
}

const HIGHLIGHT = new Color3(1, 0.72, 0.1);
const LATENCY_SAMPLES = 240;
/** Robot camera image size (4:3, the sim's vertical/horizontal field-of-view ratio). */
export const INSET_W = 320;
export const INSET_H = 240;
/** The robot-camera image refreshes at this period: a second camera pass every frame would cost most of the frame rate under software GL. */
const INSET_PERIOD_MS = 200;

export class World {
  readonly engine: Engine;
  scene: Scene | undefined;
  private camera: ArcRotateCamera | undefined;
  private robotCam: TargetCamera | undefined;
  private insetRtt: RenderTargetTexture | undefined;
  private insetCanvas: HTMLCanvasElement | null = null;
  private insetTimer: ReturnType<typeof setInterval> | undefined;
  private insetReading = false;
  private shadowGen: ShadowGenerator | undefined;
  private meta: SceneMeta | undefined;
  /** Nodes by stream index. */
  private streamed: Array<TransformNode | undefined> = [];
  /** Nodes by id (objects, people, "robot#part", doors as "<id>#door"). */
  private nodes = new Map<string, TransformNode>();
  private meshesById = new Map<string, Mesh[]>();
  private colliderMeshes: Mesh[] = [];
  private materials = new Map<string, StandardMaterial>();
  private colliderMat: StandardMaterial | undefined;
  private pending: Float32Array | undefined;
  private appliedSeq = -1;
  private appliedWall = 0;
  private latencyDue = false;
  private latencies: number[] = [];
  private highlightIds: string[] = [];
  private lastPick = 0;
  readonly software: boolean;
  framesRendered = 0;
  framesSinceLoad = 0;
  contextLost = false;

  constructor(
    canvas: HTMLCanvasElement,
    private opts: ViewOptions,
    private readonly cb: WorldCallbacks,
  ) {
    // No MSAA: under software rendering (SwiftShader) it costs more than it shows.
    this.engine = new Engine(
      canvas,
      false,
      { preserveDrawingBuffer: false, stencil: true, antialias: false, powerPreference: 'high-performance' },
      true,
    );
    canvas.addEventListener('pointerleave', () => this.cb.onHover(null));
    this.engine.onContextLostObservable.add(() => {
      this.contextLost = true;
      this.cb.onContextLost();
    });
    this.software = /swiftshader|llvmpipe|softpipe|software|basic render/i.test(this.glRenderer);
    // Software GL is fill-rate bound: half the pixels per side is 4x fewer to shade.
    if (this.software) this.engine.setHardwareScalingLevel(2);
    this.engine.runRenderLoop(() => {
      const s = this.scene;
      if (!s || this.contextLost) return;
      s.render();
    });
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
  }

  dispose(): void {
    if (this.insetTimer) clearInterval(this.insetTimer);
    this.insetTimer = undefined;
    this.scene?.dispose();
    this.engine.dispose();
  }

  // ---------------------------------------------------------------- building

  load(meta: SceneMeta): void {
    this.scene?.dispose();
    this.meta = meta;
    this.streamed = new Array<TransformNode | undefined>(meta.stream.length);
    this.nodes.clear();
    this.meshesById.clear();
    this.colliderMeshes = [];
    this.materials.clear();
    this.highlightIds = [];
    this.pending = undefined;
    this.appliedSeq = -1;
    this.framesSinceLoad = 0;
    this.latencies = [];

    const scene = new Scene(this.engine);
    this.scene = scene;
    scene.useRightHandedSystem = true;
    const backdrop = BACKDROPS[meta.environment];
    const built = buildBackdrop(scene, meta);

    const hemi = new HemisphericLight('ambient', new Vector3(0.2, 1, 0.1), scene);
    hemi.intensity = 0.62;
    hemi.diffuse = backdrop.ambientSky;
    hemi.groundColor = backdrop.ambientGround;
    const sun = new DirectionalLight('sun', new Vector3(-0.45, -1, -0.3), scene);
    sun.intensity = backdrop.sunIntensity;
    sun.position = new Vector3(4, 10, 3);
    if (this.software) {
      // Software GL pays per pixel: no specular term and no image-processing pass in
      // the shaders (exposure and contrast are 1, so the colours do not change).
      hemi.specular = Color3.Black();
      sun.specular = Color3.Black();
      scene.imageProcessingConfiguration.isEnabled = false;
    }

    this.colliderMat = new StandardMaterial('collider-mat', scene);
    this.colliderMat.emissiveColor = Color3.FromHexString('#39d353');
    this.colliderMat.diffuseColor = Color3.Black();
    this.colliderMat.wireframe = true;
    this.colliderMat.disableLighting = true;

    const casters: Mesh[] = [];
    const receivers: Mesh[] = [...built.receivers];
    for (const o of meta.objects) {
      const label = o.name === o.id ? o.id : `${o.name} (${o.id})`;
      const meshes = this.buildBody(scene, o.id, { id: o.id, label }, o.body);
      casters.push(...meshes);
      if (o.fixed) receivers.push(...meshes);
      if (o.door) casters.push(...this.buildBody(scene, `${o.id}#door`, { id: o.id, label }, o.door));
    }
    for (const p of meta.people) casters.push(...this.buildBody(scene, p.id, { id: p.id, label: `${p.name} (person)` }, p.body));
    const r = meta.robot;
    for (const b of r.bodies) casters.push(...this.buildBody(scene, `robot#${b.part}`, { id: 'robot', label: r.title }, b));
    this.addWheels(scene, meta);
    this.addLocations(scene, meta);

    if (this.opts.shadows) {
      const sg = new ShadowGenerator(1024, sun);
      sg.bias = 0.0015;
      sg.normalBias = 0.01;
      sg.darkness = 0.35;
      for (const m of casters) sg.addShadowCaster(m, false);
      for (const m of receivers) m.receiveShadows = true;
      this.shadowGen = sg;
    } else this.shadowGen = undefined;

    this.camera = this.makeCamera(scene, meta);
    this.robotCam = new TargetCamera('robot-camera', new Vector3(0, 1, 0), scene);
    this.robotCam.minZ = 0.02;
    this.robotCam.maxZ = meta.robot.camera.range;
    this.robotCam.fov = (meta.robot.camera.fovDeg * 0.75 * Math.PI) / 180;
    this.insetRtt = this.makeInset(scene, this.robotCam);
    this.applyCameras();

    scene.onBeforeRenderObservable.add(() => this.applyPending());
    scene.onAfterRenderObservable.add(() => {
      this.framesRendered++;
      this.framesSinceLoad++;
      if (this.latencyDue) {
        this.latencyDue = false;
        this.latencies.push(Date.now() - this.appliedWall);
        if (this.latencies.length > LATENCY_SAMPLES) this.latencies.shift();
      }
    });
    scene.onPointerMove = () => this.hover();
    // Hover picks on its own (throttled); the scene's per-move pick is wasted work.
    scene.skipPointerMovePicking = true;
    this.setColliders(this.opts.colliders);
    this.freezeStatic(meta);
  }

  /**
   * Bodies that never stream poses (tables, counters, walls, shelters) keep their
   * world matrices, and colours never change: freezing both saves per-frame CPU,
   * which software GL shares with the rasteriser.
   */
  private freezeStatic(meta: SceneMeta): void {
    for (const o of meta.objects) {
      if (o.body.stream !== null || o.door) continue;
      const node = this.nodes.get(o.id);
      if (!node) continue;
      node.computeWorldMatrix(true);
      node.freezeWorldMatrix();
      for (const m of node.getChildMeshes(false)) {
        m.computeWorldMatrix(true);
        m.freezeWorldMatrix();
      }
    }
    for (const m of this.materials.values()) m.freeze();
  }

  private material(scene: Scene, colour: string): StandardMaterial {
    let m = this.materials.get(colour);
    if (!m) {
      m = new StandardMaterial(`mat-${colour}`, scene);
      m.diffuseColor = Color3.FromHexString(colour);
      m.specularColor = new Color3(0.14, 0.14, 0.14);
      m.specularPower = 48;
      this.materials.set(colour, m);
    }
    return m;
  }

  private primitive(scene: Scene, part: ShapePart, name: string): Mesh {
    const g = part.geometry;
    let m: Mesh;
    switch (g.shape) {
      case 'box':
        m = CreateBox(name, { width: g.size[0], height: g.size[1], depth: g.size[2] }, scene);
        break;
      case 'sphere':
        m = CreateSphere(name, { diameter: g.radius * 2, segments: 12 }, scene);
        break;
      case 'cylinder':
        m = CreateCylinder(name, { height: g.height, diameter: g.radius * 2, tessellation: 20 }, scene);
        break;
      case 'capsule':
        m = CreateCapsule(name, { height: g.height + g.radius * 2, radius: g.radius, tessellation: 14, capSubdivisions: 4 }, scene);
        break;
    }
    m.position.set(part.position[0], part.position[1], part.position[2]);
    m.rotationQuaternion = new Quaternion(part.rotation[0], part.rotation[1], part.rotation[2], part.rotation[3]);
    return m;
  }

  /** One node per body; its parts merged per colour (fewer draw calls matter in software GL). */
  private buildBody(scene: Scene, key: string, tag: Tagged, body: BodyMeta): Mesh[] {
    const node = new TransformNode(key, scene);
    node.position.set(body.position[0], body.position[1], body.position[2]);
    node.rotationQuaternion = new Quaternion(body.rotation[0], body.rotation[1], body.rotation[2], body.rotation[3]);
    if (body.stream !== null) this.streamed[body.stream] = node;
    this.nodes.set(key, node);
    const byColour = new Map<string, ShapePart[]>();
    for (const p of body.parts) byColour.set(p.color, [...(byColour.get(p.color) ?? []), p]);
    const out: Mesh[] = [];
    for (const [colour, parts] of byColour) {
      const pieces = parts.map((p, i) => this.primitive(scene, p, `${key}:${i}`));
      const merged = pieces.length === 1 ? pieces[0]! : (Mesh.MergeMeshes(pieces, true, true) ?? pieces[0]!);
      merged.name = `${key}:${colour}`;
      merged.parent = node;
      merged.material = this.material(scene, colour);
      merged.metadata = tag;
      out.push(merged);
    }
    const list = this.meshesById.get(tag.id) ?? [];
    list.push(...out);
    this.meshesById.set(tag.id, list);
    body.colliders.forEach((c, i) => {
      const m = this.primitive(scene, c, `${key}:collider${i}`);
      m.parent = node;
      m.material = this.colliderMat!;
      m.isPickable = false;
      m.setEnabled(false);
      this.colliderMeshes.push(m);
    });
    return out;
  }

  private addWheels(scene: Scene, meta: SceneMeta): void {
    const base = this.nodes.get('robot#base');
    const r = meta.robot.wheelRadius;
    if (!base || r === null) return;
    const [len, , width] = meta.robot.baseSize;
    const mat = this.material(scene, '#2b2d31');
    const wheels: Mesh[] = [];
    const xs = meta.robot.kind === 'rover' ? [-len * 0.36, 0, len * 0.36] : [-len * 0.3, len * 0.3];
    for (const x of xs) {
      for (const side of [-1, 1]) {
        const w = CreateCylinder('wheel', { height: 0.07, diameter: r * 2, tessellation: 18 }, scene);
        w.rotation.x = Math.PI / 2;
        w.position.set(x, r, side * (width / 2 + 0.04));
        wheels.push(w);
      }
    }
    const merged = Mesh.MergeMeshes(wheels, true, true);
    if (merged) {
      merged.parent = base;
      merged.material = mat;
      merged.metadata = { id: 'robot', label: meta.robot.title } satisfies Tagged;
      this.meshesById.get('robot')?.push(merged);
    }
  }

  private addLocations(scene: Scene, meta: SceneMeta): void {
    const mat = new StandardMaterial('location-mat', scene);
    mat.diffuseColor = Color3.FromHexString('#2f6fde');
    mat.emissiveColor = Color3.FromHexString('#10306a');
    mat.alpha = 0.75;
    for (const l of meta.locations) {
      const node = new TransformNode(`loc:${l.id}`, scene);
      node.position.set(l.position[0], 0.004, l.position[2]);
      node.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 1, 0), (l.yawDeg * Math.PI) / 180);
      const disc = CreateDisc(`loc:${l.id}:disc`, { radius: 0.16, tessellation: 24 }, scene);
      disc.rotation.x = Math.PI / 2;
      const arrow = CreateBox(`loc:${l.id}:arrow`, { width: 0.22, height: 0.004, depth: 0.035 }, scene);
      arrow.position.set(0.18, 0.002, 0);
      const merged = Mesh.MergeMeshes([disc, arrow], true, true);
      if (!merged) continue;
      merged.parent = node;
      merged.material = mat;
      merged.metadata = { id: l.id, label: `${l.title ?? l.id} (${l.kind} location)` } satisfies Tagged;
      this.nodes.set(l.id, node);
      this.meshesById.set(l.id, [merged]);
    }
  }

  private makeCamera(scene: Scene, meta: SceneMeta): ArcRotateCamera {
    // Frame the objects (by their extents: a table counts by its top) and the robot.
    const boxes: Array<[V, V]> = [
      ...meta.objects.map((o): [V, V] => [o.body.position, o.size]),
      ...meta.robot.bodies.map((b): [V, V] => [b.position, [0.3, 0.3, 0.3]]),
      ...meta.people.map((p): [V, V] => [p.body.position, [0.4, p.height, 0.4]]),
    ];
    let min: V = [Infinity, Infinity, Infinity];
    let max: V = [-Infinity, -Infinity, -Infinity];
    for (const [p, size] of boxes) {
      min = [Math.min(min[0], p[0] - size[0] / 2), Math.min(min[1], p[1] - size[1] / 2), Math.min(min[2], p[2] - size[2] / 2)];
      max = [Math.max(max[0], p[0] + size[0] / 2), Math.max(max[1], p[1] + size[1] / 2), Math.max(max[2], p[2] + size[2] / 2)];
    }
    if (!boxes.length) {
      min = [-meta.floor.size[0] / 2, 0, -meta.floor.size[1] / 2];
      max = [meta.floor.size[0] / 2, 0.5, meta.floor.size[1] / 2];
    }
    const target = new Vector3((min[0] + max[0]) / 2, Math.max(0.3, (min[1] + max[1]) / 2), (min[2] + max[2]) / 2);
    const extent = Math.max(max[0] - min[0], max[2] - min[2], 0.8);
    const radius = Math.min(40, Math.max(2, extent * 1.45));
    const view = this.viewOfRobot(scene, meta, target, radius);
    const cam = new ArcRotateCamera('orbit', view.alpha, view.beta, radius, target, scene);
    cam.lowerRadiusLimit = 0.3;
    cam.upperRadiusLimit = Math.max(60, radius * 4);
    cam.upperBetaLimit = Math.PI / 2 - 0.03;
    cam.minZ = 0.02;
    cam.maxZ = 400;
    cam.wheelDeltaPercentage = 0.02;
    cam.panningSensibility = 400 / Math.max(1, radius);
    cam.attachControl(true);
    return cam;
  }

  /**
   * The robot's view: rendered on demand into a small texture, read back and drawn
   * on a 2D canvas over the view (a live second camera pass would halve the fps).
   */
  private makeInset(scene: Scene, cam: TargetCamera): RenderTargetTexture {
    const rtt = new RenderTargetTexture('robot-camera-image', { width: INSET_W, height: INSET_H }, scene, false);
    rtt.activeCamera = cam;
    rtt.renderListPredicate = (m) => m.isEnabled() && m.isVisible && !this.colliderMeshes.includes(m as Mesh);
    rtt.refreshRate = RenderTargetTexture.REFRESHRATE_RENDER_ONCE;
    rtt.clearColor = scene.clearColor;
    rtt.onAfterRenderObservable.add(() => {
      const target = this.insetCanvas;
      if (!target || this.insetReading) return;
      const read = rtt.readPixels();
      if (!read) return;
      this.insetReading = true;
      read
        .then((buf) => drawFlipped(target, new Uint8ClampedArray(buf.buffer, buf.byteOffset, buf.byteLength), INSET_W, INSET_H))
        .catch(() => undefined)
        .finally(() => {
          this.insetReading = false;
        });
    });
    scene.customRenderTargets.push(rtt);
    return rtt;
  }

  /** The 2D canvas the robot-camera image is drawn on (null hides nothing, it just stops drawing). */
  setInsetCanvas(canvas: HTMLCanvasElement | null): void {
    this.insetCanvas = canvas;
  }

  private refreshInset(): void {
    if (!this.opts.inset || !this.insetRtt || this.contextLost) return;
    this.updateRobotCamera();
    this.insetRtt.resetRefreshCounter();
  }

  resetCamera(): void {
    if (!this.scene || !this.meta) return;
    this.camera?.dispose();
    this.camera = this.makeCamera(this.scene, this.meta);
    this.applyCameras();
  }

  private applyCameras(): void {
    const s = this.scene;
    if (!s || !this.camera) return;
    s.activeCamera = this.camera;
    s.cameraToUseForPointers = this.camera;
    if (this.opts.inset && !this.insetTimer) {
      this.insetTimer = setInterval(() => this.refreshInset(), INSET_PERIOD_MS);
      this.refreshInset();
    } else if (!this.opts.inset && this.insetTimer) {
      clearInterval(this.insetTimer);
      this.insetTimer = undefined;
    }
  }

  // ---------------------------------------------------------------- options

  setOptions(opts: ViewOptions): void {
    const rebuild = opts.shadows !== this.opts.shadows;
    this.opts = opts;
    if (rebuild && this.meta) this.load(this.meta);
    this.applyCameras();
    this.setColliders(opts.colliders);
  }

  private setColliders(on: boolean): void {
    for (const m of this.colliderMeshes) m.setEnabled(on);
  }

  setHighlight(ids: readonly string[]): void {
    for (const id of this.highlightIds) for (const m of this.meshesById.get(id) ?? []) m.renderOutline = false;
    this.highlightIds = ids.filter((id) => this.meshesById.has(id));
    for (const id of this.highlightIds) {
      for (const m of this.meshesById.get(id) ?? []) {
        m.renderOutline = true;
        m.outlineColor = HIGHLIGHT;
        m.outlineWidth = 0.012;
      }
    }
  }

  highlighted(): string[] {
    return [...this.highlightIds];
  }

  // ---------------------------------------------------------------- poses

  /** Keeps only the newest frame; it is applied just before the next render. */
  acceptFrame(frame: Float32Array): void {
    this.pending = frame;
  }

  private applyPending(): void {
    const f = this.pending;
    const meta = this.meta;
    if (f && meta) {
      this.pending = undefined;
      const h = readHeader(f);
      if (h.generation === meta.generation && h.seq > this.appliedSeq) {
        for (let i = 0; i < this.streamed.length; i++) {
          const n = this.streamed[i];
          if (!n) continue;
          const o = poseOffset(i);
          n.position.set(f[o]!, f[o + 1]!, f[o + 2]!);
          n.rotationQuaternion!.set(f[o + 3]!, f[o + 4]!, f[o + 5]!, f[o + 6]!);
        }
        this.appliedSeq = h.seq;
        this.appliedWall = h.wallMs;
        this.latencyDue = true;
      }
    }
  }

  private updateRobotCamera(): void {
    const cam = this.robotCam;
    const meta = this.meta;
    if (!cam || !meta) return;
    const c = meta.robot.camera;
    const pitch = (c.pitchDeg * Math.PI) / 180;
    let p: V;
    let q: Q;
    const hand = this.nodes.get('robot#hand');
    const base = this.nodes.get('robot#base');
    if (c.mount === 'wrist' && hand) {
      // Same frame as the sim: the hand's +Y turned onto the optical axis (+X), tilted by the pitch.
      const hq = hand.rotationQuaternion!;
      q = qmul([hq.x, hq.y, hq.z, hq.w], zRot(Math.PI / 2 + pitch));
      p = [hand.position.x, hand.position.y, hand.position.z];
    } else if (base) {
      const bq = base.rotationQuaternion!;
      const b: Q = [bq.x, bq.y, bq.z, bq.w];
      const off = rotate(b, c.position);
      p = [base.position.x + off[0], base.position.y + off[1], base.position.z + off[2]];
      q = qmul(b, zRot(pitch));
    } else return;
    const fwd = rotate(q, [1, 0, 0]);
    const up = rotate(q, [0, 1, 0]);
    cam.position.set(p[0], p[1], p[2]);
    cam.upVector.set(up[0], up[1], up[2]);
    cam.setTarget(new Vector3(p[0] + fwd[0], p[1] + fwd[1], p[2] + fwd[2]));
  }

  /**
   * The default viewing angles: the usual three-quarter view, unless something
   * hides the robot from there (the farm's rover starts inside its shelter, behind
   * an oak); then the nearest angle around the scene, a little lower if need be,
   * from which the robot can be seen.
   */
  private viewOfRobot(scene: Scene, meta: SceneMeta, target: Vector3, radius: number): { alpha: number; beta: number } {
    const first = { alpha: Math.PI * 0.3, beta: 1.0 };
    for (const m of scene.meshes) m.computeWorldMatrix(true);
    for (const beta of [1.0, 1.2, 1.35]) {
      for (let k = 0; k < 12; k++) {
        const step = k % 2 === 0 ? k / 2 : -(k + 1) / 2; // 0, -1, 1, -2, 2 … twelfths of a turn
        const alpha = first.alpha + (step * Math.PI) / 6;
        const eye = target.add(
          new Vector3(radius * Math.cos(alpha) * Math.sin(beta), radius * Math.cos(beta), radius * Math.sin(alpha) * Math.sin(beta)),
        );
        if (this.sees(scene, eye, meta)) return { alpha, beta };
      }
    }
    return first;
  }

  /** A straight line from `eye` reaches the robot's first body before anything else. */
  private sees(scene: Scene, eye: Vector3, meta: SceneMeta): boolean {
    const part = meta.robot.bodies[0]?.part;
    const node = part ? this.nodes.get(`robot#${part}`) : undefined;
    if (!node) return true;
    const to = node.getAbsolutePosition().add(new Vector3(0, 0.05, 0));
    const dir = to.subtract(eye);
    const length = dir.length();
    const hit = scene.pickWithRay(
      new Ray(eye, dir.normalize(), length),
      (m) => m.isPickable && m.isEnabled() && m.isVisible && !this.colliderMeshes.includes(m as Mesh),
    );
    if (!hit?.hit) return true;
    return (hit.pickedMesh?.metadata as Tagged | undefined)?.id === 'robot';
  }

  // ---------------------------------------------------------------- hover labels

  private hover(): void {
    const s = this.scene;
    if (!s) return;
    const now = performance.now();
    if (now - this.lastPick < 60) return;
    this.lastPick = now;
    const hit = s.pick(
      s.pointerX,
      s.pointerY,
      (m) => m.isPickable && m.isEnabled() && m.metadata !== null && m.metadata !== undefined,
      false,
      this.camera,
    );
    const tag = hit?.pickedMesh?.metadata as Tagged | undefined;
    this.cb.onHover(tag && hit?.hit ? { id: tag.id, label: tag.label, x: s.pointerX, y: s.pointerY } : null);
  }

  // ---------------------------------------------------------------- probe

  fps(): number {
    return this.engine.getFps();
  }

  poseLatency(): LatencyStats {
    return stats(this.latencies);
  }

  resetStats(): void {
    this.latencies = [];
  }

  get poseSeq(): number {
    return this.appliedSeq;
  }

  get meshCount(): number {
    return this.scene?.meshes.length ?? 0;
  }

  /** Whether the robot can be seen from the orbit camera as it stands (for tests and the probe). */
  robotInView(): boolean {
    const s = this.scene;
    const cam = this.camera;
    if (!s || !cam || !this.meta) return false;
    return this.sees(s, cam.position, this.meta);
  }

  /** Where a body's origin appears on the canvas, in CSS pixels from its top-left corner. */
  screenPoint(id: string): [number, number] | null {
    const n = this.nodes.get(id);
    const cam = this.camera;
    const s = this.scene;
    if (!n || !cam || !s) return null;
    const w = this.engine.getRenderWidth();
    const h = this.engine.getRenderHeight();
    const p = Vector3.Project(n.getAbsolutePosition(), Matrix.Identity(), s.getTransformMatrix(), cam.viewport.toGlobal(w, h));
    const k = this.engine.getHardwareScalingLevel();
    return [p.x * k, p.y * k];
  }

  bodyPosition(id: string): [number, number, number] | null {
    const n = this.nodes.get(id);
    if (!n) return null;
    const p = n.getAbsolutePosition();
    return [p.x, p.y, p.z];
  }
}

/** GL rows run bottom-up; the 2D canvas runs top-down. */
function drawFlipped(canvas: HTMLCanvasElement, rgba: Uint8ClampedArray, w: number, h: number): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const img = ctx.createImageData(w, h);
  const row = w * 4;
  for (let y = 0; y < h; y++) img.data.set(rgba.subarray((h - 1 - y) * row, (h - y) * row), y * row);
  ctx.putImageData(img, 0, 0);
}

export function webglSupport(): 'webgl2' | 'webgl' | null {
  try {
    const c = document.createElement('canvas');
    if (c.getContext('webgl2')) return 'webgl2';
    if (c.getContext('webgl')) return 'webgl';
  } catch {
    // Some environments throw instead of returning null.
  }
  return null;
}
