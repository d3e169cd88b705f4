#!/usr/bin/env node
// The Evaluate view in a browser (issue 13): start a small oracle evaluation
// from the view, see its progress and its result rows. scripts/e2e.mjs calls
// evaluateFlow() with its page; `node scripts/e2e-evaluate.mjs` runs this flow
// alone against its own `skillbridge serve` (results in ./eval-results, ignored
// by git). SKIP_BUILD=1 reuses renderer/dist.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBrowser } from '../test/support/find-browser.mjs';

/** ALRM, three cases, the oracle: each case must end ok with score 1, the run at 100 %. */
export async function evaluateFlow({ page, test, assert, tag = '' }) {
  await test(`${tag}the Evaluate view runs a small oracle evaluation, showing progress and a result row per case`, async () => {
    await page.getByRole('tab', { name: 'Evaluate' }).click();
    const view = page.locator('section.evaluate');
    await view.locator('select[aria-label="Suite"] option[value="alrm"]').waitFor({ state: 'attached', timeout: 30_000 });
    await view.locator('select[aria-label="Suite"]').selectOption('alrm');
    await view.getByLabel('Sample size').fill('3');
    await view.getByLabel('Model').fill('oracle');
    await view.getByRole('button', { name: 'Start', exact: true }).click();
    const progress = view.getByRole('status', { name: 'Progress' });
    await progress.waitFor({ timeout: 60_000 });
    await view.getByText(/finished: score 100\.0 % over 3 cases/).waitFor({ timeout: 180_000 });
    const text = await progress.innerText();
    assert(/3\/3 cases · score 100\.0 %/.test(text), `progress says: ${text}`);
    const rows = view.locator('table.eval-cases tbody tr');
    await rows.nth(2).waitFor({ timeout: 30_000 });
    const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
    assert(cells.length === 3, `expected 3 case rows, got ${cells.length}`);
    for (const [id, status, score] of cells) assert(status === 'ok' && score === '1.00', `case ${id}: ${status} ${score}`);
    const run = view.locator('ul.eval-runs li.selected');
    assert(/alrm · alrm\/tap · oracle/.test(await run.innerText()), `selected run: ${await run.innerText()}`);
  });

  await test(`${tag}clicking a case of the run replays it in the 3D view, in its own world`, async () => {
    const view = page.locator('section.evaluate');
    const before = await page.evaluate(() => window.__skillbridge.sceneId);
    // A case on another tabletop than the one shown, so the view must change world.
    const row = view
      .locator('table.eval-cases tbody tr')
      .filter({ hasNotText: /^fruits\// })
      .first();
    const caseId = (await row.locator('td').first().innerText()).trim();
    await row.click();
    await view.getByText(new RegExp(`replaying ${caseId.replace(/[/]/g, '\\/')}: [1-9]\\d* recorded calls`)).waitFor({ timeout: 30_000 });
    await page.waitForFunction((id) => window.__skillbridge.sceneId !== id && window.__skillbridge.framesSinceLoad > 5, before, {
      timeout: 30_000,
    });
  });
}

// ------------------------------------------------------------------ alone

async function alone() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const found = findBrowser({ playwright: () => createRequire(import.meta.url)('playwright-core').chromium.executablePath() });
  if (!found.path) {
    console.log(found.hint);
    process.exit(1);
  }
  if (process.env.SKIP_BUILD !== '1' || !existsSync(path.join(root, 'renderer/dist/index.html'))) {
    const b = spawnSync('npx', ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'error'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (b.status !== 0) process.exit(1);
  }
  const child = spawn(process.execPath, ['bin/skillbridge.js', 'serve', '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.on('exit', () => child.kill('SIGINT'));
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('server did not print its URL in 30 s')), 30_000);
    child.stdout.on('data', (d) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec((buf += d));
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: found.path,
    headless: true,
    args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-gpu-compositing', '--no-sandbox'],
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
  await page.goto(url);
  await page.waitForFunction(() => window.__skillbridge?.ready, null, { timeout: 30_000 });
  let failed = 0;
  let passed = 0;
  const test = async (name, fn) => {
    const t0 = Date.now();
    try {
      await fn();
      passed++;
      console.log(`  ✓ ${name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed++;
      console.log(`  ✗ ${name}: ${(e && e.message) || e}`);
      await page.screenshot({ path: path.join(root, 'test-results', 'e2e-failed-evaluate.png') }).catch(() => undefined);
    }
  };
  const assert = (cond, message) => {
    if (!cond) throw new Error(message);
  };
  await evaluateFlow({ page, test, assert });
  await page.screenshot({ path: path.join(root, 'test-results', 'e2e-evaluate.png') });
  await browser.close();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await alone();
