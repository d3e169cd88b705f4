// Triangle meshes of the physics world's shapes, for the headless camera's
// rasteriser: the same boxes, balls, cylinders and capsules its rays meet, so the
// picture and the robot's perception agree on what is where. Each mesh is built
// once per shape and size, in the shape's frame (Rapier's: a capsule's or a
// cylinder's axis is local +Y), with every triangle wound outward.

/** Flat arrays: 3 numbers a vertex, 3 vertex indices a triangle, wound outward. */
export interface Mesh {
  positions: Float32Array;
  triangles: Uint16Array;
}

type V = [number, number, number];

function build(vertices: V[], faces: Array<[number, number, number]>, centre: (v: V) => V): Mesh {
  const tris: number[] = [];
  for (const [a, b, c] of faces) {
    const [pa, pb, pc] = [vertices[a]!, vertices[b]!, vertices[c]!];
    const u: V = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
    const w: V = [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]];
    const n: V = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    if (Math.hypot(n[0], n[1], n[2]) < 1e-12) continue;
    // Outward: away from the axis point nearest the face (every shape here is convex).
    const m: V = [(pa[0] + pb[0] + pc[0]) / 3, (pa[1] + pb[1] + pc[1]) / 3, (pa[2] + pb[2] + pc[2]) / 3];
    const o = centre(m);
    const out = n[0] * (m[0] - o[0]) + n[1] * (m[1] - o[1]) + n[2] * (m[2] - o[2]) >= 0;
    tris.push(a, ...(out ? [b, c] : [c, b]));
  }
  return { positions: new Float32Array(vertices.flat()), triangles: new Uint16Array(tris) };
}

const origin = (): V => [0, 0, 0];

export function boxMesh(hx: number, hy: number, hz: number): Mesh {
  const v: V[] = [];
  for (const x of [-hx, hx]) for (const y of [-hy, hy]) for (const z of [-hz, hz]) v.push([x, y, z]);
  // Corner i has x = bit 2, y = bit 1, z = bit 0.
  const quads = [
    [0, 1, 3, 2],
    [4, 6, 7, 5],
    [0, 4, 5, 1],
    [2, 3, 7, 6],
    [0, 2, 6, 4],
    [1, 5, 7, 3],
  ];
  return build(
    v,
    quads.flatMap(([a, b, c, d]) => [
      [a!, b!, c!],
      [a!, c!, d!],
    ]),
    origin,
  );
}

const SEGMENTS = 24;

export function cylinderMesh(halfHeight: number, radius: number): Mesh {
  const v: V[] = [
    [0, halfHeight, 0],
    [0, -halfHeight, 0],
  ];
  const faces: Array<[number, number, number]> = [];
  for (let i = 0; i < SEGMENTS; i++) {
    const a = (2 * Math.PI * i) / SEGMENTS;
    v.push([radius * Math.cos(a), halfHeight, radius * Math.sin(a)], [radius * Math.cos(a), -halfHeight, radius * Math.sin(a)]);
  }
  for (let i = 0; i < SEGMENTS; i++) {
    const [t0, b0, t1, b1] = [2 + 2 * i, 3 + 2 * i, 2 + 2 * ((i + 1) % SEGMENTS), 3 + 2 * ((i + 1) % SEGMENTS)];
    faces.push([t0, t1, b1], [t0, b1, b0], [0, t0, t1], [1, b1, b0]);
  }
  return build(v, faces, origin);
}

/** A sphere of `radius` whose upper half is raised and lower half lowered by `halfHeight` (a ball when 0). */
export function capsuleMesh(halfHeight: number, radius: number): Mesh {
  const rings = 12;
  const v: V[] = [];
  const rows: number[] = [];
  for (let j = 0; j <= rings; j++) {
    const lat = Math.PI / 2 - (Math.PI * j) / rings;
    const y = radius * Math.sin(lat);
    const r = radius * Math.cos(lat);
    // The equator twice (once each way) makes the capsule's straight band.
    const shifts = j === rings / 2 && halfHeight > 0 ? [halfHeight, -halfHeight] : [lat >= 0 ? halfHeight : -halfHeight];
    for (const s of shifts) {
      rows.push(v.length);
      for (let i = 0; i < SEGMENTS; i++) {
        const a = (2 * Math.PI * i) / SEGMENTS;
        v.push([r * Math.cos(a), y + s, r * Math.sin(a)]);
      }
    }
  }
  const faces: Array<[number, number, number]> = [];
  for (let k = 0; k + 1 < rows.length; k++) {
    const [a, b] = [rows[k]!, rows[k + 1]!];
    for (let i = 0; i < SEGMENTS; i++) {
      const i1 = (i + 1) % SEGMENTS;
      faces.push([a + i, a + i1, b + i1], [a + i, b + i1, b + i]);
    }
  }
  // The axis point nearest a face is outward's reference: the capsule's centre line.
  return build(v, faces, (m) => [0, Math.max(-halfHeight, Math.min(halfHeight, m[1])), 0]);
}
