// `skillbridge bench app`'s classroom figure: a teacher and three groups on one
// machine (`serve --classroom`, one browser, a page each, all in front), each
// page's frames per second over the same seconds while every page's view is
// turned at once (each view draws only what changed, so every display frame of
// every page needs a frame: the heaviest moment, four people dragging). Beside
// it, the frames each page draws while nobody touches it (what the scenes'
// own changes need). The goal is 30 fps on every page while turning: a class
// shares one laptop when the projector's and the groups' windows are the same machine.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Page, chromium } from 'playwright-core';
import { chromiumCpu, treeCpu } from './chromium-procs';
import { keepTurning, settleResolution } from './view-turner';

export const CLASSROOM_FPS_TARGET = 30;

export interface ClassroomPage {
  who: string;
  /** Frames drawn per second while every page's view is turned (or panned). */
  fps: number;
  /** Frames drawn per second before that, while nobody touched any view (only what the scenes changed). */
  stillFps: number;
  /** Whether this page's view was turned (false: no clear spot to drag from). */
  viewTurned: boolean;
  /** The resolution drawn at the end, % of the screen's pixels per side. */
  resolutionPercent: number | null;
}

/**
 * Where the machine's time went while every view turned (Linux): CPU milliseconds
 * per frame drawn (all pages' frames together) by the pages' renderer processes and
 * the GPU process (SwiftShader rasterises there), and the cores the host (its
 * simulations and server) used meanwhile. The frames a class gets are the cores
 * left over divided by the CPU one frame costs.
 */
export interface ClassroomCpu {
  rendererMsPerFrame: number;
  gpuMsPerFrame: number;
  hostCores: number;
}

export interface ClassroomBench {
  pages: ClassroomPage[];
  minFps: number;
  seconds: number;
  /** Milliseconds the views were turned before counting, while adaptive resolution found its level. */
  settleMs: number;
  cpu: ClassroomCpu | null;
}

interface Probe {
  ready?: boolean;
  framesRendered?: number;
  framesSinceLoad?: number;
  scaling?(): number;
}
const probe = (page: Page) =>
  page.evaluate(() => {
    const p = (globalThis as unknown as { __skillbridge?: Probe }).__skillbridge;
    return { frames: p?.framesRendered ?? 0, level: p?.scaling?.() ?? null };
  });

/** Starts `skillbridge serve --classroom` and resolves with its group and teacher URLs. */
function startClassroom(): { urls: Promise<[string, string]>; stop: () => void; pid: number | undefined } {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const child = spawn(process.execPath, ['bin/skillbridge.js', 'serve', '--classroom', '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const urls = new Promise<[string, string]>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('serve --classroom printed no URLs within 60 s')), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += String(d);
      if (!/Ctrl\+C stops/.test(out)) return;
      clearTimeout(timer);
      const found = [...out.matchAll(/(http:\/\/127\.0\.0\.1:\d+\/\?[\w=&-]+)/g)].map((m) => m[1]!);
      if (found.length < 2) reject(new Error(`serve --classroom printed ${found.length} URLs, not a group's and the teacher's`));
      else resolve([found[0]!, found[1]!]);
    });
    child.once('exit', (code) => reject(new Error(`serve --classroom exited (${code})`)));
  });
  urls.catch(() => undefined);
  return { urls, stop: () => void child.kill('SIGINT'), pid: child.pid };
}

export async function benchClassroom(opts: {
  executablePath: string;
  glArgs: string[];
  /** Environment the browser needs for that GL (Mesa reads LIBGL_ALWAYS_SOFTWARE). */
  glEnv?: Record<string, string>;
  viewport: [number, number];
  seconds: number;
  say?: (line: string) => void;
}): Promise<ClassroomBench> {
  const server = startClassroom();
  const browser = await chromium.launch({
    executablePath: opts.executablePath,
    headless: true,
    args: opts.glArgs,
    env: { ...process.env, ...(opts.glEnv ?? {}) },
  });
  try {
    const [groupUrl, teacherUrl] = await server.urls;
    const open = async (url: string) => {
      const ctx = await browser.newContext({ viewport: { width: opts.viewport[0], height: opts.viewport[1] } });
      const page = await ctx.newPage();
      await page.goto(url);
      await page.waitForFunction(
        () => {
          const p = (globalThis as unknown as { __skillbridge?: Probe }).__skillbridge;
          return Boolean(p?.ready) && (p?.framesSinceLoad ?? 0) > 4;
        },
        null,
        { timeout: 120_000 },
      );
      return page;
    };
    const pages: Array<{ who: string; page: Page }> = [];
    for (const name of ['Group A', 'Group B', 'Group C']) {
      const page = await open(groupUrl);
      await page.fill('input[aria-label="Group name"]', name);
      await page.keyboard.press('Enter');
      pages.push({ who: name, page });
    }
    pages.push({ who: 'teacher', page: await open(teacherUrl) });
    // Let every page's shaders compile and the JIT warm up: the figure is the steady rate.
    await new Promise((r) => setTimeout(r, 2000));
    const rate = async (seconds: number): Promise<{ pages: Array<{ fps: number; level: number | null }>; cpu: ClassroomCpu | null }> => {
      const before = await Promise.all(pages.map((p) => probe(p.page)));
      const cpu0 = chromiumCpu(process.pid);
      const host0 = server.pid === undefined ? null : treeCpu(server.pid);
      const start = performance.now();
      await new Promise((r) => setTimeout(r, seconds * 1000));
      const after = await Promise.all(pages.map((p) => probe(p.page)));
      const elapsed = (performance.now() - start) / 1000;
      const cpu1 = chromiumCpu(process.pid);
      const host1 = server.pid === undefined ? null : treeCpu(server.pid);
      const frames = after.reduce((n, a, i) => n + a.frames - before[i]!.frames, 0);
      const r1 = (x: number): number => Math.round(x * 10) / 10;
      const cpu =
        cpu0 && cpu1 && host0 !== null && host1 !== null && frames > 0
          ? {
              rendererMsPerFrame: r1((cpu1.renderer - cpu0.renderer) / frames),
              gpuMsPerFrame: r1((cpu1.gpu - cpu0.gpu) / frames),
              hostCores: Math.round((host1 - host0) / elapsed / 10) / 100,
            }
          : null;
      const rates = after.map((a, i) => ({ fps: Math.round(((a.frames - before[i]!.frames) / elapsed) * 10) / 10, level: a.level }));
      return { pages: rates, cpu };
    };
    const still = (await rate(Math.max(2, opts.seconds / 2))).pages;
    const stops = await Promise.all(pages.map((p) => keepTurning(p.page)));
    await new Promise((r) => setTimeout(r, 500));
    const settleMs = await settleResolution(pages.map((p) => p.page));
    const { pages: turning, cpu: turningCpu } = await rate(opts.seconds);
    await Promise.all(stops.map((t) => (t ? t.stop() : Promise.resolve())));
    const out = pages.map((p, i) => ({
      who: p.who,
      fps: turning[i]!.fps,
      stillFps: still[i]!.fps,
      viewTurned: stops[i] !== null,
      resolutionPercent: turning[i]!.level ? Math.round(100 / turning[i]!.level!) : null,
    }));
    for (const p of out)
      opts.say?.(
        `classroom ${p.who}: ${p.fps} fps${p.viewTurned ? ' while every view is turned or panned' : ' (its view could not be turned)'} at ${p.resolutionPercent ?? 'n/a'} % resolution; ${p.stillFps} frames a second drawn while nobody touched a view`,
      );
    opts.say?.(`classroom: every view turned ${(settleMs / 1000).toFixed(1)} s before counting, until adaptive resolution settled`);
    if (turningCpu)
      opts.say?.(
        `classroom CPU while turning: ${turningCpu.rendererMsPerFrame} ms the page + ${turningCpu.gpuMsPerFrame} ms the GPU process per frame drawn (all pages), the host ${turningCpu.hostCores} cores`,
      );
    // A page whose view could not be turned measured only what its scene needed: it cannot show the goal met.
    const minFps = Math.min(...out.map((p) => (p.viewTurned ? p.fps : 0)));
    return { pages: out, minFps, seconds: opts.seconds, settleMs, cpu: turningCpu };
  } finally {
    await browser.close();
    server.stop();
  }
}
