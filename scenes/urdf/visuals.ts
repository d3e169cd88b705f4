// What the app draws of a described robot: each link's <visual> shapes (boxes,
// cylinders, spheres, and STL / OBJ meshes as their triangles, scaled), with the
// visual's origin and material colour, in the link's URDF frame. A link whose
// visual cannot be drawn from its file (COLLADA, a mesh not found or not read)
// is drawn as its collision shapes, and a note on the link says so; a link whose
// meshes carry more vertices than one drawn link may is drawn simplified, and a
// note says that too. The physics never reads this.
import type { MeshData } from './mesh';
import { meshFormat } from './mesh';
import type { Origin, Problem, RobotDescription, V3 } from './model';

/** Most vertices one link is drawn with (its triangles' corners): the contract's MESH_MAX_VERTICES. */
export const LINK_MAX_VERTICES = 65_536;

export type DrawnGeometry =
  | { kind: 'box'; size: V3 }
  | { kind: 'cylinder'; radius: number; length: number }
  | { kind: 'sphere'; radius: number }
  /** Three corners per triangle (x, y, z each), scaled as the <mesh scale> says: faces are shaded flat. */
  | { kind: 'triangles'; positions: Float32Array };

export interface DrawnShape {
  origin: Origin;
  geometry: DrawnGeometry;
  /** #rrggbbaa from the visual's material (its own rgba or the robot's named one); null without one. */
  color: string | null;
}

/** A link drawn from its <visual> (`note` says when simplified), or as its collision shapes and why. */
export type DrawnLink = { kind: 'visual'; shapes: DrawnShape[]; note: string | null } | { kind: 'collision'; why: string };

export interface Drawing {
  /** Links with something to draw, by name (a link without <visual> is not drawn). */
  links: Map<string, DrawnLink>;
  /** Warnings, one per link drawn other than its <visual> says (a mesh not found has the loader's instead). */
  notes: Problem[];
}

const memo = new WeakMap<RobotDescription, { meshes: ReadonlyMap<string, { mesh: MeshData }>; max: number; drawing: Drawing }>();

/** How each link of `d` is drawn; computed once per description and meshes. */
export function drawRobot(d: RobotDescription, meshes: ReadonlyMap<string, { mesh: MeshData }>, maxVertices = LINK_MAX_VERTICES): Drawing {
  const seen = memo.get(d);
  if (seen && seen.meshes === meshes && seen.max === maxVertices) return seen.drawing;
  const drawing: Drawing = { links: new Map(), notes: [] };
  for (const link of d.links) {
    if (!link.visuals.length) continue;
    const at = `link "${link.name}"`;
    const shapes: DrawnShape[] = [];
    let missing: string | undefined;
    // A mesh of a format read that was not found or not read has its own warning from the loader.
    let said = false;
    for (const v of link.visuals) {
      const g = v.geometry;
      if (g.kind !== 'mesh') {
        shapes.push({ origin: v.origin, geometry: g, color: v.color });
        continue;
      }
      const m = meshes.get(g.file);
      if (!m) {
        const f = meshFormat(g.file);
        if (missing === undefined) said = f === 'stl' || f === 'obj';
        missing ??= `visual mesh "${g.file}": ${f === 'dae' ? 'COLLADA (.dae) is not read' : f === 'other' ? 'not STL or OBJ' : 'not read (see its warning)'}`;
        continue;
      }
      shapes.push({ origin: v.origin, geometry: { kind: 'triangles', positions: corners(m.mesh, g.scale) }, color: v.color });
    }
    if (missing !== undefined) {
      const as = link.collisions.length ? 'its collision shapes' : 'a small box (it has no collision shapes either)';
      drawing.links.set(link.name, { kind: 'collision', why: `${missing}; the link is drawn as ${as}` });
      if (!said)
        drawing.notes.push({
          element: at,
          problem: `${missing}; the link is drawn as ${as}`,
          fix: 'convert the visual mesh to STL or OBJ (e.g. with Blender or meshlab) and name that file',
          severity: 'warning',
        });
      continue;
    }
    const tris = (s: DrawnShape) => (s.geometry.kind === 'triangles' ? s.geometry.positions.length / 9 : 0);
    const total = shapes.reduce((n, s) => n + tris(s), 0);
    const budget = Math.floor(maxVertices / 3);
    let note: string | null = null;
    if (total > budget) {
      const drawn = shapes.map((s) =>
        s.geometry.kind === 'triangles'
          ? {
              ...s,
              geometry: { kind: 'triangles' as const, positions: simplify(s.geometry.positions, Math.floor((tris(s) * budget) / total)) },
            }
          : s,
      );
      shapes.splice(0, shapes.length, ...drawn);
      note = `its visual meshes have ${total} triangles, more than the ${budget} one drawn link may have: drawn simplified to ${shapes.reduce((n, s) => n + tris(s), 0)}`;
      drawing.notes.push({
        element: at,
        problem: note,
        fix: 'give a lighter visual mesh (decimate it, e.g. in Blender or meshlab)',
        severity: 'warning',
      });
    }
    drawing.links.set(link.name, { kind: 'visual', shapes, note });
  }
  memo.set(d, { meshes, max: maxVertices, drawing });
  return drawing;
}

/** A mesh's triangles as their corners in order, scaled. */
function corners(m: MeshData, scale: V3): Float32Array {
  const out = new Float32Array(m.indices.length * 3);
  for (let i = 0; i < m.indices.length; i++) {
    const v = m.indices[i]! * 3;
    for (let k = 0; k < 3; k++) out[i * 3 + k] = m.positions[v + k]! * scale[k]!;
  }
  return out;
}

/**
 * Triangle corners (nine numbers a triangle) simplified to at most `maxTriangles` by vertex
 * clustering: corners in one cell of a grid over the mesh become the cell's mean, triangles
 * left with two corners in one cell go, and the grid coarsens until few enough remain. The
 * winding of every triangle kept is its own.
 */
export function simplify(soup: Float32Array, maxTriangles: number): Float32Array {
  const n = soup.length / 9;
  if (n <= maxTriangles) return soup;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < soup.length; i++) {
    const k = i % 3;
    min[k] = Math.min(min[k]!, soup[i]!);
    max[k] = Math.max(max[k]!, soup[i]!);
  }
  const size = Math.max(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!, 1e-9);
  const keys = new Float64Array(n * 3);
  for (let cells = Math.max(1, Math.ceil(Math.sqrt(maxTriangles))); ; cells = Math.floor(cells * 0.75)) {
    const step = size / Math.max(1, cells);
    const side = cells + 1;
    const sums = new Map<number, [number, number, number, number]>();
    for (let c = 0; c < n * 3; c++) {
      const [x, y, z] = [soup[c * 3]!, soup[c * 3 + 1]!, soup[c * 3 + 2]!];
      const cell = (v: number, k: number) => Math.min(cells, Math.floor((v - min[k]!) / step));
      const key = cell(x, 0) + side * (cell(y, 1) + side * cell(z, 2));
      keys[c] = key;
      const s = sums.get(key) ?? [0, 0, 0, 0];
      s[0] += x;
      s[1] += y;
      s[2] += z;
      s[3]++;
      sums.set(key, s);
    }
    const kept: number[] = [];
    const once = new Set<string>();
    for (let t = 0; t < n; t++) {
      const [a, b, c] = [keys[t * 3]!, keys[t * 3 + 1]!, keys[t * 3 + 2]!];
      if (a === b || b === c || a === c) continue;
      const id = [a, b, c].sort((p, q) => p - q).join(' ');
      if (once.has(id)) continue;
      once.add(id);
      kept.push(t);
    }
    if (kept.length > maxTriangles && cells > 1) continue;
    const out = new Float32Array(Math.min(kept.length, maxTriangles) * 9);
    for (let i = 0; i < out.length / 9; i++)
      for (let c = 0; c < 3; c++) {
        const s = sums.get(keys[kept[i]! * 3 + c]!)!;
        for (let k = 0; k < 3; k++) out[i * 9 + c * 3 + k] = s[k]! / s[3]!;
      }
    return out;
  }
}
