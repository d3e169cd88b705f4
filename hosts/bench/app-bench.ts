// `skillbridge bench app`: the app in web mode, measured in Chromium with
// software WebGL. Cold start to the first drawn frame, frames per second per
// scene while the view changes at every display frame (the view draws only what
// changed: the camera is turned as a person dragging it would, and objects
// dropped now and then), pose latency from the sim packing a frame to the
// browser drawing it (both stamp Date.now() on the same machine), and the
// renderer's JavaScript heap and process memory.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type CDPSession, chromium } from 'playwright-core';
import { listScenes } from '../../scenes/registry';
import { startWorkerSession } from '../service/worker-session';
import { startWebServer } from '../web/server';
import { prebuiltWorker } from '../service/worker-bundle';
import { findBrowser } from '../../test/support/find-browser.mjs';
import { ensureRendererBuilt } from '../../base/renderer-build.mjs';
import { type GlPlan, chromiumArgs, glPlan } from '../../base/software-gl.mjs';
import { type CpuTimes, chromiumCpu, rendererRss, settleBrowser } from './chromium-procs';
import { type Motion, keepTurning, settleResolution } from './view-turner';

export interface AppBenchScene {
  id: string;
  /** Frames drawn per second while the view is turned or panned (every display frame needs one). */
  fps: number;
  /** Whether the view was kept changing through the measurement (false: the page had no canvas to drag on; the figure counts only the frames the drops needed). */
  viewTurned: boolean;
  /** How: turned (left button, away from the movable objects) or panned (right button, where objects covered every spot tried). */
  motion: Motion | null;
  poseLatencyMs: number | null;
  poseLatencyP95Ms: number | null;
  framesMeasured: number;
  /** What one frame draws (read after the measurement): the same on a loaded machine as on a quiet one. */
  drawCalls: number | null;
  activeMeshes: number | null;
  activeIndices: number | null;
  /**
   * CPU milliseconds per drawn frame over the measurement (Linux): the page's
   * renderer process and the GPU process (SwiftShader rasterises there). Unlike
   * fps, other load on the machine barely changes them.
   */
  cpuMsPerFrame: { renderer: number; gpu: number } | null;
  /** The resolution drawn at the end, % of the screen's pixels per side (adaptive resolution lowers it to keep the rate). */
  resolutionPercent: number | null;
  /** Milliseconds the view was turned before counting, while adaptive resolution found its level. */
  settleMs: number;
}

export interface AppBenchResult {
  /**
   * The goal's figure: from opening the page to the first frame of the scene drawn,
   * with the host started at the same moment as the browser (as the desktop app
   * starts its window and its host together). What the app controls: loading and
   * running its scripts, connecting, building the scene, drawing.
   */
  firstFrameMs: number;
  /** Cold start: from starting host and browser together to the first frame; includes Chromium's own launch. */
  coldStartMs: number;
  /**
   * Where the cold start went. hostMs and browserLaunchMs run at the same time from
   * the start; the page parts follow the browser: the document, its scripts loaded
   * and run, the host connected (socket, session; started while the scripts load, so
   * only the wait after them counts), the scene's metadata and the app mounted, the
   * scene built, and its first frame drawn (shaders compiled).
   */
  firstFrameParts: {
    hostMs: number;
    browserLaunchMs: number;
    /** After the launch, before the page opens: waiting for the browser's own start-up work to end (null off Linux). */
    browserSettleMs: number | null;
    documentMs: number;
    scriptsMs: number;
    connectMs: number;
    sceneMetaMs: number;
    sceneBuildMs: number;
    drawMs: number;
  };
  /**
   * CPU milliseconds Chromium's page (renderer processes) and GPU process spent from
   * opening the page to its first frame (Linux), or null. A loaded machine stretches
   * the wall-clock figure far more than this one.
   */
  firstFrameCpuMs: { renderer: number; gpu: number; browser: number } | null;
  scenes: AppBenchScene[];
  /** JavaScript heap in use in the page after visiting every scene. */
  rendererMB: number;
  /** Resident memory of Chromium's renderer processes (Linux), or null. */
  rendererRssMB: number | null;
  gl: string;
  /** Which software GL drew, and why (base/software-gl.mjs). */
  glBackend: string;
  chromium: string;
  /** The browser measured (the classroom figure opens its pages in the same one). */
  browserPath: string;
  viewport: [number, number];
  secondsPerScene: number;
  node: string;
  cpus: number;
}

export interface AppBenchOptions {
  scenes?: string[];
  quick?: boolean;
  /** Open the page at once after the browser's launch, while the browser still starts its own pages (default: wait for them). */
  unsettled?: boolean;
  chromiumPath?: string;
  /** How Chromium draws (benchGl()), when the caller has it already. */
  gl?: BenchGl;
  onProgress?: (line: string) => void;
}

/**
 * Chromium as it runs on a machine without a usable GPU, drawn the way the desktop
 * app draws there (base/software-gl.mjs: Mesa's llvmpipe, else SwiftShader;
 * SKILLBRIDGE_GL=swiftshader measures the other), pages composited in software.
 */
export interface BenchGl {
  plan: GlPlan;
  args: string[];
  env: Record<string, string>;
}

export function benchGl(): BenchGl {
  const plan = glPlan({ software: true });
  return { plan, args: [...chromiumArgs(plan), '--no-sandbox'], env: plan.env };
}
export const VIEWPORT: [number, number] = [1440, 860];

interface Probe {
  ready: boolean;
  sceneId: string | null;
  framesRendered: number;
  framesSinceLoad: number;
  webgl: string;
  renderer: string;
  resetStats(): void;
  drawStats?(): { drawCalls: number; activeMeshes: number; activeIndices: number };
  scaling?(): number;
  poseLatency(): { median: number | null; p95: number | null; samples: number };
}
/** The page's globals as seen from page.evaluate (this file compiles without DOM types). */
interface ProbeGlobal {
  __skillbridge?: Probe;
}

function rendererDist(): string {
  return fileURLToPath(new URL('../../renderer/dist/', import.meta.url));
}

/** Resolves when the page has the performance mark `name` (looked for without injecting any helper script). */
async function waitForMark(cdp: CDPSession, name: string, timeoutMs: number): Promise<void> {
  const expression = `new Promise((resolve, reject) => {
    const seen = () => performance.getEntriesByName(${JSON.stringify(name)}, 'mark').length > 0;
    if (seen()) return resolve(true);
    const timer = setTimeout(() => reject(new Error('no ${name} mark within ${timeoutMs} ms')), ${timeoutMs});
    new PerformanceObserver((list, obs) => {
      if (!list.getEntriesByName(${JSON.stringify(name)}).length) return;
      obs.disconnect();
      clearTimeout(timer);
      resolve(true);
    }).observe({ type: 'mark', buffered: true });
  })`;
  const r = (await cdp.send('Runtime.evaluate', { expression, awaitPromise: true })) as { exceptionDetails?: { text?: string } };
  if (r.exceptionDetails) throw new Error(`waiting for the page's first frame: ${r.exceptionDetails.text ?? 'failed'}`);
}

function perFrame(a: CpuTimes | null, b: CpuTimes | null, frames: number): AppBenchScene['cpuMsPerFrame'] {
  if (!a || !b || frames <= 0) return null;
  const r = (x: number): number => Math.round((x / frames) * 10) / 10;
  return { renderer: r(b.renderer - a.renderer), gpu: r(b.gpu - a.gpu) };
}

export async function benchApp(opts: AppBenchOptions = {}): Promise<AppBenchResult> {
  const say = opts.onProgress ?? (() => undefined);
  const found = opts.chromiumPath ? { path: opts.chromiumPath, hint: '' } : findBrowser({ playwright: () => chromium.executablePath() });
  const exe = found.path;
  if (!exe || !existsSync(exe)) throw new Error(found.hint || `no browser at ${String(exe)}`);
  const glChoice = opts.gl ?? benchGl();
  const dist = rendererDist();
  // Measure today's renderer: rebuild when any of its sources is newer than the build.
  if (!ensureRendererBuilt(fileURLToPath(new URL('../../', import.meta.url)), { say })) throw new Error('the renderer build failed');
  const ids = opts.scenes ?? listScenes().map((s) => s.id);
  const seconds = opts.quick ? 1.5 : 3;

  // Cold start: host (worker + server) and browser start together, then the page to its first frame.
  const t0 = performance.now();
  const launching = (async () => {
    const b = await chromium.launch({ executablePath: exe, headless: true, args: glChoice.args, env: { ...process.env, ...glChoice.env } });
    const p = await b.newPage({ viewport: { width: VIEWPORT[0], height: VIEWPORT[1] } });
    const ms = performance.now() - t0;
    // The page opens once the browser's own start is over (see settleBrowser).
    const settleMs = opts.unsettled ? 0 : await settleBrowser(process.pid);
    return { browser: b, page: p, ms, settleMs };
  })();
  // The browser is closed whatever happens next (below, or here if the host fails to start).
  launching.catch(() => undefined);
  // As `skillbridge serve` does it: the worker boots and loads the scene while the browser opens the page.
  const workerUrl = prebuiltWorker();
  const host = (async () => {
    const session = await startWorkerSession({ paced: true, background: true, ...(workerUrl ? { workerUrl } : {}) });
    const firstScene = session.loadScene({ id: ids[0] ?? 'tabletop/fruits' });
    firstScene.catch(() => undefined);
    const server = await startWebServer({ openSession: () => Promise.resolve(session), maxSessions: 1, staticDir: dist, port: 0 });
    return { session, firstScene, server };
  })();
  const { session, firstScene, server } = await host.catch(async (e: unknown) => {
    await (await launching.catch(() => undefined))?.browser.close();
    throw e;
  });
  const hostMs = performance.now() - t0;
  let launched: Awaited<typeof launching> | undefined;
  try {
    launched = await launching;
    const { browser, page } = launched;
    // Waiting for the first frame through Playwright (waitForFunction) would inject its
    // ~330 KB helper script into the page as it starts: parsing it and its walk over the
    // page's globals took the page's main thread 0.1-0.5 s before the app's own scripts.
    // A bare protocol call waits for the page's own mark instead.
    const cdp = await page.context().newCDPSession(page);
    const openCpu = chromiumCpu(process.pid);
    await page.goto(server.url, { waitUntil: 'commit' });
    await waitForMark(cdp, 'sb:first-frame', 60_000);
    const frameCpu = chromiumCpu(process.pid);
    const coldStartMs = Math.round(performance.now() - t0);
    // The page's own clock from its navigation to each mark (renderer/src/main.tsx, scene-view.tsx, world.ts).
    const marks = await page.evaluate(() => {
      const perf = (
        globalThis as unknown as {
          performance: {
            getEntriesByName(n: string): Array<{ startTime: number }>;
            getEntriesByType(t: string): Array<{ responseEnd?: number }>;
          };
        }
      ).performance;
      const at = (n: string): number => perf.getEntriesByName(n)[0]?.startTime ?? NaN;
      const nav = perf.getEntriesByType('navigation')[0];
      return {
        document: nav?.responseEnd ?? NaN,
        script: at('sb:script'),
        connected: at('sb:connected'),
        meta: at('sb:scene-meta'),
        built: at('sb:scene-built'),
        frame: at('sb:first-frame'),
      };
    });
    // The page's clock starts at its navigation.
    const firstFrameMs = Math.round(marks.frame);
    // Each part is the wait after the ones before it: the page connects while its scripts load, so
    // connecting counts only as long as the scripts were done before it.
    const part = (x: number, from: number): number => Math.max(0, Math.round(x - from));
    const firstFrameParts = {
      hostMs: Math.round(hostMs),
      browserLaunchMs: Math.round(launched.ms),
      browserSettleMs: launched.settleMs,
      documentMs: part(marks.document, 0),
      scriptsMs: part(marks.script, marks.document),
      connectMs: part(marks.connected, marks.script),
      sceneMetaMs: part(marks.meta, Math.max(marks.script, marks.connected)),
      sceneBuildMs: part(marks.built, marks.meta),
      drawMs: part(marks.frame, marks.built),
    };
    const firstFrameCpuMs =
      openCpu && frameCpu
        ? {
            renderer: Math.round(frameCpu.renderer - openCpu.renderer),
            gpu: Math.round(frameCpu.gpu - openCpu.gpu),
            browser: Math.round(frameCpu.other - openCpu.other),
          }
        : null;
    await firstScene;
    say(
      `first frame ${firstFrameMs} ms after opening the page (document ${firstFrameParts.documentMs}, scripts ${firstFrameParts.scriptsMs}, connect ${firstFrameParts.connectMs}, scene metadata ${firstFrameParts.sceneMetaMs}, build ${firstFrameParts.sceneBuildMs}, draw ${firstFrameParts.drawMs}); cold start ${coldStartMs} ms with host ${firstFrameParts.hostMs} and browser launch ${firstFrameParts.browserLaunchMs} at the same time${firstFrameCpuMs ? `; CPU to the first frame ${firstFrameCpuMs.renderer} ms page + ${firstFrameCpuMs.gpu} ms GPU process (${firstFrameCpuMs.browser} ms the browser's own processes beside them)` : ''}`,
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
      // A person turning the view: every display frame needs a new frame.
      const turning = await keepTurning(
        page,
        meta?.objects.filter((o) => !o.fixed).map((o) => o.id),
      );
      await page.waitForTimeout(300);
      const settleMs = await settleResolution([page], opts.quick ? 2000 : 3500, opts.quick ? 3000 : 15_000);
      await page.evaluate(() => (globalThis as unknown as ProbeGlobal).__skillbridge?.resetStats());
      const f0 = await page.evaluate(() => (globalThis as unknown as ProbeGlobal).__skillbridge?.framesRendered ?? 0);
      const cpu0 = chromiumCpu(process.pid);
      const start = performance.now();
      const timer = setInterval(() => void drop(), 700);
      await page.waitForTimeout(seconds * 1000);
      clearInterval(timer);
      const f1 = await page.evaluate(() => (globalThis as unknown as ProbeGlobal).__skillbridge?.framesRendered ?? 0);
      const elapsed = (performance.now() - start) / 1000;
      const cpu1 = chromiumCpu(process.pid);
      await turning?.stop();
      const lat = await page.evaluate(
        () => (globalThis as unknown as ProbeGlobal).__skillbridge?.poseLatency() ?? { median: null, p95: null, samples: 0 },
      );
      const draw = await page.evaluate(() => (globalThis as unknown as ProbeGlobal).__skillbridge?.drawStats?.() ?? null);
      // The resolution adaptive resolution settled at (pixels per side, % of the screen's).
      const level = await page.evaluate(() => (globalThis as unknown as ProbeGlobal).__skillbridge?.scaling?.() ?? null);
      const s: AppBenchScene = {
        id,
        viewTurned: turning !== null,
        motion: turning?.motion ?? null,
        drawCalls: draw?.drawCalls ?? null,
        activeMeshes: draw?.activeMeshes ?? null,
        activeIndices: draw?.activeIndices ?? null,
        fps: Math.round(((f1 - f0) / elapsed) * 10) / 10,
        poseLatencyMs: lat.median === null ? null : Math.round(lat.median),
        poseLatencyP95Ms: lat.p95 === null ? null : Math.round(lat.p95),
        framesMeasured: f1 - f0,
        cpuMsPerFrame: perFrame(cpu0, cpu1, f1 - f0),
        resolutionPercent: level ? Math.round(100 / level) : null,
        settleMs,
      };
      scenes.push(s);
      say(
        `${id}: ${s.fps} fps${s.viewTurned ? ` while the view ${s.motion === 'pan' ? 'pans' : 'turns'}` : ' (the view could not be turned: frames the drops needed only)'} at ${s.resolutionPercent ?? 'n/a'} % resolution (settled in ${(s.settleMs / 1000).toFixed(1)} s), pose latency median ${s.poseLatencyMs ?? 'n/a'} ms (p95 ${s.poseLatencyP95Ms ?? 'n/a'} ms, ${lat.samples} frames), ${s.drawCalls ?? 'n/a'} draw calls${s.cpuMsPerFrame ? `, CPU per frame ${s.cpuMsPerFrame.renderer} ms page + ${s.cpuMsPerFrame.gpu} ms GPU process` : ''}`,
      );
    }

    await cdp.send('Performance.enable');
    const metrics = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
    const heap = metrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    return {
      firstFrameMs,
      coldStartMs,
      firstFrameParts,
      firstFrameCpuMs,
      scenes,
      rendererMB: Math.round(heap / 1024 / 1024),
      // Playwright starts Chromium as a child of this process.
      rendererRssMB: rendererRss(process.pid),
      gl,
      glBackend: `${glChoice.plan.backend} (${glChoice.plan.why})`,
      chromium: browser.version(),
      browserPath: exe,
      viewport: VIEWPORT,
      secondsPerScene: seconds,
      node: process.version,
      cpus: (await import('node:os')).cpus().length,
    };
  } finally {
    await (launched ?? (await launching.catch(() => undefined)))?.browser.close();
    await server.close();
    await session.dispose();
  }
}
