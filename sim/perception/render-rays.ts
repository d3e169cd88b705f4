// The camera image by ray casting: one ray per pixel from the robot's camera
// through the physics world (the same rays and occlusion its perception uses),
// shaded by the hit surface's colour and normal. Exact but slow (seconds at
// 640×480): the camera renders by rasterising (./render.ts), and this is its
// reference — the tests check the two agree on what each pixel shows.
// The robot's own links are transparent here as they are to its perception.
import type { Vec3 } from '../math';
import { groups } from '../groups';
import type { SimWorld } from '../world/sim-world';
import { cameraView } from './camera';

import { AMBIENT, type CameraImage, imageSize, LIGHT, normalise, PERSON, rgbOf, SEEN_MASK, SKY, UNKNOWN } from './render';

// What sight rays meet, minus the robot's own base and arm (by group, not a per-collider callback: 3× faster).
const SEEN = groups(0xffff, SEEN_MASK);

function rotate(q: { x: number; y: number; z: number; w: number }, v: Vec3): Vec3 {
  // v' = v + 2w(q×v) + 2q×(q×v)
  const cx = q.y * v.z - q.z * v.y;
  const cy = q.z * v.x - q.x * v.z;
  const cz = q.x * v.y - q.y * v.x;
  const dx = q.y * cz - q.z * cy;
  const dy = q.z * cx - q.x * cz;
  const dz = q.x * cy - q.y * cx;
  return { x: v.x + 2 * (q.w * cx + dx), y: v.y + 2 * (q.w * cy + dy), z: v.z + 2 * (q.w * cz + dz) };
}

/** Ray-casts what the robot's camera sees now. Width and height are clamped to 16–640 and 12–480 pixels. */
export function renderCameraRays(sim: SimWorld, size: { width?: number; height?: number } = {}): CameraImage {
  const { width, height } = imageSize(size);
  const view = cameraView(sim);
  const colours = new Map<string, Vec3>();
  const colourOf = (owner: string | undefined, y: number): Vec3 => {
    const key = owner ?? (y < 0.005 ? '#floor' : '#other');
    let c = colours.get(key);
    if (!c) {
      const e = owner ? sim.entities.get(owner) : undefined;
      const hex = e ? e.spec.color : owner && sim.people.has(owner) ? PERSON : key === '#floor' ? sim.scene.scene.floor.color : UNKNOWN;
      c = rgbOf(hex);
      colours.set(key, c);
    }
    return c;
  };
  const tanH = Math.tan(view.halfHorizontal);
  const tanV = Math.tan(view.halfVertical);
  const origin = view.pose.p;
  const rgb = new Uint8Array(width * height * 3);
  const labels: string[] = new Array<string>(width * height).fill('');
  const ray = new sim.R.Ray(origin, { x: 1, y: 0, z: 0 });
  for (let row = 0; row < height; row++) {
    const up = tanV * (1 - (2 * (row + 0.5)) / height);
    for (let col = 0; col < width; col++) {
      // Camera frame: forward +X, up +Y, right +Z.
      const right = tanH * ((2 * (col + 0.5)) / width - 1);
      const dir = normalise(rotate(view.pose.q, { x: 1, y: up, z: right }));
      ray.dir = dir;
      const hit = sim.world.castRayAndGetNormal(ray, view.range, true, undefined, SEEN);
      let c = SKY;
      const i = row * width + col;
      if (hit) {
        const t = hit.timeOfImpact;
        const y = origin.y + dir.y * t;
        const owner = sim.colliderOwner.get(hit.collider.handle);
        const base = colourOf(owner, y);
        const n = hit.normal;
        const lambert = Math.max(0, n.x * LIGHT.x + n.y * LIGHT.y + n.z * LIGHT.z);
        // Far surfaces fade toward the sky a little, so depth reads in a flat image.
        const fog = Math.min(0.5, t / (view.range * 2));
        const shade = AMBIENT + (1 - AMBIENT) * lambert;
        c = {
          x: base.x * shade * (1 - fog) + SKY.x * fog,
          y: base.y * shade * (1 - fog) + SKY.y * fog,
          z: base.z * shade * (1 - fog) + SKY.z * fog,
        };
        if (owner) labels[i] = owner;
      }
      rgb[i * 3] = Math.round(Math.min(1, c.x) * 255);
      rgb[i * 3 + 1] = Math.round(Math.min(1, c.y) * 255);
      rgb[i * 3 + 2] = Math.round(Math.min(1, c.z) * 255);
    }
  }
  return { width, height, rgb, labels, time: sim.time };
}
