// What a classroom's laptops and projectors do to the page: 1280×720 at 150 %
// zoom (a CSS viewport of 853×480 at device scale 1.5) keeps the 3D view large
// and the battery and e-stop on screen; a server that restarts is found again by
// itself, and a new token is said plainly.
import { createServer } from 'node:net';
import { assert, shot, startServer, test, until } from './harness.mjs';

const ZOOMED = { viewport: { width: Math.round(1280 / 1.5), height: Math.round(720 / 1.5) }, deviceScaleFactor: 1.5 };

async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

async function ready(page) {
  await page.waitForFunction(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 4, null, { timeout: 30_000 });
}

export async function layoutFlows({ browser, url }) {
  await test('at 1280×720 with 150 % zoom the 3D view stays large and the battery and e-stop stay on screen', async () => {
    const ctx = await browser.newContext(ZOOMED);
    const page = await ctx.newPage();
    try {
      await page.goto(url);
      await ready(page);
      const vw = ZOOMED.viewport.width;
      const vh = ZOOMED.viewport.height;
      const canvas = await page.locator('[data-testid="scene-canvas"]').boundingBox();
      await page.screenshot({ path: shot('e2e-zoom-150.png') });
      assert(canvas.width >= vw * 0.45 && canvas.height >= vh * 0.4, `the 3D view is ${canvas.width}×${canvas.height} of ${vw}×${vh}`);
      for (const [what, loc] of [
        ['battery gauge', page.getByRole('meter', { name: 'Battery' })],
        ['emergency stop', page.getByRole('button', { name: 'Emergency stop (Esc)' })],
      ]) {
        const b = await loc.boundingBox();
        assert(b && b.x >= 0 && b.y >= 0 && b.x + b.width <= vw && b.y + b.height <= vh, `the ${what} is off screen: ${JSON.stringify(b)}`);
      }
      // The agent's message box and Send are in reach without scrolling, and nothing covers them.
      for (const [what, loc] of [
        ['message box', page.locator('textarea[aria-label="Message to the agent"]')],
        ['Send', page.getByRole('button', { name: 'Send', exact: true })],
      ]) {
        const b = await loc.boundingBox();
        assert(
          b && b.y >= 0 && b.y + b.height <= vh + 1 && b.x + b.width <= vw + 1,
          `the ${what} is below the window: ${JSON.stringify(b)}`,
        );
        const top = await loc.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return at === el || el.contains(at);
        });
        assert(top, `the ${what} is covered`);
      }
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert(scroll <= 1, `the page scrolls sideways by ${scroll} px`);
    } finally {
      await ctx.close();
    }
  });

  await test('after the server restarts the page reconnects by itself; a new token is said plainly', async () => {
    const port = await freePort();
    const token = 'classroom-fixed-token-0001';
    let server = startServer(['--port', String(port)], { SKILLBRIDGE_WEB_TOKEN: token });
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    const lost = page.locator('[data-testid="connection-lost"]');
    try {
      await page.goto(await server.url);
      await ready(page);
      await server.stop();
      await lost.waitFor({ timeout: 10_000 });
      assert(/Reconnecting/.test(await lost.innerText()), `the banner says: ${await lost.innerText()}`);
      server = startServer(['--port', String(port)], { SKILLBRIDGE_WEB_TOKEN: token });
      await server.url;
      await lost.waitFor({ state: 'detached', timeout: 25_000 });
      await until(
        () => page.evaluate(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 2),
        'the view after reconnecting',
      );
      await server.stop();
      await lost.waitFor({ timeout: 10_000 });
      server = startServer(['--port', String(port)], { SKILLBRIDGE_WEB_TOKEN: 'a-different-token-00002' });
      await server.url;
      await page.getByText('restarted with a new access token').waitFor({ timeout: 25_000 });
      assert(/new link/.test(await lost.innerText()), 'the banner does not say to open the new link');
    } finally {
      await server.stop();
      await ctx.close();
    }
  });
}
