// Dragging an object in the view to move it: press on a movable object, drag it
// across the horizontal plane it rests at, release to ask the host to move it
// there (an exogenous "object moved" event, as a person would move it). The
// camera does not orbit while an object is dragged; pressing anywhere else
// orbits as usual.
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { PointerEventTypes, type PointerInfoPre } from '@babylonjs/core/Events/pointerEvents';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import type { Observer } from '@babylonjs/core/Misc/observable';
import type { SceneGraph, Tagged } from './world-build';

export type DropHandler = (id: string, to: [number, number, number]) => void;

/** Lift above the plane it was dragged on, so the object settles instead of starting inside its support. */
const DROP_LIFT_M = 0.03;

export class ObjectDrag {
  private dragging: { id: string; node: TransformNode; y: number } | undefined;
  private readonly observer: Observer<PointerInfoPre>;
  /** Ids whose nodes the pose stream must not move (being dragged, or just dropped). */
  readonly held = new Set<string>();

  constructor(
    private readonly graph: SceneGraph,
    private readonly camera: () => ArcRotateCamera,
    private readonly movable: ReadonlySet<string>,
    private readonly onDrop: () => DropHandler | null,
  ) {
    this.observer = graph.scene.onPrePointerObservable.add((pi) => this.pointer(pi))!;
  }

  dispose(): void {
    this.graph.scene.onPrePointerObservable.remove(this.observer);
  }

  private pointer(pi: PointerInfoPre): void {
    const s = this.graph.scene;
    const drop = this.onDrop();
    if (!drop) return;
    const evt = pi.event as PointerEvent;
    if (pi.type === PointerEventTypes.POINTERDOWN && evt.button === 0 && !this.dragging) {
      const hit = s.pick(s.pointerX, s.pointerY, (m) => m.isPickable && m.isEnabled() && m.metadata !== null && m.metadata !== undefined);
      const id = (hit?.pickedMesh?.metadata as Tagged | undefined)?.id;
      const node = id ? this.graph.nodes.get(id) : undefined;
      if (!id || !node || !this.movable.has(id)) return;
      this.dragging = { id, node, y: node.getAbsolutePosition().y };
      this.held.add(id);
      pi.skipOnPointerObservable = true;
      return;
    }
    const d = this.dragging;
    if (!d) return;
    pi.skipOnPointerObservable = true;
    if (pi.type === PointerEventTypes.POINTERMOVE) {
      const p = this.onPlane(d.y);
      if (p) d.node.position.set(p.x, d.y, p.z);
    } else if (pi.type === PointerEventTypes.POINTERUP) {
      this.dragging = undefined;
      const p = d.node.position;
      drop(d.id, [round(p.x), round(d.y + DROP_LIFT_M), round(p.z)]);
      // Keep it where it was dropped until the host's frames show it there.
      setTimeout(() => this.held.delete(d.id), 600);
    }
  }

  /** Where the pointer's ray meets the horizontal plane at height y. */
  private onPlane(y: number): Vector3 | undefined {
    const s = this.graph.scene;
    const ray = s.createPickingRay(s.pointerX, s.pointerY, Matrix.Identity(), this.camera());
    if (Math.abs(ray.direction.y) < 1e-4) return undefined;
    const t = (y - ray.origin.y) / ray.direction.y;
    if (t <= 0) return undefined;
    return ray.origin.add(ray.direction.scale(t));
  }

  get active(): string | undefined {
    return this.dragging?.id;
  }
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
