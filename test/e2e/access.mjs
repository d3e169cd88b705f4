// Getting in: the API socket needs the token, a page without it explains how to
// get in, and the app starts and draws with the token gone from the address bar.
// With `checks` false (a shard other than the first) the page only opens the app.
import { GL_PLAN, assert, log, require, state, test } from './harness.mjs';

export async function accessFlows({ browser, url, checks = true }) {
  const base = new URL(url);
  const token = base.searchParams.get('token');
  if (!checks) {
    await state.page.goto(url);
    await state.page.waitForFunction(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 8, null, {
      timeout: 60_000,
    });
    return;
  }

  await test('the API socket refuses a missing or wrong token', async () => {
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

  const page = state.page;
  await page.goto(url);
  await test('the app starts and draws the default scene', async () => {
    await page.waitForFunction(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 8, null, { timeout: 60_000 });
    const info = await page.evaluate(() => ({ webgl: window.__skillbridge.webgl, renderer: window.__skillbridge.renderer }));
    log(`    WebGL: ${info.webgl}, ${info.renderer}`);
    assert(!page.url().includes('token='), 'the token should be removed from the address bar');
    // The browser draws with the GL the app chose for this machine, not a silent fallback.
    const drawnBy = GL_PLAN.backend === 'llvmpipe' ? /llvmpipe/i : GL_PLAN.backend === 'swiftshader' ? /swiftshader/i : /./;
    assert(drawnBy.test(info.renderer), `planned ${GL_PLAN.backend} (${GL_PLAN.why}), but the page draws with ${info.renderer}`);
    // Drawn opaque: the browser's compositor then skips the page beneath the view at every frame (in software, per pixel).
    const alpha = await page.evaluate(
      () => document.querySelector('[data-testid="scene-canvas"]').getContext('webgl2')?.getContextAttributes()?.alpha,
    );
    assert(alpha === false, `the view's WebGL context has alpha ${alpha}: the page beneath it is composited at every frame`);
    // The view keeps its place in the tab order after the mouse passes over it (a positive tab index would put it first).
    const box = await page.locator('[data-testid="scene-canvas"]').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width / 2 + 20, box.y + box.height / 2 + 10);
    const tabIndex = await page.evaluate(() => document.querySelector('[data-testid="scene-canvas"]').tabIndex);
    assert(tabIndex === 0, `after the pointer moved over the view its tab index is ${tabIndex}`);
  });
}
