// Labels that stay on (presentation mode): where each named thing appears on the
// canvas, so a class at the back of the room can follow "the lemon" without a
// mouse over it. Projected a few times a second, not every frame.
import type { Camera } from '@babylonjs/core/Cameras/camera';
import type { Engine } from '@babylonjs/core/Engines/engine';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { SceneMeta } from '../../../contract/schemas';
import type { SceneGraph } from './world-build';

export interface LabelPoint {
  id: string;
  label: string;
  /** CSS pixels from the canvas's top-left corner. */
  x: number;
  y: number;
  kind: 'object' | 'robot' | 'person' | 'place';
}

/** How large a label is drawn (its text grows with presentation mode's scale). */
export interface LabelSize {
  /** Average width of a character, in CSS pixels. */
  charPx: number;
  /** A label's height with its padding, in CSS pixels. */
  heightPx: number;
}

/** Label size for a font size in CSS pixels: generous, since a wide character or a line gap costs an overlap. */
export function labelSize(fontPx: number): LabelSize {
  return { charPx: fontPx * 0.62, heightPx: fontPx * 1.45 + 4 };
}

/** Things that would only clutter: fences and walls repeat around a scene. */
const BACKGROUND = /^(fence|wall|stake)_/;

/** The things worth a label: movable objects, named furniture, people, the robot and named places. */
export function labelTargets(meta: SceneMeta): Array<Omit<LabelPoint, 'x' | 'y'> & { key: string; lift: number }> {
  return [
    ...meta.objects
      .filter((o) => !o.hidden && !BACKGROUND.test(o.id))
      .map((o) => ({ id: o.id, key: o.id, label: o.name, kind: 'object' as const, lift: o.size[1] / 2 + 0.03 })),
    ...meta.people.map((p) => ({ id: p.id, key: p.id, label: p.name, kind: 'person' as const, lift: p.height + 0.1 })),
    ...(meta.robot.bodies[0]
      ? [
          {
            id: 'robot',
            key: `robot#${meta.robot.bodies[0].part}`,
            label: meta.robot.title.split(' (')[0]!,
            kind: 'robot' as const,
            lift: 0.45,
          },
        ]
      : []),
    ...meta.locations.map((l) => ({ id: l.id, key: l.id, label: l.title ?? l.id, kind: 'place' as const, lift: 0.02 })),
  ];
}

/** Where each target appears now; those behind the camera or off the canvas are left out. */
export function projectLabels(
  engine: Engine,
  camera: Camera,
  graph: SceneGraph,
  meta: SceneMeta,
  size: LabelSize = { charPx: 7.5, heightPx: 20 },
): LabelPoint[] {
  const w = engine.getRenderWidth();
  const h = engine.getRenderHeight();
  const k = engine.getHardwareScalingLevel();
  const viewport = camera.viewport.toGlobal(w, h);
  const transform = graph.scene.getTransformMatrix();
  const out: LabelPoint[] = [];
  for (const t of labelTargets(meta)) {
    const n = graph.nodes.get(t.key);
    if (!n) continue;
    const world = n.getAbsolutePosition().add(new Vector3(0, t.lift, 0));
    const p = Vector3.Project(world, Matrix.Identity(), transform, viewport);
    if (p.z < 0 || p.z > 1 || p.x < 0 || p.y < 0 || p.x > w || p.y > h) continue;
    out.push({ id: t.id, label: t.label, kind: t.kind, x: p.x * k, y: p.y * k });
  }
  return declutter(out, size.charPx, size.heightPx);
}

/**
 * Moves labels that would cover each other upwards, nearest the camera first
 * (lowest on screen), so neighbours on a table stay readable. Label boxes are
 * estimated from the text length; a few pixels of error do not matter.
 */
export function declutter(points: LabelPoint[], charPx = 7.5, heightPx = 20): LabelPoint[] {
  const placed: Array<{ x0: number; x1: number; y: number }> = [];
  const out: LabelPoint[] = [];
  for (const p of [...points].sort((a, b) => b.y - a.y)) {
    const w = p.label.length * charPx + 12;
    const x0 = p.x - w / 2;
    const x1 = p.x + w / 2;
    let y = p.y;
    for (let moved = true, guard = 0; moved && guard < 12; guard++) {
      moved = false;
      for (const q of placed) {
        if (x0 < q.x1 && x1 > q.x0 && Math.abs(y - q.y) < heightPx) {
          y = q.y - heightPx;
          moved = true;
        }
      }
    }
    placed.push({ x0, x1, y });
    out.push({ ...p, y });
  }
  return out;
}
