// `skillbridge bench app`'s classroom figure: a teacher and three groups on one
// machine (`serve --classroom`, one browser, a page each, all in front), each
// page's frames per second over the same seconds while each group's scene
// plays. The goal is 30 fps on every page: a class shares one laptop when the
// projector's and the groups' windows are the same machine.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Page, chromium } from 'playwright-core';

export const CLASSROOM_FPS_TARGET = 30;

export interface ClassroomPage {
  who: string;
  fps: number;
  /** The resolution drawn at the end, % of the screen's pixels per side. */
  resolutionPercent: number | null;
}

export interface ClassroomBench {
  pages: ClassroomPage[];
  minFps: number;
  seconds: number;
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
function startClassroom(): { urls: Promise<[string, string]>; stop: () => void } {
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
  return { urls, stop: () => void child.kill('SIGINT') };
}

export async function benchClassroom(opts: {
  executablePath: string;
  glArgs: string[];
  viewport: [number, number];
  seconds: number;
  say?: (line: string) => void;
}): Promise<ClassroomBench> {
  const server = startClassroom();
  const browser = await chromium.launch({ executablePath: opts.executablePath, headless: true, args: opts.glArgs });
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
    const before = await Promise.all(pages.map((p) => probe(p.page)));
    const start = performance.now();
    await new Promise((r) => setTimeout(r, opts.seconds * 1000));
    const after = await Promise.all(pages.map((p) => probe(p.page)));
    const elapsed = (performance.now() - start) / 1000;
    const out = pages.map((p, i) => ({
      who: p.who,
      fps: Math.round(((after[i]!.frames - before[i]!.frames) / elapsed) * 10) / 10,
      resolutionPercent: after[i]!.level ? Math.round(100 / after[i]!.level!) : null,
    }));
    for (const p of out) opts.say?.(`classroom ${p.who}: ${p.fps} fps at ${p.resolutionPercent ?? 'n/a'} % resolution`);
    return { pages: out, minFps: Math.min(...out.map((p) => p.fps)), seconds: opts.seconds };
  } finally {
    await browser.close();
    server.stop();
  }
}
