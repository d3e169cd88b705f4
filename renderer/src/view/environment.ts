// The backdrop that makes a scene read as a place: floor pattern, surroundings,
// sky colour and lighting for a workbench, a workshop, a kitchen or a field.
// Floor patterns are drawn once into a canvas texture: no image assets.
import { DynamicTexture } from '@babylonjs/core/Materials/Textures/dynamicTexture';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateGround } from '@babylonjs/core/Meshes/Builders/groundBuilder';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { SubMesh } from '@babylonjs/core/Meshes/subMesh';
import { Scene } from '@babylonjs/core/scene';
import type { Environment, SceneMeta } from '../../../contract/schemas';

export interface Backdrop {
  clear: Color4;
  ambientSky: Color3;
  ambientGround: Color3;
  sunIntensity: number;
  surround: string;
  fog: boolean;
}

export const BACKDROPS: Record<Environment, Backdrop> = {
  workbench: {
    clear: Color4.FromHexString('#d5dae0ff'),
    ambientSky: new Color3(0.95, 0.96, 1),
    ambientGround: new Color3(0.45, 0.45, 0.48),
    sunIntensity: 0.85,
    surround: '#bfc4ca',
    fog: false,
  },
  workshop: {
    clear: Color4.FromHexString('#c9ced4ff'),
    ambientSky: new Color3(0.92, 0.94, 0.98),
    ambientGround: new Color3(0.4, 0.4, 0.42),
    sunIntensity: 0.8,
    surround: '#a9aeb4',
    fog: false,
  },
  kitchen: {
    clear: Color4.FromHexString('#ece5d9ff'),
    ambientSky: new Color3(1, 0.97, 0.92),
    ambientGround: new Color3(0.5, 0.46, 0.42),
    sunIntensity: 0.75,
    surround: '#cfc6b8',
    fog: false,
  },
  field: {
    clear: Color4.FromHexString('#aecde9ff'),
    ambientSky: new Color3(0.85, 0.92, 1),
    ambientGround: new Color3(0.35, 0.42, 0.25),
    sunIntensity: 1.0,
    surround: '#67863f',
    fog: true,
  },
};

function shade(hex: string, f: number): string {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((x) => Math.max(0, Math.min(255, Math.round(x * f))));
  return `#${c.map((x) => x.toString(16).padStart(2, '0')).join('')}`;
}

/** Deterministic speckle so the field looks the same every load. */
function rand(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/**
 * The floor's pattern, painted on a 2D canvas. `px` wide: software GL paints,
 * uploads and mipmaps it on the CPU before the first frame, where a 512-pixel
 * pattern costs a quarter of a 1024-pixel one and, drawn at half resolution, looks the same.
 */
function floorTexture(scene: Scene, meta: SceneMeta, px: number): DynamicTexture {
  const [w, d] = meta.floor.size;
  /** Speckle sizes were chosen for 1024 pixels across. */
  const k = px / 1024;
  const tex = new DynamicTexture('floor-pattern', { width: px, height: Math.round((px * d) / w) }, scene, true);
  const ctx = tex.getContext();
  const W = px;
  const H = Math.round((px * d) / w);
  const perM = W / w;
  const base = meta.floor.color;
  ctx.fillStyle = base;
  ctx.fillRect(0, 0, W, H);
  const lines = (step: number, colour: string, width: number): void => {
    ctx.strokeStyle = colour;
    ctx.lineWidth = Math.max(1, width * k);
    ctx.beginPath();
    for (let x = 0; x <= W + 1; x += step * perM) {
      ctx.moveTo(x, 0);
      ctx.lineTo(x, H);
    }
    for (let y = 0; y <= H + 1; y += step * perM) {
      ctx.moveTo(0, y);
      ctx.lineTo(W, y);
    }
    ctx.stroke();
  };
  switch (meta.environment) {
    case 'workbench':
      lines(0.25, shade(base, 0.93), 1);
      lines(1, shade(base, 0.82), 2);
      break;
    case 'workshop': {
      const r = rand(7);
      for (let i = 0; i < 2500; i++) {
        ctx.fillStyle = shade(base, 0.9 + r() * 0.16);
        ctx.fillRect(r() * W, r() * H, (2 + r() * 5) * k, (2 + r() * 5) * k);
      }
      lines(1, shade(base, 0.78), 2);
      // A painted safety border around the work area.
      ctx.strokeStyle = '#d8b428';
      ctx.lineWidth = 0.06 * perM;
      ctx.strokeRect(0.15 * perM, 0.15 * perM, W - 0.3 * perM, H - 0.3 * perM);
      break;
    }
    case 'kitchen': {
      const tile = 0.4 * perM;
      for (let y = 0, j = 0; y < H; y += tile, j++) {
        for (let x = 0, i = 0; x < W; x += tile, i++) {
          ctx.fillStyle = (i + j) % 2 ? shade(base, 1.12) : shade(base, 0.9);
          ctx.fillRect(x, y, tile, tile);
        }
      }
      lines(0.4, shade(base, 0.7), 2);
      break;
    }
    case 'field': {
      const r = rand(11);
      for (let i = 0; i < 9000; i++) {
        ctx.fillStyle = shade(base, 0.75 + r() * 0.45);
        ctx.fillRect(r() * W, r() * H, 2 * k, (3 + r() * 6) * k);
      }
      break;
    }
  }
  tex.update();
  return tex;
}

export interface BuiltBackdrop {
  floor: Mesh;
  receivers: Mesh[];
}

export function buildBackdrop(scene: Scene, meta: SceneMeta, software = false): BuiltBackdrop {
  const b = BACKDROPS[meta.environment];
  scene.clearColor = b.clear;
  // Linear fog always (the robot camera's image fades what lies past its range,
  // changing only the distances); the view itself fades only a field's far surroundings.
  scene.fogMode = Scene.FOGMODE_LINEAR;
  scene.fogStart = b.fog ? Math.max(meta.floor.size[0], meta.floor.size[1]) * 2.5 : 1e6;
  scene.fogEnd = b.fog ? scene.fogStart * 6 : 2e6;
  scene.fogColor = new Color3(b.clear.r, b.clear.g, b.clear.b);
  const [w, d] = meta.floor.size;
  const surround = CreateGround('surround', { width: Math.max(60, w * 8), height: Math.max(60, d * 8) }, scene);
  surround.position.y = -0.003;
  const sm = new StandardMaterial('surround-mat', scene);
  // Unlit: the surroundings fill much of the screen, and lighting them costs fill rate for nothing.
  sm.disableLighting = true;
  sm.emissiveColor = Color3.FromHexString(b.surround);
  surround.material = sm;
  surround.isPickable = false;

  const floor = CreateGround('floor', { width: w, height: d }, scene);
  const fm = new StandardMaterial('floor-mat', scene);
  const floorTex = floorTexture(scene, meta, software ? 512 : 1024);
  // Software GL samples an anisotropic texture several times a pixel: at the reduced resolution it
  // draws, plain trilinear filtering looks the same (no pixel of a kitchen frame differs by more than 24
  // of 255) for a quarter less of the rasteriser's time.
  if (software) floorTex.anisotropicFilteringLevel = 1;
  fm.diffuseTexture = floorTex;
  fm.specularColor = meta.environment === 'kitchen' ? new Color3(0.12, 0.12, 0.12) : Color3.Black();
  floor.material = fm;
  floor.isPickable = false;
  const receivers: Mesh[] = [floor, surround];

  if (meta.environment === 'kitchen') {
    // Two walls on the far sides from the default camera give the room its corner.
    const wm = new StandardMaterial('wall-mat', scene);
    wm.diffuseColor = Color3.FromHexString('#ebe4d6');
    wm.specularColor = Color3.Black();
    const h = 1.2;
    const back = CreateBox('wall-x', { width: 0.06, height: h, depth: d }, scene);
    back.position.set(-w / 2 - 0.03, h / 2, 0);
    const side = CreateBox('wall-z', { width: w, height: h, depth: 0.06 }, scene);
    side.position.set(0, h / 2, -d / 2 - 0.03);
    // One mesh, one draw call (software GL pays per draw call).
    const walls = Mesh.MergeMeshes([back, side], true) ?? back;
    walls.name = 'walls';
    walls.material = wm;
    walls.isPickable = false;
    receivers.push(walls);
  }
  drawnLast(scene, receivers);
  return { floor, receivers };
}

/**
 * The backdrop (floor, walls, then the surroundings) drawn after the bodies:
 * the pixels the bodies cover are then rejected by the depth test before they
 * are shaded, where drawn first they were shaded and painted over (software GL
 * pays per pixel shaded). Opaque with depth, the picture is the same.
 */
function drawnLast(scene: Scene, backdrop: readonly Mesh[]): void {
  const rank = (s: SubMesh): number => backdrop.indexOf(s.getMesh() as Mesh) + 1;
  scene.setRenderingOrder(0, (a, b) => rank(a) - rank(b));
}
