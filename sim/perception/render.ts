// A headless camera image, in plain Node without a GPU: the physics world's
// shapes (the same colliders the robot's sight rays meet) rasterised from the
// robot's camera with a depth buffer, each surface in its catalogue colour with
// Lambert shading from one light, and far surfaces fading toward the sky so
// depth reads. The app draws with Babylon in its window; MCP clients, models that
// see, MCAP exports and the Foxglove view get this: what the camera sees, not a
// photograph. The robot's own links are transparent here as they are to its
// perception. ./render-rays.ts casts one ray per pixel instead: exact, and a
// hundred times slower; the tests hold this one to it.
import type { Collider } from '@dimforge/rapier3d-simd-compat';
import { type Vec3, poseApply } from '../math';
import { G } from '../groups';
import type { SimWorld } from '../world/sim-world';
import { colliderShape, shapeGeometries } from '../world/body-shapes';
import { cameraView } from './camera';
import { boxMesh, capsuleMesh, cylinderMesh, type Mesh } from './meshes';

export interface CameraImage {
  width: number;
  height: number;
  /** RGB, 8 bits per channel, rows top to bottom. */
  rgb: Uint8Array;
  /** Which entity or person each pixel shows ('' for floor, walls and sky), row-major. */
  labels: string[];
  /** Sim time of the image, seconds. */
  time: number;
}

export const SKY: Vec3 = { x: 0.78, y: 0.84, z: 0.9 };
export const PERSON = '#c98e6b';
export const UNKNOWN = '#8a8a8a';
// Light from above and a little behind the camera's usual view; ambient keeps shadows readable.
export const LIGHT = normalise({ x: 0.3, y: 1, z: 0.4 });
export const AMBIENT = 0.45;
/** What sight meets: everything but the robot's own base and arm. */
export const SEEN_MASK = G.STATIC | G.OBJECT | G.HELD | G.DOOR | G.PERSON | G.FLOOR;
const NEAR = 0.01;

export function normalise(v: Vec3): Vec3 {
  const l = Math.hypot(v.x, v.y, v.z) || 1;
  return { x: v.x / l, y: v.y / l, z: v.z / l };
}

export function rgbOf(hex: string): Vec3 {
  const n = parseInt(hex.slice(1), 16);
  return { x: ((n >> 16) & 255) / 255, y: ((n >> 8) & 255) / 255, z: (n & 255) / 255 };
}

/** The image size asked for, clamped to 16–640 × 12–480 (height 3/4 of the width unless given). */
export function imageSize(size: { width?: number; height?: number }): { width: number; height: number } {
  const width = Math.round(Math.min(640, Math.max(16, size.width ?? 160)));
  return { width, height: Math.round(Math.min(480, Math.max(12, size.height ?? (width * 3) / 4))) };
}

const MESHES = new Map<string, Mesh | null>();
const PARTS = new WeakMap<object, Mesh[]>();

/** The collider's meshes in its own frame: one for a primitive, one per convex part for a hull or a decomposed mesh. */
function meshesOf(c: Collider): readonly Mesh[] {
  const type = c.shapeType() as number;
  // ConvexPolyhedron 9, Compound 8 (a decomposed mesh's parts): built once per shape.
  if (type === 9 || type === 8) {
    let m = PARTS.get(c.shape);
    if (!m) {
      m = [];
      for (const part of shapeGeometries(colliderShape(c))) {
        if (part.geometry.shape !== 'mesh') continue;
        const { positions, indices } = part.geometry;
        const moved: number[] = [];
        for (let i = 0; i < positions.length; i += 3) {
          const w = poseApply({ p: part.p, q: part.q }, { x: positions[i]!, y: positions[i + 1]!, z: positions[i + 2]! });
          moved.push(w.x, w.y, w.z);
        }
        const mesh = convexMesh(moved, indices);
        if (mesh) m.push(mesh);
      }
      PARTS.set(c.shape, m);
    }
    return m;
  }
  const one = meshOf(c);
  return one ? [one] : [];
}

/** A convex part as a mesh, welded, every triangle wound away from its centre; null when it is too large or flat for the rasteriser. */
function convexMesh(v: readonly number[], index: readonly number[]): Mesh | null {
  const at = new Map<string, number>();
  const positions: number[] = [];
  const remap = (i: number): number => {
    const key = `${v[i * 3]},${v[i * 3 + 1]},${v[i * 3 + 2]}`;
    let j = at.get(key);
    if (j === undefined) {
      at.set(key, (j = positions.length / 3));
      positions.push(v[i * 3]!, v[i * 3 + 1]!, v[i * 3 + 2]!);
    }
    return j;
  };
  const tris: number[] = [];
  for (let f = 0; f + 2 < index.length; f += 3) tris.push(remap(index[f]!), remap(index[f + 1]!), remap(index[f + 2]!));
  const m = positions.length / 3;
  if (m > 512 || m < 4) return null;
  const centre = [0, 1, 2].map((k) => positions.reduce((s, x, i) => (i % 3 === k ? s + x : s), 0) / m);
  const p = (i: number, k: number): number => positions[i * 3 + k]!;
  for (let f = 0; f < tris.length; f += 3) {
    const [a, b, d] = [tris[f]!, tris[f + 1]!, tris[f + 2]!];
    const u = [0, 1, 2].map((k) => p(b, k) - p(a, k));
    const w = [0, 1, 2].map((k) => p(d, k) - p(a, k));
    const nrm = [u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!];
    // Outward: the part is convex, so its centre is behind every face.
    if ([0, 1, 2].reduce((s, k) => s + nrm[k]! * (p(a, k) - centre[k]!), 0) < 0) [tris[f + 1], tris[f + 2]] = [d, b];
  }
  return { positions: new Float32Array(positions), triangles: new Uint16Array(tris) };
}

/** The collider's mesh in its own frame; null for a shape the scenes do not use. */
function meshOf(c: Collider): Mesh | null {
  const type = c.shapeType() as number;
  const e = type === 1 ? c.halfExtents() : undefined;
  const key = e ? `b${e.x},${e.y},${e.z}` : `${type}:${c.radius()},${type === 0 ? 0 : c.halfHeight()}`;
  let m = MESHES.get(key);
  if (m === undefined) {
    // Ball 0, Cuboid 1, Capsule 2, Cylinder 10 (Rapier's ShapeType).
    m =
      type === 1 && e
        ? boxMesh(e.x, e.y, e.z)
        : type === 0
          ? capsuleMesh(0, c.radius())
          : type === 2
            ? capsuleMesh(c.halfHeight(), c.radius())
            : type === 10
              ? cylinderMesh(c.halfHeight(), c.radius())
              : null;
    MESHES.set(key, m);
  }
  return m;
}

/** Per pixel: the ray length per metre of depth along the optical axis (for the range and the fog). */
let stretchCache: { key: string; k: Float32Array } | undefined;
function stretch(width: number, height: number, tanH: number, tanV: number): Float32Array {
  const key = `${width}x${height}:${tanH}:${tanV}`;
  if (stretchCache?.key === key) return stretchCache.k;
  const k = new Float32Array(width * height);
  for (let row = 0; row < height; row++) {
    const up = tanV * (1 - (2 * (row + 0.5)) / height);
    for (let col = 0; col < width; col++) {
      const right = tanH * ((2 * (col + 0.5)) / width - 1);
      k[row * width + col] = Math.sqrt(1 + up * up + right * right);
    }
  }
  stretchCache = { key, k };
  return k;
}

interface Target {
  width: number;
  height: number;
  /** 1 / depth: larger is nearer; 0 is nothing. */
  near: Float32Array;
  surface: Int32Array;
  shade: Float32Array;
  k: Float32Array;
  range: number;
}

/** Fills one screen triangle (x, y in pixels, z = 1/depth) where it is nearer than what is there. */
function fill(t: Target, p: Float64Array, n: number, surface: number, shade: number): void {
  const x0 = p[0]!;
  const y0 = p[1]!;
  const z0 = p[2]!;
  for (let f = 1; f + 1 < n; f++) {
    const x1 = p[f * 3]!;
    const y1 = p[f * 3 + 1]!;
    const z1 = p[f * 3 + 2]!;
    const x2 = p[f * 3 + 3]!;
    const y2 = p[f * 3 + 4]!;
    const z2 = p[f * 3 + 5]!;
    const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    if (Math.abs(area) < 1e-9) continue;
    const inv = 1 / area;
    const c0 = Math.max(0, Math.ceil(Math.min(x0, x1, x2) - 0.5));
    const c1 = Math.min(t.width - 1, Math.floor(Math.max(x0, x1, x2) - 0.5));
    const r0 = Math.max(0, Math.ceil(Math.min(y0, y1, y2) - 0.5));
    const r1 = Math.min(t.height - 1, Math.floor(Math.max(y0, y1, y2) - 0.5));
    if (c0 > c1 || r0 > r1) continue;
    // Barycentric weights step linearly across a row; 1/depth is linear in screen space.
    const dw0 = (y1 - y2) * inv;
    const dw1 = (y2 - y0) * inv;
    for (let row = r0; row <= r1; row++) {
      const py = row + 0.5;
      const px = c0 + 0.5;
      let w0 = ((x1 - px) * (y2 - py) - (x2 - px) * (y1 - py)) * inv;
      let w1 = ((x2 - px) * (y0 - py) - (x0 - px) * (y2 - py)) * inv;
      let i = row * t.width + c0;
      for (let col = c0; col <= c1; col++, i++, w0 += dw0, w1 += dw1) {
        const w2 = 1 - w0 - w1;
        if (w0 < 0 || w1 < 0 || w2 < 0) continue;
        const z = w0 * z0 + w1 * z1 + w2 * z2;
        if (z <= t.near[i]! || t.k[i]! > t.range * z) continue;
        t.near[i] = z;
        t.surface[i] = surface;
        t.shade[i] = shade;
      }
    }
  }
}

/** Renders what the robot's camera sees now. Width and height are clamped to 16–640 and 12–480 pixels. */
export function renderCamera(sim: SimWorld, size: { width?: number; height?: number } = {}): CameraImage {
  const { width, height } = imageSize(size);
  const view = cameraView(sim);
  const tanH = Math.tan(view.halfHorizontal);
  const tanV = Math.tan(view.halfVertical);
  const { p: eye, q } = view.pose;
  const t: Target = {
    width,
    height,
    near: new Float32Array(width * height),
    surface: new Int32Array(width * height).fill(-1),
    shade: new Float32Array(width * height),
    k: stretch(width, height, tanH, tanV),
    range: view.range,
  };
  // Camera frame: forward +X, up +Y, right +Z; world to camera is the pose's inverse rotation.
  const [qx, qy, qz, qw] = [-q.x, -q.y, -q.z, q.w];
  const colours: Vec3[] = [];
  const labels: string[] = [];
  const floor = rgbOf(sim.scene.scene.floor.color);
  const cam = new Float64Array(3 * 512);
  const world = new Float64Array(3 * 512);
  const poly = new Float64Array(3 * 8);
  const screen = new Float64Array(3 * 8);

  sim.world.forEachCollider((c) => {
    const g = c.collisionGroups();
    if ((g & 0xffff) === 0 || ((g >>> 16) & SEEN_MASK) === 0 || !c.isEnabled()) return;
    const meshes = meshesOf(c);
    if (!meshes.length) return;
    const owner = sim.colliderOwner.get(c.handle);
    const e = owner ? sim.entities.get(owner) : undefined;
    colours.push(e ? rgbOf(e.spec.color) : owner && sim.people.has(owner) ? PERSON_RGB : (g >>> 16) & G.FLOOR ? floor : UNKNOWN_RGB);
    labels.push(owner ?? '');
    const surface = colours.length - 1;
    const tr = c.translation();
    const r = c.rotation();
    for (const mesh of meshes) {
      const nv = mesh.positions.length / 3;
      if (nv > 512) continue;
      for (let v = 0; v < nv; v++) {
        // World point: the collider's pose applied to the mesh vertex (v' = v + 2w(r×v) + 2r×(r×v)).
        const [vx, vy, vz] = [mesh.positions[v * 3]!, mesh.positions[v * 3 + 1]!, mesh.positions[v * 3 + 2]!];
        let cx = r.y * vz - r.z * vy;
        let cy = r.z * vx - r.x * vz;
        let cz = r.x * vy - r.y * vx;
        const wx = vx + 2 * (r.w * cx + r.y * cz - r.z * cy) + tr.x;
        const wy = vy + 2 * (r.w * cy + r.z * cx - r.x * cz) + tr.y;
        const wz = vz + 2 * (r.w * cz + r.x * cy - r.y * cx) + tr.z;
        world[v * 3] = wx;
        world[v * 3 + 1] = wy;
        world[v * 3 + 2] = wz;
        // Camera point: the inverse camera rotation applied to (world − eye).
        const [dx, dy, dz] = [wx - eye.x, wy - eye.y, wz - eye.z];
        cx = qy * dz - qz * dy;
        cy = qz * dx - qx * dz;
        cz = qx * dy - qy * dx;
        cam[v * 3] = dx + 2 * (qw * cx + qy * cz - qz * cy);
        cam[v * 3 + 1] = dy + 2 * (qw * cy + qz * cx - qx * cz);
        cam[v * 3 + 2] = dz + 2 * (qw * cz + qx * cy - qy * cx);
      }
      const tri = mesh.triangles;
      for (let f = 0; f < tri.length; f += 3) {
        const [a, b, d] = [tri[f]! * 3, tri[f + 1]! * 3, tri[f + 2]! * 3];
        const ux = world[b]! - world[a]!;
        const uy = world[b + 1]! - world[a + 1]!;
        const uz = world[b + 2]! - world[a + 2]!;
        const vx = world[d]! - world[a]!;
        const vy = world[d + 1]! - world[a + 1]!;
        const vz = world[d + 2]! - world[a + 2]!;
        const nx = uy * vz - uz * vy;
        const ny = uz * vx - ux * vz;
        const nz = ux * vy - uy * vx;
        // Facing away from the eye: the shape's other side hides it.
        if (nx * (world[a]! - eye.x) + ny * (world[a + 1]! - eye.y) + nz * (world[a + 2]! - eye.z) >= 0) continue;
        const len = Math.hypot(nx, ny, nz);
        const lambert = Math.max(0, (nx * LIGHT.x + ny * LIGHT.y + nz * LIGHT.z) / len);
        const n = clipNear(cam, a, b, d, poly);
        if (n < 3) continue;
        for (let k = 0; k < n; k++) {
          const x = poly[k * 3]!;
          screen[k * 3] = ((poly[k * 3 + 2]! / x / tanH + 1) * width) / 2;
          screen[k * 3 + 1] = ((1 - poly[k * 3 + 1]! / x / tanV) * height) / 2;
          screen[k * 3 + 2] = 1 / x;
        }
        fill(t, screen, n, surface, AMBIENT + (1 - AMBIENT) * lambert);
      }
    }
  });

  const rgb = new Uint8Array(width * height * 3);
  const pixelLabels: string[] = new Array<string>(width * height);
  const sky = [Math.round(SKY.x * 255), Math.round(SKY.y * 255), Math.round(SKY.z * 255)] as const;
  const fogScale = 1 / (view.range * 2);
  for (let i = 0; i < width * height; i++) {
    const s = t.surface[i]!;
    if (s < 0) {
      pixelLabels[i] = '';
      rgb[i * 3] = sky[0];
      rgb[i * 3 + 1] = sky[1];
      rgb[i * 3 + 2] = sky[2];
      continue;
    }
    pixelLabels[i] = labels[s]!;
    const base = colours[s]!;
    // Far surfaces fade toward the sky a little, so depth reads in a flat image.
    const fog = Math.min(0.5, (t.k[i]! / t.near[i]!) * fogScale);
    const lit = t.shade[i]! * (1 - fog) * 255;
    rgb[i * 3] = Math.min(255, Math.round(base.x * lit + sky[0] * fog));
    rgb[i * 3 + 1] = Math.min(255, Math.round(base.y * lit + sky[1] * fog));
    rgb[i * 3 + 2] = Math.min(255, Math.round(base.z * lit + sky[2] * fog));
  }
  return { width, height, rgb, labels: pixelLabels, time: sim.time };
}

const PERSON_RGB = rgbOf(PERSON);
const UNKNOWN_RGB = rgbOf(UNKNOWN);

/** The triangle (offsets a, b, d into camera points) cut to what lies in front of the near plane, into `out`; its vertex count. */
function clipNear(cam: Float64Array, a: number, b: number, d: number, out: Float64Array): number {
  let n = 0;
  const idx = [a, b, d];
  for (let k = 0; k < 3; k++) {
    const p = idx[k]!;
    const q = idx[(k + 1) % 3]!;
    const pIn = cam[p]! >= NEAR;
    const qIn = cam[q]! >= NEAR;
    if (pIn) {
      out[n * 3] = cam[p]!;
      out[n * 3 + 1] = cam[p + 1]!;
      out[n * 3 + 2] = cam[p + 2]!;
      n++;
    }
    if (pIn !== qIn) {
      const s = (NEAR - cam[p]!) / (cam[q]! - cam[p]!);
      out[n * 3] = NEAR;
      out[n * 3 + 1] = cam[p + 1]! + s * (cam[q + 1]! - cam[p + 1]!);
      out[n * 3 + 2] = cam[p + 2]! + s * (cam[q + 2]! - cam[p + 2]!);
      n++;
    }
  }
  return n;
}
