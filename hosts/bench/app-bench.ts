// `skillbridge bench app`: the app in web mode, measured in Chromium with
// software WebGL. Cold start to the first drawn frame, frames per second per
// scene while something moves, pose latency from the sim packing a frame to the
// browser drawing it (both stamp Date.now() on the same machine), and the
// renderer's JavaScript heap and process memory.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { listScenes } from '../../scenes/registry';
import { startWorkerSession } from '../service/worker-session';
import { startWebServer } from '../web/server';
import { prebuiltWorker } from '../service/worker-bundle';
import { findBrowser } from '../../test/support/find-browser.mjs';
import { ensureRendererBuilt } from '../../base/renderer-build.mjs';

export interface AppBenchScene {
  id: string;
  fps: number;
  poseLatencyMs: number | null;
  poseLatencyP95Ms: number | null;
  framesMeasured: number;
  /** What one frame draws (read after the measurement): the same on a loaded machine as on a quiet one. */
  drawCalls: number | null;
  activeMeshes: number | null;
  activeIndices: number | null;
}

export interface AppBenchResult {
  firstFrameMs: number;
  /**
   * Where the cold start went: host (server listening; the worker boots and loads
   * the scene in the background), browser launch, page load (HTML, scripts), then
   * the first frame (waiting for the scene, building it, drawing).
   */
  firstFrameParts: { hostMs: number; browserLaunchMs: number; pageLoadMs: number; toFirstFrameMs: number };
  scenes: AppBenchScene[];
  /** JavaScript heap in use in the page after visiting every scene. */
  rendererMB: number;
  /** Resident memory of Chromium's renderer processes (Linux), or null. */
  rendererRssMB: number | null;
  gl: string;
  chromium: string;
  viewport: [number, number];
  secondsPerScene: number;
  node: string;
  cpus: number;
}

export interface AppBenchOptions {
  scenes?: string[];
  quick?: boolean;
  chromiumPath?: string;
  onProgress?: (line: string) => void;
}

// Chromium as it runs on a machine without a usable GPU: WebGL on SwiftShader,
// pages composited in software. (Also forcing the compositor onto SwiftShader,
// as --ignore-gpu-blocklist does, costs about 40 % of the frame rate here.)
const GL_ARGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-gpu-compositing', '--no-sandbox'];
const VIEWPORT: [number, number] = [1440, 860];

interface Probe {
  ready: boolean;
  sceneId: string | null;
  framesRendered: number;
  framesSinceLoad: number;
  webgl: string;
  renderer: string;
  resetStats(): void;
  drawStats?(): { drawCalls: number; activeMeshes: number; activeIndices: number };
  poseLatency(): { median: number | null; p95: number | null; samples: number };
}
/** The page's globals as seen from page.evaluate (this file compiles without DOM types). */
interface ProbeGlobal {
  __skillbridge?: Probe;
}

function rendererDist(): string {
  return fileURLToPath(new URL('../../renderer/dist/', import.meta.url));
}

/** Resident memory of Chromium renderer processes under a process, from /proc (Linux only). */
function rendererRss(ancestor: number): number | null {
  if (!existsSync('/proc')) return null;
  let total = 0;
  const kids = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const walk = (pid: number): void => {
    for (const k of kids.get(pid) ?? []) {
      try {
        const cmd = readFileSync(`/proc/${k}/cmdline`, 'utf8');
        if (cmd.includes('--type=renderer')) {
          const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${k}/status`, 'utf8'));
          if (m) total += Number(m[1]) / 1024;
        }
      } catch {
        // Gone.
      }
      walk(k);
    }
  };
  walk(ancestor);
  return total ? Math.round(total) : null;
}

export async function benchApp(opts: AppBenchOptions = {}): Promise<AppBenchResult> {
  const say = opts.onProgress ?? (() => undefined);
  const found = opts.chromiumPath ? { path: opts.chromiumPath, hint: '' } : findBrowser({ playwright: () => chromium.executablePath() });
  const exe = found.path;
  if (!exe || !existsSync(exe)) throw new Error(found.hint || `no browser at ${String(exe)}`);
  const dist = rendererDist();
  // Measure today's renderer: rebuild when any of its sources is newer than the build.
  if (!ensureRendererBuilt(fileURLToPath(new URL('../../', import.meta.url)), { say })) throw new Error('the renderer build failed');
  const ids = opts.scenes ?? listScenes().map((s) => s.id);
  const seconds = opts.quick ? 1.5 : 3;

  // Cold start: host (worker + server), browser launch, page load, first frame drawn.
  const t0 = performance.now();
  // As `skillbridge serve` does it: the worker boots and loads the scene while the browser opens the page.
  const workerUrl = prebuiltWorker();
  const session = await startWorkerSession({ paced: true, background: true, ...(workerUrl ? { workerUrl } : {}) });
  const firstScene = session.loadScene({ id: ids[0] ?? 'tabletop/fruits' });
  firstScene.catch(() => undefined);
  const server = await startWebServer({ openSession: () => Promise.resolve(session), maxSessions: 1, staticDir: dist, port: 0 });
  const hostMs = performance.now() - t0;
  const browser = await chromium.launch({ executablePath: exe, headless: true, args: GL_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: VIEWPORT[0], height: VIEWPORT[1] } });
    const launchMs = performance.now() - t0 - hostMs;
    await page.goto(server.url);
    const loadedMs = performance.now() - t0 - hostMs - launchMs;
    await page.waitForFunction(() => ((globalThis as unknown as ProbeGlobal).__skillbridge?.framesSinceLoad ?? 0) >= 1, null, {
      timeout: 60_000,
    });
    const firstFrameMs = Math.round(performance.now() - t0);
    await firstScene;
    const firstFrameParts = {
      hostMs: Math.round(hostMs),
      browserLaunchMs: Math.round(launchMs),
      pageLoadMs: Math.round(loadedMs),
      toFirstFrameMs: Math.round(firstFrameMs - hostMs - launchMs - loadedMs),
    };
    say(
      `first frame after ${firstFrameMs} ms (host ${firstFrameParts.hostMs}, browser ${firstFrameParts.browserLaunchMs}, page load ${firstFrameParts.pageLoadMs}, then first frame ${firstFrameParts.toFirstFrameMs})`,
    );
    const gl = await page.evaluate(
      () =>
        `${(globalThis as unknown as ProbeGlobal).__skillbridge?.webgl} ${(globalThis as unknown as ProbeGlobal).__skillbridge?.renderer}`,
    );

    const scenes: AppBenchScene[] = [];
    for (const id of ids) {
      await page.selectOption('select[aria-label="Scene"]', id);
      await page.waitForFunction(
        (sid) =>
          (globalThis as unknown as ProbeGlobal).__skillbridge?.sceneId === sid &&
          ((globalThis as unknown as ProbeGlobal).__skillbridge?.framesSinceLoad ?? 0) > 5,
        id,
        { timeout: 60_000 },
      );
      // Let shaders compile and the JIT warm up: the figure is the steady rate a person sees.
      await page.waitForTimeout(1500);
      // Keep something moving so pose frames flow at the stream rate: drop an object now and then.
      const meta = await session.currentScene({});
      const movable = meta?.objects.find((o) => !o.fixed);
      const drop = async (): Promise<void> => {
        if (!movable) return;
        const p = movable.body.position;
        await session.injectEvent({ type: 'object_moved', object: movable.id, to: [p[0], p[1] + 0.15, p[2]], by: 'bench' });
      };
      await drop();
      await page.evaluate(() => (globalThis as unknown as ProbeGlobal).__skillbridge?.resetStats());
      const f0 = await page.evaluate(() => (globalThis as unknown as ProbeGlobal).__skillbridge?.framesRendered ?? 0);
      const start = performance.now();
      const timer = setInterval(() => void drop(), 700);
      await page.waitForTimeout(seconds * 1000);
      clearInterval(timer);
      const f1 = await page.evaluate(() => (globalThis as unknown as ProbeGlobal).__skillbridge?.framesRendered ?? 0);
      const elapsed = (performance.now() - start) / 1000;
      const lat = await page.evaluate(
        () => (globalThis as unknown as ProbeGlobal).__skillbridge?.poseLatency() ?? { median: null, p95: null, samples: 0 },
      );
      const draw = await page.evaluate(() => (globalThis as unknown as ProbeGlobal).__skillbridge?.drawStats?.() ?? null);
      const s: AppBenchScene = {
        id,
        drawCalls: draw?.drawCalls ?? null,
        activeMeshes: draw?.activeMeshes ?? null,
        activeIndices: draw?.activeIndices ?? null,
        fps: Math.round(((f1 - f0) / elapsed) * 10) / 10,
        poseLatencyMs: lat.median === null ? null : Math.round(lat.median),
        poseLatencyP95Ms: lat.p95 === null ? null : Math.round(lat.p95),
        framesMeasured: f1 - f0,
      };
      scenes.push(s);
      say(
        `${id}: ${s.fps} fps, pose latency median ${s.poseLatencyMs ?? 'n/a'} ms (p95 ${s.poseLatencyP95Ms ?? 'n/a'} ms, ${lat.samples} frames), ${s.drawCalls ?? 'n/a'} draw calls`,
      );
    }

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
    const heap = metrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    return {
      firstFrameMs,
      firstFrameParts,
      scenes,
      rendererMB: Math.round(heap / 1024 / 1024),
      // Playwright starts Chromium as a child of this process.
      rendererRssMB: rendererRss(process.pid),
      gl,
      chromium: browser.version(),
      viewport: VIEWPORT,
      secondsPerScene: seconds,
      node: process.version,
      cpus: (await import('node:os')).cpus().length,
    };
  } finally {
    await browser.close();
    await server.close();
    await session.dispose();
  }
}
