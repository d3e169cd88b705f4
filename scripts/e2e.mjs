#!/usr/bin/env node
// Browser end-to-end tests against web mode (`skillbridge serve`) in Debian's
// Chromium with software WebGL, then the desktop app through Playwright's
// Electron driver where an Electron binary exists. Screenshots go to
// test-results/. Ends with "N passed, N failed[, N skipped]".
//
// Env: CHROMIUM (default: the first Chromium, Chrome or Edge found, see
// test/support/find-browser.mjs); SKILLBRIDGE_E2E_ALLOW_SKIP=1 counts a missing
// browser as skipped instead of failed; SKIP_BUILD=1 reuses renderer/dist.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBrowser } from '../test/support/find-browser.mjs';
import { evaluateFlow } from './e2e-evaluate.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'test-results');
mkdirSync(out, { recursive: true });
const found = findBrowser({
  playwright: () => createRequire(import.meta.url)('playwright-core').chromium.executablePath(),
});
const chromiumPath = found.path;
// Chromium as it runs on a machine without a usable GPU: WebGL on SwiftShader,
// pages composited in software. (Also forcing the compositor onto SwiftShader,
// as --ignore-gpu-blocklist does, costs about 40 % of the frame rate here.)
const GL_ARGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-gpu-compositing', '--no-sandbox'];
const t0 = Date.now();

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

function log(line) {
  process.stdout.write(`${line}\n`);
}

async function test(name, fn) {
  const start = Date.now();
  try {
    await fn();
    passed++;
    log(`  ✓ ${name} (${Date.now() - start} ms)`);
  } catch (e) {
    failed++;
    failures.push(name);
    log(`  ✗ ${name}: ${(e && e.message) || e}`);
    const shot = path.join(out, `e2e-failed-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`);
    await globalThis.__e2ePage?.screenshot({ path: shot }).catch(() => undefined);
  }
}

function skip(name, why) {
  skipped++;
  log(`  - ${name}: skipped (${why})`);
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

function summary() {
  if (failures.length) log(`\nFailed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  log(`\ne2e took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed ? 1 : 0);
}

// ------------------------------------------------------------------ setup

log('▶ browser end-to-end tests (web mode)');
if (chromiumPath) log(`    browser: ${chromiumPath}`);
if (!chromiumPath) {
  log(found.hint);
  if (process.env.SKILLBRIDGE_E2E_ALLOW_SKIP === '1') skip('browser end-to-end tests', 'no Chromium');
  else {
    failed++;
    failures.push('Chromium is missing');
  }
  summary();
}

if (process.env.SKIP_BUILD !== '1' || !existsSync(path.join(root, 'renderer/dist/index.html'))) {
  const b = spawnSync('npx', ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'error'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (b.status !== 0) {
    failed++;
    failures.push('renderer build (vite build) failed');
    summary();
  }
}

const { chromium } = await import('playwright-core');

/** Starts `skillbridge serve --port 0` and resolves with its printed URL. */
function startServer() {
  const child = spawn(process.execPath, ['bin/skillbridge.js', 'serve', '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`server did not print its URL in 30 s; stderr: ${stderr}`)), 30_000);
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${stderr}`)));
  });
  return { child, url };
}

const server = startServer();
process.on('exit', () => server.child.kill('SIGINT'));
let url;
try {
  url = await server.url;
} catch (e) {
  failed++;
  failures.push(`server start: ${e.message}`);
  summary();
}
const base = new URL(url);
const token = base.searchParams.get('token');

const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: GL_ARGS });
// The page the flows below drive: the browser tab, then the desktop app's window.
let page;
const consoleErrors = [];
// Chromium's own noise under software GL, not the app's.
const NOISE = [/GPU stall due to ReadPixels/i, /favicon/i, /GL Driver Message/i, /WebGL: INVALID_OPERATION: (?:texImage|readPixels)/i];
function usePage(p) {
  page = p;
  globalThis.__e2ePage = p;
  consoleErrors.length = 0;
  p.on('console', (m) => {
    if (m.type() === 'error' && !NOISE.some((r) => r.test(m.text()))) consoleErrors.push(m.text());
  });
  p.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`));
}
usePage(await browser.newPage({ viewport: { width: 1440, height: 860 } }));

/** Pixel statistics of a PNG, decoded by the browser itself. */
async function pixelStats(png) {
  return page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const ctx = c.getContext('2d');
    ctx.drawImage(bmp, 0, 0);
    const d = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
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
    return { width: bmp.width, height: bmp.height, colours: colours.size, std: Math.sqrt(Math.max(0, sum2 / n - mean * mean)) };
  }, png.toString('base64'));
}

async function waitScene(id) {
  await page.waitForFunction((sid) => window.__skillbridge?.sceneId === sid && window.__skillbridge.framesSinceLoad > 8, id, {
    timeout: 30_000,
  });
}

// ------------------------------------------------------------------ tests

await test('the API socket refuses a missing or wrong token', async () => {
  const require = createRequire(import.meta.url);
  const WebSocket = require('ws');
  const tryOpen = (u) =>
    new Promise((resolve) => {
      const ws = new WebSocket(u);
      ws.on('open', () => {
        ws.close();
        resolve('open');
      });
      ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
      ws.on('error', () => resolve('error'));
    });
  const wsBase = `ws://${base.host}/api`;
  assert((await tryOpen(wsBase)) === '401', 'no token: expected 401');
  assert((await tryOpen(`${wsBase}?token=wrong`)) === '401', 'wrong token: expected 401');
  assert((await tryOpen(`${wsBase}?token=${token}`)) === 'open', 'right token: expected the socket to open');
});

await test('a page opened without the token explains how to get in', async () => {
  const p2 = await browser.newPage();
  await p2.goto(`http://${base.host}/`);
  await p2.getByText('Access token missing').waitFor({ timeout: 10_000 });
  await p2.close();
});

await page.goto(url);
await test('the app starts and draws the default scene', async () => {
  await page.waitForFunction(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 8, null, { timeout: 30_000 });
  const info = await page.evaluate(() => ({ webgl: window.__skillbridge.webgl, renderer: window.__skillbridge.renderer }));
  log(`    WebGL: ${info.webgl}, ${info.renderer}`);
  assert(!page.url().includes('token='), 'the token should be removed from the address bar');
});

// The flows every host must pass: web mode here, the desktop app below (names prefixed by `tag`).
async function flows(tag) {
  const sceneIds = await page.$$eval('select[aria-label="Scene"] option', (os) => os.map((o) => o.value).filter(Boolean));
  log(`    scenes registered: ${sceneIds.join(', ')}`);
  for (const id of sceneIds) {
    await test(`${tag}scene ${id} loads and renders`, async () => {
      await page.selectOption('select[aria-label="Scene"]', id);
      await waitScene(id);
      await page.waitForTimeout(600); // the robot-camera image refreshes at 5 Hz
      const lost = await page.evaluate(() => window.__skillbridge.contextLost);
      assert(!lost, 'WebGL context lost');
      const canvas = await page.locator('[data-testid="scene-canvas"]').screenshot();
      const s = await pixelStats(canvas);
      await page.screenshot({ path: path.join(out, `e2e-${tag ? 'desktop-' : ''}${id.replace(/\//g, '-')}.png`) });
      assert(s.colours >= 12 && s.std > 8, `the canvas looks blank (${s.colours} colours, luminance std ${s.std.toFixed(1)})`);
      const meshes = await page.evaluate(() => window.__skillbridge.meshCount);
      assert(meshes > 3, `only ${meshes} meshes`);
      // The default view shows the robot, even where it starts inside a shelter.
      assert(await page.evaluate(() => window.__skillbridge.robotInView()), 'the robot is hidden from the default view');
    });
  }

  await test(`${tag}hovering an object shows its name`, async () => {
    await page.selectOption('select[aria-label="Scene"]', 'tabletop/fruits');
    await waitScene('tabletop/fruits');
    const pt = await page.evaluate(() => window.__skillbridge.screenPoint('peach_1'));
    const box = await page.locator('[data-testid="scene-canvas"]').boundingBox();
    assert(pt && box, 'peach_1 is not on screen');
    await page.mouse.move(box.x + pt[0], box.y + pt[1]);
    await page.mouse.move(box.x + pt[0] + 1, box.y + pt[1] + 1);
    const label = page.getByRole('tooltip');
    await label.waitFor({ timeout: 5_000 });
    const text = await label.innerText();
    assert(/peach/.test(text), `the label says "${text}"`);
    await page.mouse.move(5, 5);
  });

  await test(`${tag}a tool called from the console moves the object in the view`, async () => {
    await page.selectOption('select[aria-label="Scene"]', 'tabletop/fruits');
    await waitScene('tabletop/fruits');
    const before = await page.evaluate(() => window.__skillbridge.bodyPosition('lemon_1'));
    assert(before, 'lemon_1 is not drawn');
    await page.getByRole('option', { name: 'pick', exact: true }).click();
    await page.fill('#arg-object_name', 'lemon');
    await page.getByRole('button', { name: 'Call pick' }).click();
    // While the arm works, the call's target is highlighted.
    await page.waitForFunction(() => window.__skillbridge.highlighted().includes('lemon_1'), null, { timeout: 10_000 });
    const result = page.locator('[data-testid="tool-result"]');
    await result.waitFor({ timeout: 30_000 });
    const text = await result.locator('.result-content').innerText();
    assert(/picked up lemon_1/.test(text), `unexpected result: ${text}`);
    await page.waitForTimeout(300);
    const after = await page.evaluate(() => window.__skillbridge.bodyPosition('lemon_1'));
    const moved = Math.hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]);
    await page.screenshot({ path: path.join(out, 'e2e-tool-pick.png') });
    assert(moved > 0.05 && after[1] > before[1] + 0.05, `the lemon did not move up in the view (moved ${moved.toFixed(3)} m)`);
  });

  await test(`${tag}the console shows the validation message a model would get`, async () => {
    await page.getByRole('option', { name: 'compute_grasp', exact: true }).click();
    await page.fill('#arg-object_name', '');
    await page.getByRole('button', { name: 'Call compute_grasp' }).click();
    const content = page.locator('[data-testid="tool-result"] .result-content');
    try {
      await page.waitForFunction(
        () =>
          /Invalid arguments for compute_grasp/.test(
            document.querySelector('[data-testid="tool-result"] .result-content')?.textContent ?? '',
          ),
        null,
        { timeout: 10_000 },
      );
    } catch {
      throw new Error(`the console shows: ${await content.innerText()}`);
    }
    const text = await content.innerText();
    assert(/object_name: missing \(required/.test(text), `no "object_name: missing (required" in: ${text}`);
  });

  await test(`${tag}the emergency stop reaches the robot and blocks motion`, async () => {
    await page.getByRole('tab', { name: 'World' }).click();
    await page.getByRole('button', { name: 'EMERGENCY STOP' }).click();
    await page.getByText('PRESSED').waitFor({ timeout: 10_000 });
    await page.getByRole('option', { name: 'move_to_home_pos', exact: true }).click();
    await page.getByRole('button', { name: 'Call move_to_home_pos' }).click();
    await page.waitForFunction(
      () => /estop|emergency stop/i.test(document.querySelector('[data-testid="tool-result"] .result-content')?.textContent ?? ''),
      null,
      { timeout: 15_000 },
    );
    await page.getByRole('button', { name: 'Release emergency stop' }).click();
    await page.getByText('released', { exact: true }).waitFor({ timeout: 10_000 });
  });
}

// ------------------------------------------------------------------ agent runs (scripted model)

const scriptDir = mkdtempSync(path.join(tmpdir(), 'sb-e2e-'));
/** A scripted model: pick an object, then answer. Each run gets its own file (a fresh conversation). */
function pickScript(name, object) {
  const file = path.join(scriptDir, `${name}.json`);
  const turns = [
    { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'pick', arguments: { object_name: object } } }] },
    { content: `I picked up the ${object}.` },
  ];
  writeFileSync(file, JSON.stringify(turns));
  return file;
}

async function resetScene() {
  const gen = await page.evaluate(() => window.__skillbridge.generation);
  await page.getByRole('button', { name: 'Reset', exact: true }).click();
  await page.waitForFunction((g) => window.__skillbridge.generation > g && window.__skillbridge.framesSinceLoad > 3, gen, {
    timeout: 30_000,
  });
}

/** Starts a scripted run from the agent panel and waits until its tool call shows in the trace. */
async function startAgentRun(name, object) {
  await page.getByRole('tab', { name: 'Agent' }).click();
  if (!(await page.locator('details.agent-settings').evaluate((d) => d.open)))
    await page.locator('details.agent-settings > summary').click();
  await page.selectOption('select[aria-label="Model provider"]', 'scripted');
  // The page uploads the script (a page cannot name files on the host).
  await page.setInputFiles('input[aria-label="Script file"]', pickScript(name, object));
  await page.getByText(`Script file (${name}.json)`).waitFor({ timeout: 5_000 });
  await page.selectOption('select[aria-label="Workflow"]', 'flat');
  const before = await page.locator('[data-testid="trace-row"]').count();
  await page.fill('textarea[aria-label="Message to the agent"]', `pick the ${object}`);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="trace-row"]').length > n, before, { timeout: 15_000 });
  return page.locator('[data-testid="trace-row"]').last();
}

const lastEnd = () => page.locator('.turn').last().locator('[data-testid="run-end"]');

async function agentFlows(tag) {
  await test(`${tag}a scripted agent run moves the robot and fills the trace panel`, async () => {
    await resetScene();
    const row = await startAgentRun('happy', 'lemon');
    // The view highlights what the agent's call names while it runs.
    await page.waitForFunction(() => window.__skillbridge.highlighted().includes('lemon_1'), null, { timeout: 10_000 });
    await lastEnd().waitFor({ timeout: 30_000 });
    assert((await lastEnd().getAttribute('data-reason')) === 'done', `run ended: ${await lastEnd().innerText()}`);
    const text = await row.innerText();
    assert(/picked up lemon_1/.test(text) && /object_name/.test(text) && /\d+ ms/.test(text), `trace row: ${text}`);
    assert(
      /I picked up the lemon/.test(await page.locator('[data-testid="conversation"]').innerText()),
      'no final answer in the conversation',
    );
    await page.screenshot({ path: path.join(out, 'e2e-agent-run.png') });
  });

  await test(`${tag}Stop mid-run ends the run at once (model and skill)`, async () => {
    await resetScene();
    await startAgentRun('stop', 'peach');
    await page.waitForTimeout(250);
    const stopButton = page.getByRole('button', { name: 'Stop', exact: true });
    assert(await stopButton.isEnabled(), 'Stop is not enabled while running');
    const t0 = Date.now();
    await stopButton.click();
    await lastEnd().waitFor({ timeout: 5_000 });
    const reason = await lastEnd().getAttribute('data-reason');
    assert(reason === 'stopped', `run ended with ${reason}`);
    assert(Date.now() - t0 < 3_000, `stopping took ${Date.now() - t0} ms`);
    assert(!(await stopButton.isEnabled()), 'Stop still enabled after the run ended');
  });

  await test(`${tag}an emergency stop injected during a run reaches the running skill`, async () => {
    await resetScene();
    const row = await startAgentRun('estop', 'lemon');
    await page.getByRole('tab', { name: 'World' }).click();
    await page.getByRole('button', { name: 'EMERGENCY STOP' }).click();
    await page.getByRole('tab', { name: 'Agent' }).click();
    try {
      await page.waitForFunction(
        () => /estop|emergency stop/i.test([...document.querySelectorAll('[data-testid="trace-result"]')].at(-1)?.textContent ?? ''),
        null,
        { timeout: 15_000 },
      );
    } catch {
      throw new Error(`the tool result says: ${await row.innerText()}`);
    }
    await lastEnd().waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'World' }).click();
    await page.getByRole('button', { name: 'Release emergency stop' }).click();
    await page.getByText('released', { exact: true }).first().waitFor({ timeout: 10_000 });
  });

  await test(`${tag}no console errors and no lost WebGL context`, async () => {
    const lost = await page.evaluate(() => window.__skillbridge.contextLost);
    assert(!lost, 'WebGL context lost');
    assert(consoleErrors.length === 0, `console errors:\n    ${consoleErrors.slice(0, 5).join('\n    ')}`);
  });
}

await flows('');
await agentFlows('');
await evaluateFlow({ page, test, assert });

await browser.close();
server.child.kill('SIGINT');

// ------------------------------------------------------------------ desktop (Electron)

log('▶ desktop end-to-end tests (Electron): the same flows in the desktop window');
let electronBinary = null;
try {
  // The electron package exports the binary's path, and throws when the binary was never downloaded.
  electronBinary = createRequire(import.meta.url)('electron');
} catch {
  electronBinary = null;
}
if (!electronBinary || !existsSync(String(electronBinary))) {
  skip(
    'the desktop app: all of the flows above',
    'no Electron binary on this machine (it cannot be downloaded here); web mode above runs the same flows on the same renderer and API',
  );
} else {
  const b = spawnSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit' });
  let app = null;
  await test('desktop: the app builds, starts and draws with a sandboxed window.api', async () => {
    assert(b.status === 0, 'electron-vite build failed');
    const { _electron } = await import('playwright-core');
    app = await _electron.launch({ args: [path.join(root, 'out/main/index.js')], cwd: root });
    const win = await app.firstWindow();
    usePage(win);
    await win.waitForFunction(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 5, null, { timeout: 60_000 });
    const hasApi = await win.evaluate(() => typeof window.api?.callTool === 'function' && typeof window.require === 'undefined');
    assert(hasApi, 'window.api missing, or Node integration leaked into the page');
    await win.screenshot({ path: path.join(out, 'e2e-electron.png') });
  });
  if (app) {
    try {
      await flows('desktop: ');
      await agentFlows('desktop: ');
    } finally {
      await app.close();
    }
  }
}

summary();
