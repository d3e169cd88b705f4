// The view's cameras: the orbit camera a person steers (framed on the scene,
// turned so the robot is in sight), and the robot's own camera, rendered on
// demand into a small texture and drawn on a 2D canvas over the view (a live
// second camera pass would halve the frame rate under software GL).
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { TargetCamera } from '@babylonjs/core/Cameras/targetCamera';
import { Ray } from '@babylonjs/core/Culling/ray';
import type { Engine } from '@babylonjs/core/Engines/engine';
import { RenderTargetTexture } from '@babylonjs/core/Materials/Textures/renderTargetTexture';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Scene } from '@babylonjs/core/scene';
import type { SceneMeta } from '../../../contract/schemas';
import { type Q, type V, qmul, rotate, zRot } from './math';
import type { SceneGraph, Tagged } from './world-build';

/** Robot camera image size (4:3, the sim's vertical/horizontal field-of-view ratio). */
export const INSET_W = 320;
export const INSET_H = 240;
/** The robot-camera image refreshes at this period: a second camera pass every frame would cost most of the frame rate under software GL. */
export const INSET_PERIOD_MS = 200;
/**
 * Under software GL, where the image's second pass over the scene costs as much
 * as a frame of the view: it refreshes half as often (and, like every period,
 * only when something it could show changed).
 */
export const INSET_PERIOD_SOFTWARE_MS = 400;
/** Something nearer the lens than this fills the robot camera's image. */
const BLOCKED_M = 1;
/** The robot camera's image fades out between its range and this many times it. */
const RANGE_FADE = 2.5;

/** The world-axis extent of a box of local size `size` turned by `q` (a table turned 90° is deep, not wide). */
function turnedSize(size: V, q: Q): V {
  const h: V = [size[0] / 2, size[1] / 2, size[2] / 2];
  const out: V = [0, 0, 0];
  for (const sx of [-1, 1])
    for (const sy of [-1, 1])
      for (const sz of [-1, 1]) {
        const c = rotate(q, [sx * h[0], sy * h[1], sz * h[2]]);
        for (let i = 0; i < 3; i++) out[i] = Math.max(out[i]!, Math.abs(c[i]!) * 2);
      }
  return out;
}

/** Objects that only mark a scene's edge. */
const BOUNDARY = /^(fence|wall|stake)_/;

/** Axis-aligned extent of what the default view should show. */
export function workspaceBounds(meta: SceneMeta): { min: V; max: V } {
  // Frame the objects (by their extents: a table counts by its top), the robot, the people and the named places.
  const boxes: Array<[V, V]> = [
    // Fences and walls bound a field; what matters is inside them (framing them too shrinks a field's rover to a speck).
    ...meta.objects.filter((o) => !BOUNDARY.test(o.id)).map((o): [V, V] => [o.body.position, turnedSize(o.size, o.body.rotation)]),
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
  return { min, max };
}

/** The orbit camera's vertical field of view (Babylon's default), radians. */
const FOV = 0.8;
/** Past this extent (metres) a scene is a field, not a table: the default view comes from the robot's side. */
const LARGE_SCENE_M = 6;

/**
 * The distance at which every corner of the box fits the view from these angles,
 * with a margin: the box's far side and the canvas's aspect ratio both count, so
 * a table at the edge of a tall, narrow view is not cut off.
 */
export function fitRadius(target: Vector3, min: V, max: V, alpha: number, beta: number, aspect: number): number {
  const back = new Vector3(Math.cos(alpha) * Math.sin(beta), Math.cos(beta), Math.sin(alpha) * Math.sin(beta));
  const right = Vector3.Cross(new Vector3(0, 1, 0), back).normalize();
  const up = Vector3.Cross(back, right).normalize();
  const tanV = Math.tan(FOV / 2);
  const tanH = tanV * Math.max(0.2, aspect);
  let need = 0;
  for (const x of [min[0], max[0]])
    for (const y of [min[1], max[1]])
      for (const z of [min[2], max[2]]) {
        const c = new Vector3(x, y, z).subtract(target);
        // Depth along the view direction is radius - c·back; the corner must fit both half-angles there.
        const d = Math.max(Math.abs(Vector3.Dot(c, right)) / tanH, Math.abs(Vector3.Dot(c, up)) / tanV) + Vector3.Dot(c, back);
        need = Math.max(need, d);
      }
  return need * 1.06;
}

/** Where the default view looks from and at, for a canvas of this aspect ratio. */
export interface Framing {
  alpha: number;
  beta: number;
  radius: number;
  target: Vector3;
}

/** The default view of the scene for a canvas of this aspect: the whole workspace, turned so the robot can be seen. */
export function defaultFraming(graph: SceneGraph, meta: SceneMeta, aspect = 16 / 9): Framing {
  const whole = workspaceBounds(meta);
  const large = Math.max(whole.max[0] - whole.min[0], whole.max[2] - whole.min[2], 0.8) > LARGE_SCENE_M;
  // On a field the whole workspace leaves the robot a speck: the default view frames the ground around it.
  const { min, max } = (large && robotSurroundings(graph, meta)) || whole;
  const target = new Vector3((min[0] + max[0]) / 2, Math.max(0.3, (min[1] + max[1]) / 2), (min[2] + max[2]) / 2);
  const view = viewOfRobot(graph, meta, target, min, max, aspect);
  return { alpha: view.alpha, beta: view.beta, radius: Math.min(60, Math.max(1.2, view.radius)), target };
}

/** The orbit camera, framed on the whole workspace and turned so the robot can be seen. */
export function makeOrbitCamera(graph: SceneGraph, meta: SceneMeta, aspect = 16 / 9): ArcRotateCamera {
  const scene = graph.scene;
  const { alpha, beta, radius, target } = defaultFraming(graph, meta, aspect);
  const cam = new ArcRotateCamera('orbit', alpha, beta, radius, target, scene);
  cam.fov = FOV;
  cam.lowerRadiusLimit = 0.3;
  cam.upperRadiusLimit = Math.max(80, radius * 4);
  cam.upperBetaLimit = Math.PI / 2 - 0.03;
  cam.minZ = 0.02;
  cam.maxZ = 400;
  cam.wheelDeltaPercentage = 0.02;
  cam.panningSensibility = 400 / Math.max(1, radius);
  cam.attachControl(true);
  return cam;
}

/**
 * The default viewing angles: the usual three-quarter view, unless something
 * hides the robot from there (the farm's rover starts inside its shelter, behind
 * an oak); then the nearest angle around the scene, a little lower if need be,
 * from which the robot can be seen.
 */
function viewOfRobot(
  graph: SceneGraph,
  meta: SceneMeta,
  target: Vector3,
  min: V,
  max: V,
  aspect: number,
): { alpha: number; beta: number; radius: number } {
  const start = Math.PI * 0.3;
  for (const m of graph.scene.meshes) m.computeWorldMatrix(true);
  for (const beta of [1.0, 1.2, 1.35]) {
    for (let k = 0; k < 12; k++) {
      const step = k % 2 === 0 ? k / 2 : -(k + 1) / 2; // 0, -1, 1, -2, 2 … twelfths of a turn
      const alpha = start + (step * Math.PI) / 6;
      const radius = fitRadius(target, min, max, alpha, beta, aspect);
      const eye = target.add(
        new Vector3(radius * Math.cos(alpha) * Math.sin(beta), radius * Math.cos(beta), radius * Math.sin(alpha) * Math.sin(beta)),
      );
      if (seesRobot(graph, eye, meta)) return { alpha, beta, radius };
    }
  }
  return { alpha: start, beta: 1.0, radius: fitRadius(target, min, max, start, 1.0, aspect) };
}

/** Half the side of the ground a field's default view frames around the robot, metres. */
const SURROUNDINGS_M = 3.5;

function robotSurroundings(graph: SceneGraph, meta: SceneMeta): { min: V; max: V } | undefined {
  for (const m of graph.scene.meshes) m.computeWorldMatrix(true);
  const p = robotPosition(graph, meta);
  if (!p) return undefined;
  return { min: [p.x - SURROUNDINGS_M, 0, p.z - SURROUNDINGS_M], max: [p.x + SURROUNDINGS_M, 1.5, p.z + SURROUNDINGS_M] };
}

function robotPosition(graph: SceneGraph, meta: SceneMeta): Vector3 | undefined {
  const part = meta.robot.bodies[0]?.part;
  return part ? graph.nodes.get(`robot#${part}`)?.getAbsolutePosition() : undefined;
}

/**
 * Follow-the-robot: the orbit's target eases towards the robot's base each frame
 * (the person keeps the angle and distance they chose).
 */
export function followRobot(cam: ArcRotateCamera, graph: SceneGraph, meta: SceneMeta): void {
  const p = robotPosition(graph, meta);
  if (!p) return;
  const goal = new Vector3(p.x, Math.max(0.3, p.y + 0.3), p.z);
  cam.target = Vector3.Lerp(cam.target, goal, 0.12);
  // On a field the whole-scene view is far away: following comes in close enough to see the robot.
  if (cam.radius > FOLLOW_RADIUS_M) cam.radius += (FOLLOW_RADIUS_M - cam.radius) * 0.08;
}

/** The farthest a follow camera stays from the robot, metres. */
const FOLLOW_RADIUS_M = 5;

/** A straight line from `eye` reaches the robot's first body before anything else. */
export function seesRobot(graph: SceneGraph, eye: Vector3, meta: SceneMeta): boolean {
  const part = meta.robot.bodies[0]?.part;
  const node = part ? graph.nodes.get(`robot#${part}`) : undefined;
  if (!node) return true;
  const to = node.getAbsolutePosition().add(new Vector3(0, 0.05, 0));
  const dir = to.subtract(eye);
  const length = dir.length();
  const hit = graph.scene.pickWithRay(
    new Ray(eye, dir.normalize(), length),
    // A still body's own (undrawn) mesh stands for it: its batch is drawn, never picked.
    (m) => m.isPickable && m.isEnabled() && (m.isVisible || graph.batched.proxies.has(m)) && !graph.colliderMeshes.includes(m as Mesh),
  );
  if (!hit?.hit) return true;
  return (hit.pickedMesh?.metadata as Tagged | undefined)?.id === 'robot';
}

/** The robot's camera: placed from the head or wrist pose, rendered into a texture on request, drawn on a 2D canvas. */
export class RobotCamera {
  private readonly cam: TargetCamera;
  private readonly rtt: RenderTargetTexture;
  private canvas: HTMLCanvasElement | null = null;
  private reading = false;
  /** Images rendered so far (each is a second pass over the scene: the probe counts what turning the view costs). */
  renders = 0;

  constructor(
    private readonly graph: SceneGraph,
    private readonly meta: SceneMeta,
  ) {
    const scene = graph.scene;
    this.cam = new TargetCamera('robot-camera', new Vector3(0, 1, 0), scene);
    this.cam.minZ = 0.02;
    // Past its range the camera perceives nothing: the image fades it out (fog) rather than cut it off.
    this.cam.maxZ = meta.robot.camera.range * RANGE_FADE;
    this.cam.fov = (meta.robot.camera.fovDeg * 0.75 * Math.PI) / 180;
    this.rtt = this.makeTexture(scene);
  }

  private makeTexture(scene: Scene): RenderTargetTexture {
    const rtt = new RenderTargetTexture('robot-camera-image', { width: INSET_W, height: INSET_H }, scene, false);
    rtt.activeCamera = this.cam;
    rtt.renderListPredicate = (m) => this.seen(m);
    rtt.refreshRate = RenderTargetTexture.REFRESHRATE_RENDER_ONCE;
    rtt.clearColor = scene.clearColor;
    let fog: [number, number] = [scene.fogStart, scene.fogEnd];
    rtt.onBeforeRenderObservable.add(() => {
      fog = [scene.fogStart, scene.fogEnd];
      scene.fogStart = this.meta.robot.camera.range;
      scene.fogEnd = this.meta.robot.camera.range * RANGE_FADE;
    });
    rtt.onAfterRenderObservable.add(() => {
      [scene.fogStart, scene.fogEnd] = fog;
      this.renders++;
      const target = this.canvas;
      if (!target || this.reading) return;
      const read = readAsync(scene.getEngine() as Engine) ?? rtt.readPixels();
      if (!read) return;
      this.reading = true;
      read
        .then((buf) => drawFlipped(target, new Uint8ClampedArray(buf.buffer, buf.byteOffset, buf.byteLength), INSET_W, INSET_H))
        .catch(() => undefined)
        .finally(() => {
          this.reading = false;
        });
    });
    return rtt;
  }

  /**
   * What the image shows: visible meshes, not colliders, and for a wrist camera
   * not the robot itself (the camera sits inside the hand's coarse boxes, which
   * would fill the image with the forearm's grey).
   */
  private seen(m: AbstractMesh): boolean {
    if (!m.isEnabled() || !m.isVisible || this.graph.colliderMeshes.includes(m as Mesh)) return false;
    return this.meta.robot.camera.mount !== 'wrist' || (m.metadata as Tagged | undefined)?.id !== 'robot';
  }

  /**
   * What fills the image when something stands right in front of the lens (a
   * docked rover faces its shelter's back wall), else null: the image is then
   * one flat colour, and the caption says why.
   */
  blocked(): string | null {
    const hit = this.graph.scene.pickWithRay(
      this.cam.getForwardRay(BLOCKED_M),
      // A still body is found by its own (undrawn) mesh, never by the batch that draws it with the others.
      (m) =>
        (this.seen(m) || this.graph.batched.proxies.has(m)) &&
        !this.graph.batched.batches.has(m) &&
        (m.metadata as Tagged | undefined)?.id !== 'robot',
    );
    const tag = hit?.hit ? (hit.pickedMesh?.metadata as Tagged | undefined) : undefined;
    return tag ? `facing the ${tag.label.replace(/ \(.*\)$/, '')} ${hit!.distance.toFixed(1)} m away` : null;
  }

  /** The 2D canvas the image is drawn on (null: it just stops drawing). */
  setCanvas(canvas: HTMLCanvasElement | null): void {
    this.canvas = canvas;
  }

  /** Places the camera where the robot's camera is now and asks for one render. */
  refresh(): void {
    this.place();
    // Drawn from its first refresh on (not in the scene's first frame, which it would slow).
    const targets = this.graph.scene.customRenderTargets;
    if (!targets.includes(this.rtt)) targets.push(this.rtt);
    this.rtt.resetRefreshCounter();
  }

  private place(): void {
    const c = this.meta.robot.camera;
    const pitch = (c.pitchDeg * Math.PI) / 180;
    let p: V;
    let q: Q;
    const hand = this.graph.nodes.get('robot#hand');
    const base = this.graph.nodes.get('robot#base');
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
    let up = rotate(q, [0, 1, 0]);
    // Shown upright: a camera rolled upside down (a wrist turned over) sees the same 4:3 field turned half a turn.
    if (up[1] < 0) up = [-up[0], -up[1], -up[2]];
    this.cam.position.set(p[0], p[1], p[2]);
    this.cam.upVector.set(up[0], up[1], up[2]);
    this.cam.setTarget(new Vector3(p[0] + fwd[0], p[1] + fwd[1], p[2] + fwd[2]));
  }
}

/**
 * Reads the image from the render target still bound (WebGL 2) through a pixel
 * buffer and a fence, so the page goes on drawing while the GPU finishes: a plain
 * readPixels waits for every queued command, which under software GL held the
 * page's main thread ~20 % of the time at 5 reads a second. Null on WebGL 1.
 */
function readAsync(engine: Engine): Promise<ArrayBufferView> | null {
  if (engine.webGLVersion < 2) return null;
  const gl = engine._gl;
  return engine._readPixelsAsync(0, 0, INSET_W, INSET_H, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(INSET_W * INSET_H * 4));
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
