// Bodies at rest drawn in batches: the meshes of the bodies that stand still
// (counters, walls, fences, location markers, and movable objects until they
// move) are merged with the others of the same material in the same cell of a
// grid on the floor; bodies share one vertex-coloured material, so a cell's
// bodies cost one draw call (software GL pays per draw call), and a cell out of
// view is culled whole (one batch of a whole field would be drawn even when the
// camera looks at one corner). The original meshes stay as invisible stand-ins:
// hover, labels, screen boxes and the robot camera's "what is in front" check
// still find each body, and a highlighted one is shown again (drawn over its
// batch) so its outline appears. A batched body that moves (a pose frame, a drag,
// a replay) leaves its batch: the cell is merged again without it, and its own
// mesh is drawn from then on.
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode';

/** A cell's side, metres: a tabletop or a kitchen is one to four cells, a field a few dozen. */
export const CELL_M = 6;
/** How far a batched body may drift (settling on its support) before it leaves its batch, metres. */
const MOVED_M = 0.003;
/** The same for turning: 1 − |q·q₀| beyond this (about half a degree). */
const TURNED = 1e-5;

/** The cell a point on the floor falls in (x and z in metres). */
export function cellKey(x: number, z: number, size = CELL_M): string {
  return `${Math.floor(x / size)},${Math.floor(z / size)}`;
}

interface Cell {
  name: string;
  members: Mesh[];
  batch: Mesh | null;
}

/** Where a movable body stood when it was batched. */
interface Rest {
  node: TransformNode;
  position: Vector3;
  rotation: Quaternion | null;
}

export class Batches {
  /** Merged meshes, one per material and cell (drawn; never picked). */
  readonly batches = new Set<AbstractMesh>();
  /** The meshes they replace in the image (not drawn; picked, highlighted, measured). */
  readonly proxies = new Set<AbstractMesh>();
  private readonly cellOf = new Map<Mesh, Cell>();
  private readonly rest = new Map<Mesh, Rest>();

  /**
   * `changed` hears of batches made and dropped, and meshes drawn on their own again
   * (shadow casters follow them).
   */
  constructor(
    private readonly cellM = CELL_M,
    private readonly changed: (made: Mesh[], dropped: Mesh[], freed: Mesh[]) => void = () => undefined,
  ) {}

  /**
   * Batches the given meshes where they stand, per material and cell; `movable`
   * holds the nodes that may move (watched by `releaseMoved`). A mesh alone in its
   * cell with its material stays as it is. Returns the batches made.
   */
  add(meshes: readonly Mesh[], movable: ReadonlySet<TransformNode> = new Set()): Mesh[] {
    const groups = new Map<string, Mesh[]>();
    for (const m of meshes) {
      if (!m.material || !m.isEnabled() || !m.getTotalVertices() || this.cellOf.has(m)) continue;
      m.computeWorldMatrix(true);
      // The body's origin as placed (a root node's own position: its world matrix is single precision), else the mesh's centre.
      const node = m.parent as TransformNode | null;
      const c = node ? (node.parent ? node.getAbsolutePosition() : node.position) : m.getBoundingInfo().boundingBox.centerWorld;
      const key = `${m.material.name}#${m.material.uniqueId}@${cellKey(c.x, c.z, this.cellM)}`;
      groups.set(key, [...(groups.get(key) ?? []), m]);
    }
    const made: Mesh[] = [];
    for (const [name, members] of groups) {
      if (members.length < 2) continue;
      const cell: Cell = { name, members, batch: null };
      for (const m of members) {
        this.cellOf.set(m, cell);
        m.isVisible = false;
        this.proxies.add(m);
        const node = m.parent as TransformNode | null;
        if (node && movable.has(node))
          this.rest.set(m, { node, position: node.position.clone(), rotation: node.rotationQuaternion?.clone() ?? null });
      }
      const batch = this.merge(cell);
      if (batch) made.push(batch);
    }
    this.changed(made, [], []);
    return made;
  }

  /** The batch a mesh is drawn in, if any. */
  batchOf(m: Mesh): Mesh | null {
    return this.cellOf.get(m)?.batch ?? null;
  }

  /** Batched movable bodies that moved since they were batched leave their batches; returns how many left. */
  releaseMoved(): number {
    const moved: Mesh[] = [];
    for (const [m, r] of this.rest) if (hasMoved(r)) moved.push(m);
    return this.release(moved);
  }

  /** These meshes leave their batches and are drawn on their own; each cell they leave is merged again once. */
  release(meshes: readonly Mesh[]): number {
    const cells = new Set<Cell>();
    for (const m of meshes) {
      const cell = this.cellOf.get(m);
      if (!cell) continue;
      this.cellOf.delete(m);
      this.rest.delete(m);
      this.proxies.delete(m);
      m.isVisible = true;
      cell.members = cell.members.filter((x) => x !== m);
      cells.add(cell);
    }
    if (!cells.size) return 0;
    const made: Mesh[] = [];
    const dropped: Mesh[] = [];
    const freed = [...meshes];
    for (const cell of cells) {
      if (cell.batch) {
        dropped.push(cell.batch);
        this.batches.delete(cell.batch);
        cell.batch.dispose();
        cell.batch = null;
      }
      // One left: it is drawn as itself.
      if (cell.members.length < 2) {
        for (const m of cell.members) {
          this.cellOf.delete(m);
          this.rest.delete(m);
          this.proxies.delete(m);
          m.isVisible = true;
          freed.push(m);
        }
        cell.members = [];
        continue;
      }
      const batch = this.merge(cell);
      if (batch) made.push(batch);
    }
    this.changed(made, dropped, freed);
    return meshes.length;
  }

  /** Merges a cell's members, as they stand, into its batch (copies merged in world space: the members stay). */
  private merge(cell: Cell): Mesh | null {
    const [first] = cell.members;
    if (!first?.material) return null;
    const copies = cell.members.map((m) => {
      const c = m.clone(`${m.name}:copy`, m.parent, true, false);
      c.computeWorldMatrix(true);
      return c;
    });
    const merged = Mesh.MergeMeshes(copies, true, true);
    if (!merged) return null;
    merged.name = `batch:${cell.name}`;
    merged.material = first.material;
    merged.isPickable = false;
    merged.isVisible = true;
    merged.metadata = null;
    merged.receiveShadows = cell.members.some((m) => m.receiveShadows);
    merged.computeWorldMatrix(true);
    merged.freezeWorldMatrix();
    merged.doNotSyncBoundingInfo = true;
    cell.batch = merged;
    this.batches.add(merged);
    return merged;
  }
}

function hasMoved(r: Rest): boolean {
  if (Vector3.DistanceSquared(r.node.position, r.position) > MOVED_M * MOVED_M) return true;
  const q = r.node.rotationQuaternion;
  if (!q || !r.rotation) return false;
  return 1 - Math.abs(Quaternion.Dot(q, r.rotation)) > TURNED;
}
