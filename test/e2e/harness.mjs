// The browser end-to-end harness: counts, a browser with software WebGL, a
// `skillbridge serve` to test against, and helpers the area files share. Area
// files (test/e2e/*.mjs) export their flows; scripts/e2e.mjs runs them in order
// and prints "N passed, N failed[, N skipped]".
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBrowser } from '../support/find-browser.mjs';
import { chromiumArgs, glPlan } from '../../base/software-gl.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const out = path.join(root, 'test-results');
mkdirSync(out, { recursive: true });
export const require = createRequire(import.meta.url);

// Chromium as it runs on a machine without a usable GPU, drawn the way the desktop app
// draws there (base/software-gl.mjs: Mesa's llvmpipe, else SwiftShader), pages composited
// in software: the tests look at what a person on such a machine sees.
export const GL_PLAN = glPlan({ software: true });
export const GL_ARGS = [...chromiumArgs(GL_PLAN), '--no-sandbox'];
export const GL_ENV = { ...process.env, ...GL_PLAN.env };
/** Chromium's own noise under software GL, not the app's. */
const NOISE = [/GPU stall due to ReadPixels/i, /favicon/i, /GL Driver Message/i, /WebGL: INVALID_OPERATION: (?:texImage|readPixels)/i];
const t0 = Date.now();

const counts = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

/** What the flows drive: the page (a browser tab, then the desktop window) and what it logged. */
export const state = { page: undefined, consoleErrors: [] };

export function log(line) {
  process.stdout.write(`${line}\n`);
}

export async function test(name, fn) {
  const start = Date.now();
  try {
    await fn();
    counts.passed++;
    log(`  ✓ ${name} (${Date.now() - start} ms)`);
  } catch (e) {
    counts.failed++;
    failures.push(name);
    log(`  ✗ ${name}: ${(e && e.message) || e}`);
    const shot = path.join(out, `e2e-failed-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`);
    await state.page?.screenshot({ path: shot }).catch(() => undefined);
  }
}

export function skip(name, why) {
  counts.skipped++;
  log(`  - ${name}: skipped (${why})`);
}

/** Counts a failure that is not a test case (a missing browser, a build that failed). */
export function fail(what) {
  counts.failed++;
  failures.push(what);
}

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}

export function summary() {
  if (failures.length) log(`\nFailed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  log(`\ne2e took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  log(`${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
  process.exit(counts.failed ? 1 : 0);
}

// ------------------------------------------------------------------ browser, build, server

export function browserPath() {
  return findBrowser({ playwright: () => require('playwright-core').chromium.executablePath() });
}

/** Builds the renderer unless SKIP_BUILD=1 and a build exists; false when the build failed. */
export function buildRenderer() {
  if (process.env.SKIP_BUILD === '1' && existsSync(path.join(root, 'renderer/dist/index.html'))) return true;
  const b = spawnSync('npx', ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'error'], {
    cwd: root,
    stdio: 'inherit',
  });
  return b.status === 0;
}

/** The servers still running, stopped when this process exits (one listener for them all). */
const servers = new Set();
process.on('exit', () => {
  for (const child of servers) child.kill('SIGINT');
});

/** Starts `skillbridge serve --port 0 [args]` and resolves with the URLs it prints (the first is the tab's). */
export function startServer(args = [], env = {}) {
  const port = args.includes('--port') ? [] : ['--port', '0'];
  const child = spawn(process.execPath, ['bin/skillbridge.js', 'serve', ...port, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const urls = new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`server did not print its URL in 60 s; stderr: ${stderr}`)), 60_000);
    child.stdout.on('data', (d) => {
      buf += d;
      // serve prints its URL lines, then "Open that URL…" (or the classroom lines) once it listens.
      if (!/Ctrl\+C stops/.test(buf)) return;
      const found = [...buf.matchAll(/(http:\/\/127\.0\.0\.1:\d+\/\?[\w=&-]+)/g)].map((m) => m[1]);
      clearTimeout(timer);
      resolve(found);
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${stderr}`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGINT');
    });
  servers.add(child);
  child.once('exit', () => servers.delete(child));
  return { child, urls, url: urls.then((u) => u[0]), stop, stderr: () => stderr };
}

/** Makes `p` the page the flows drive and collects its console errors. */
export function usePage(p) {
  state.page = p;
  state.consoleErrors.length = 0;
  p.on('console', (m) => {
    if (m.type() === 'error' && !NOISE.some((r) => r.test(m.text()))) state.consoleErrors.push(m.text());
  });
  p.on('pageerror', (e) => state.consoleErrors.push(`page error: ${e.message}`));
  return p;
}

// ------------------------------------------------------------------ page helpers

/**
 * Pixel statistics of a PNG (or of the rectangle `rect` of it), decoded by the browser itself
 * (the shared page's, or `page`).
 */
export async function pixelStats(png, page = state.page, rect = undefined) {
  return page.evaluate(
    async ([b64, r]) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const [x, y, w, h] = r ? [r.x, r.y, Math.round(r.width), Math.round(r.height)] : [0, 0, bmp.width, bmp.height];
      const c = new OffscreenCanvas(w, h);
      const ctx = c.getContext('2d');
      ctx.drawImage(bmp, x, y, w, h, 0, 0, w, h);
      const d = ctx.getImageData(0, 0, w, h).data;
      const colours = new Set();
      let sum = 0;
      let sum2 = 0;
      let n = 0;
      for (let i = 0; i < d.length; i += 16) {
        const l = 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];
        sum += l;
        sum2 += l * l;
        n++;
        colours.add(((d[i] >> 4) << 8) | ((d[i + 1] >> 4) << 4) | (d[i + 2] >> 4));
      }
      const mean = sum / n;
      return { width: w, height: h, colours: colours.size, std: Math.sqrt(Math.max(0, sum2 / n - mean * mean)) };
    },
    [png.toString('base64'), rect],
  );
}

/** Waits until the scene is built, drawn, and drawn with a pose frame from the physics (not only its metadata). */
export async function waitScene(id, page = state.page) {
  await page.waitForFunction(
    (sid) => window.__skillbridge?.sceneId === sid && window.__skillbridge.framesSinceLoad > 8 && window.__skillbridge.poseSeq >= 0,
    id,
    { timeout: 30_000 },
  );
}

export async function resetScene(page = state.page) {
  const gen = await page.evaluate(() => window.__skillbridge.generation);
  await page.getByRole('button', { name: 'Reset', exact: true }).click();
  await page.waitForFunction(
    (g) => window.__skillbridge.generation > g && window.__skillbridge.framesSinceLoad > 3 && window.__skillbridge.poseSeq >= 0,
    gen,
    { timeout: 30_000 },
  );
}

/**
 * The scene as loaded, whatever earlier flows left in it: selecting the scene already
 * shown changes nothing (an object an earlier run left in the hand stays there), so
 * that case resets it.
 */
export async function freshScene(id, page = state.page) {
  const select = page.locator('select[aria-label="Scene"]');
  if ((await select.inputValue()) === id) {
    await waitScene(id, page);
    await resetScene(page);
  } else {
    await select.selectOption(id);
    await waitScene(id, page);
  }
}

export async function openTab(name, page = state.page) {
  await page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
}

/** One folder for the files this run writes (scripts, task cards, catalogues), removed at exit (E2E_KEEP=1 keeps it). */
const workRoot = mkdtempSync(path.join(tmpdir(), 'sb-e2e-'));
process.on('exit', () => {
  if (process.env.E2E_KEEP !== '1') rmSync(workRoot, { recursive: true, force: true });
});
/** A fresh folder inside this run's work folder. */
export const workDir = (name) => mkdtempSync(path.join(workRoot, `${name}-`));

const scriptDir = workDir('scripts');

/** Writes a scripted model's turns to a file the page uploads. */
export function scriptFile(name, turns) {
  const file = path.join(scriptDir, `${name}.json`);
  writeFileSync(file, JSON.stringify(turns));
  return file;
}

/** A scripted model: pick an object, then answer. Each run gets its own file (a fresh conversation). */
export function pickScript(name, object) {
  return scriptFile(name, [
    { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'pick', arguments: { object_name: object } } }] },
    { content: `I picked up the ${object}.` },
  ]);
}

/** Chooses the scripted provider and uploads `file` in the agent panel. */
export async function useScript(file, page = state.page) {
  await openTab('Agent', page);
  if (!(await page.locator('details.agent-settings').evaluate((d) => d.open)))
    await page.locator('details.agent-settings > summary').click();
  await page.selectOption('select[aria-label="Model provider"]', 'scripted');
  // The page uploads the script (a page cannot name files on the host).
  await page.setInputFiles('input[aria-label="Script file"]', file);
  await page.getByText(`Script file (${path.basename(file)})`).waitFor({ timeout: 5_000 });
}

/** Sends a message from the agent panel with the chosen workflow and approval mode. */
export async function sendMessage(text, { workflow = 'flat', approval } = {}, page = state.page) {
  await page.selectOption('select[aria-label="Workflow"]', workflow);
  if (approval) await page.selectOption('select[aria-label="Approval"]', approval);
  await page.fill('textarea[aria-label="Message to the agent"]', text);
  // The run's own turn must be the last one before anyone reads "the last run's end":
  // until it shows, that is the previous run's end (a stopped run read as this one).
  const before = await page.evaluate(() => [...document.querySelectorAll('.turn')].at(-1)?.getAttribute('data-run') ?? '');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.waitForFunction((prev) => ([...document.querySelectorAll('.turn')].at(-1)?.getAttribute('data-run') ?? '') !== prev, before, {
    timeout: 15_000,
  });
}

/** Starts a scripted run from the agent panel and waits until its tool call shows in the trace. */
export async function startAgentRun(name, object, page = state.page) {
  await useScript(pickScript(name, object), page);
  const before = await page.locator('[data-testid="trace-row"]').count();
  await sendMessage(`pick the ${object}`, { approval: 'auto' }, page);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="trace-row"]').length > n, before, { timeout: 15_000 });
  return page.locator('[data-testid="trace-row"]').last();
}

export const lastEnd = (page = state.page) => page.locator('.turn').last().locator('[data-testid="run-end"]');

export function shot(name) {
  return path.join(out, name);
}

/**
 * A raw client of the API socket (Node's `ws`): one call at a time, for what a
 * page cannot do through the UI (invalid UTF-8, a frame over the limit).
 */
export async function rawSocket(pageUrl, { session } = {}) {
  const WebSocket = require('ws');
  const u = new URL(pageUrl);
  const ws = new WebSocket(`ws://${u.host}/api?token=${u.searchParams.get('token')}${session ? `&session=${session}` : ''}`);
  const replies = new Map();
  const events = [];
  let info;
  let closed;
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    const m = JSON.parse(String(data));
    if (m.t === 'reply') replies.get(m.id)?.(m);
    else if (m.t === 'event') events.push(m.event);
    else if (m.t === 'session') info = m;
  });
  ws.on('error', () => undefined);
  const closedP = new Promise((resolve) => ws.on('close', (code, reason) => resolve((closed = { code, reason: String(reason) }))));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('unexpected-response', (_q, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
  });
  for (let i = 0; i < 100 && !info; i++) await new Promise((r) => setTimeout(r, 20));
  let id = 0;
  return {
    ws,
    events,
    get info() {
      return info;
    },
    get closed() {
      return closed;
    },
    closedP,
    call(method, request = {}) {
      const my = ++id;
      return new Promise((resolve) => {
        replies.set(my, resolve);
        ws.send(JSON.stringify({ t: 'call', id: my, method, request }));
      });
    },
    close: () => ws.close(),
  };
}

/** Waits until `cond()` is true (polled), or fails with `what`. */
export async function until(cond, what, ms = 15_000) {
  const t0 = Date.now();
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
