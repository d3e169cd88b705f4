// Picking: what is under the pointer (hover labels), where a body appears on
// the canvas, and where it is in the world, as drawn.
import type { Camera } from '@babylonjs/core/Cameras/camera';
import type { Engine } from '@babylonjs/core/Engines/engine';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { SceneGraph, Tagged } from './world-build';

export interface Hover {
  id: string;
  label: string;
  x: number;
  y: number;
}

/** Hover picks at most this often: a pick walks every mesh, which software GL's CPU cannot spare each move. */
const PICK_PERIOD_MS = 60;

export class Picker {
  private lastPick = 0;

  constructor(
    private readonly graph: SceneGraph,
    private readonly onHover: (h: Hover | null) => void,
  ) {}

  /** The tagged mesh under the pointer, reported to onHover (throttled). */
  hover(camera: Camera | undefined): void {
    const s = this.graph.scene;
    const now = performance.now();
    if (now - this.lastPick < PICK_PERIOD_MS) return;
    this.lastPick = now;
    const tag = this.tagAt(s.pointerX, s.pointerY, camera);
    this.onHover(tag ? { id: tag.id, label: tag.label, x: s.pointerX, y: s.pointerY } : null);
  }

  /** The tagged mesh at a canvas point (CSS pixels), if any. */
  tagAt(x: number, y: number, camera: Camera | undefined): Tagged | undefined {
    const hit = this.graph.scene.pick(
      x,
      y,
      (m) => m.isPickable && m.isEnabled() && m.metadata !== null && m.metadata !== undefined,
      false,
      camera,
    );
    return hit?.hit ? (hit.pickedMesh?.metadata as Tagged | undefined) : undefined;
  }

  /** Where a body's origin appears on the canvas, in CSS pixels from its top-left corner. */
  screenPoint(engine: Engine, camera: Camera | undefined, id: string): [number, number] | null {
    const n = this.graph.nodes.get(id);
    if (!n || !camera) return null;
    const w = engine.getRenderWidth();
    const h = engine.getRenderHeight();
    const p = Vector3.Project(
      n.getAbsolutePosition(),
      Matrix.Identity(),
      this.graph.scene.getTransformMatrix(),
      camera.viewport.toGlobal(w, h),
    );
    const k = engine.getHardwareScalingLevel();
    return [p.x * k, p.y * k];
  }

  /** Where the top centre of a body's meshes appears on the canvas (CSS pixels), or null behind the camera. */
  topPoint(engine: Engine, camera: Camera | undefined, id: string): [number, number] | null {
    const n = this.graph.nodes.get(id);
    if (!n || !camera) return null;
    const { min, max } = n.getHierarchyBoundingVectors(true);
    const top = new Vector3((min.x + max.x) / 2, max.y, (min.z + max.z) / 2);
    const vp = camera.viewport.toGlobal(engine.getRenderWidth(), engine.getRenderHeight());
    const p = Vector3.Project(top, Matrix.Identity(), this.graph.scene.getTransformMatrix(), vp);
    if (p.z < 0 || p.z > 1) return null;
    const k = engine.getHardwareScalingLevel();
    return [p.x * k, p.y * k];
  }

  /** The canvas rectangle (CSS pixels: left, top, right, bottom) that a body's meshes cover, unclipped. */
  screenBox(engine: Engine, camera: Camera | undefined, id: string): [number, number, number, number] | null {
    const n = this.graph.nodes.get(id);
    if (!n || !camera) return null;
    const { min, max } = n.getHierarchyBoundingVectors(true);
    const vp = camera.viewport.toGlobal(engine.getRenderWidth(), engine.getRenderHeight());
    const m = this.graph.scene.getTransformMatrix();
    const k = engine.getHardwareScalingLevel();
    const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < 8; i++) {
      const c = new Vector3(i & 1 ? max.x : min.x, i & 2 ? max.y : min.y, i & 4 ? max.z : min.z);
      const p = Vector3.Project(c, Matrix.Identity(), m, vp);
      box[0] = Math.min(box[0], p.x * k);
      box[1] = Math.min(box[1], p.y * k);
      box[2] = Math.max(box[2], p.x * k);
      box[3] = Math.max(box[3], p.y * k);
    }
    return box;
  }

  bodyPosition(id: string): [number, number, number] | null {
    const n = this.graph.nodes.get(id);
    if (!n) return null;
    const p = n.getAbsolutePosition();
    return [p.x, p.y, p.z];
  }
}
