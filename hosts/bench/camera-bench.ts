// bench camera: milliseconds per camera picture at 640×480, per scene, in this
// process: the rasterised rendering, the PNG encoding, and for scale the
// ray-cast reference at a small size (its time grows with the pixels). Wall and
// CPU time per frame, medians and p90; the machine is shared, so the CPU figure
// is the one a busy neighbour does not inflate. Writes each scene's picture, so
// a person can set it beside the app's Babylon view of the same scene.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { encodePng } from '../../base/png';
import { renderCamera } from '../../sim/perception/render';
import { renderCameraRays } from '../../sim/perception/render-rays';
import { SimWorld } from '../../sim/world/sim-world';
import { builtinScene } from '../../scenes/registry';

export const CAMERA_GOAL_MS = 50;

export interface CameraSceneResult {
  id: string;
  width: number;
  height: number;
  frames: number;
  renderWallMs: { p50: number; p90: number };
  renderCpuMs: number;
  pngMs: number;
  pngBytes: number;
  /** The ray-cast reference per frame at 160×120, for scale. */
  raysMsAt160: number;
  /** Where the picture was written, when a folder was given. */
  file?: string;
}

export interface CameraBenchResult {
  node: string;
  goalMs: number;
  loadAvg: { start: number; end: number };
  scenes: CameraSceneResult[];
  /** Median over scenes of CPU ms per rendered frame, against the goal. */
  met: boolean;
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const round = (x: number) => Math.round(x * 10) / 10;
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export const CAMERA_SCENES = ['tabletop/fruits', 'kitchen', 'farm'];

export async function benchCamera(o: { scenes?: string[]; frames?: number; outDir?: string } = {}): Promise<CameraBenchResult> {
  const frames = o.frames ?? 20;
  const start = loadavg()[0] ?? 0;
  const scenes: CameraSceneResult[] = [];
  for (const id of o.scenes ?? CAMERA_SCENES) {
    const sim = await SimWorld.create(builtinScene(id), {});
    try {
      for (let i = 0; i < 3; i++) renderCamera(sim, { width: 640 });
      const wall: number[] = [];
      const c0 = cpuMs();
      let img = renderCamera(sim, { width: 640 });
      for (let i = 0; i < frames; i++) {
        const t = performance.now();
        img = renderCamera(sim, { width: 640 });
        wall.push(performance.now() - t);
      }
      const renderCpuMs = (cpuMs() - c0) / (frames + 1);
      const tp = performance.now();
      const png = encodePng(img.width, img.height, img.rgb);
      const pngMs = performance.now() - tp;
      const tr = performance.now();
      renderCameraRays(sim, { width: 160 });
      const raysMsAt160 = performance.now() - tr;
      let file: string | undefined;
      if (o.outDir) {
        mkdirSync(o.outDir, { recursive: true });
        file = join(o.outDir, `${id.replace(/\//g, '_')}.png`);
        writeFileSync(file, png);
      }
      scenes.push({
        id,
        width: img.width,
        height: img.height,
        frames,
        renderWallMs: { p50: round(pct(wall, 50)), p90: round(pct(wall, 90)) },
        renderCpuMs: round(renderCpuMs),
        pngMs: round(pngMs),
        pngBytes: png.length,
        raysMsAt160: round(raysMsAt160),
        ...(file ? { file } : {}),
      });
    } finally {
      sim.dispose();
    }
  }
  const cpu = pct(
    scenes.map((s) => s.renderCpuMs),
    50,
  );
  return {
    node: process.version,
    goalMs: CAMERA_GOAL_MS,
    loadAvg: { start: round(start), end: round(loadavg()[0] ?? 0) },
    scenes,
    met: cpu <= CAMERA_GOAL_MS,
  };
}
