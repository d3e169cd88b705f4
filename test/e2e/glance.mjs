// The teacher's second pass at the room: the class at a glance (a live
// thumbnail of each group's scene, groups the teacher names), and the default
// views a class sees (the robot large enough, the robot camera showing what it
// sees, a person's words in the 3D view), presentation mode reframing the view,
// and the frame-rate controls (fps readout, quality, a hidden tab not drawing).
import { assert, openTab, shot, startServer, test, until, waitScene } from './harness.mjs';

/** Colours on a canvas (2D or WebGL image copied to 2D): a flat grey has one or two. */
async function canvasColours(locator) {
  return locator.evaluate((c) => {
    const w = c.width;
    const h = c.height;
    const t = document.createElement('canvas');
    t.width = w;
    t.height = h;
    const ctx = t.getContext('2d');
    ctx.drawImage(c, 0, 0);
    const d = ctx.getImageData(0, 0, w, h).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 16) seen.add(((d[i] >> 3) << 10) | ((d[i + 1] >> 3) << 5) | (d[i + 2] >> 3));
    return seen.size;
  });
}

export async function glanceFlows({ browser }) {
  const server = startServer(['--classroom']);
  const contexts = [];
  const open = async (url, viewport = { width: 1440, height: 860 }) => {
    const ctx = await browser.newContext({ viewport });
    contexts.push(ctx);
    const page = await ctx.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 4, null, { timeout: 60_000 });
    return page;
  };
  try {
    const [groupsUrl, teacherUrl] = await server.urls;
    const a = await open(groupsUrl);
    await a.fill('input[aria-label="Group name"]', 'Team Lemon');
    await a.keyboard.press('Enter');
    const teacher = await open(teacherUrl);

    await test("the class at a glance: each group's scene from above, live, and the teacher renames a group", async () => {
      await openTab('Class', teacher);
      const row = teacher.locator('[data-testid="class-row"]').filter({ hasText: 'Team Lemon' });
      const thumb = row.locator('canvas[data-testid="class-thumb"]');
      await thumb.waitFor({ timeout: 10_000 });
      await until(async () => (await thumb.getAttribute('data-sim-time')) !== '', 'a pose in the thumbnail', 20_000);
      // Drawn: a floor, objects and the robot in several colours, not one flat fill.
      const colours = await canvasColours(thumb);
      assert(colours >= 6, `the thumbnail has ${colours} colours`);
      // Live: it follows the group's simulation clock.
      const t0 = Number(await thumb.getAttribute('data-sim-time'));
      await until(async () => Number(await thumb.getAttribute('data-sim-time')) > t0, 'the thumbnail to refresh', 15_000);
      assert(/idle|running/.test(await row.innerText()), `the card has no run state: ${await row.innerText()}`);
      await teacher.screenshot({ path: shot('e2e-class-glance.png') });
      await row.getByRole('button', { name: 'Rename Team Lemon' }).click();
      await teacher.fill('input[aria-label="New name for Team Lemon"]', 'Lemon Squad');
      await teacher.keyboard.press('Enter');
      const renamed = teacher.locator('[data-testid="class-row"]').filter({ hasText: 'Lemon Squad' });
      await renamed.waitFor({ timeout: 10_000 });
      // Kept by the host: the next refresh still shows the new name.
      await teacher.waitForTimeout(2_500);
      assert((await renamed.count()) === 1, 'the name the teacher set did not last a refresh');
    });
  } finally {
    for (const c of contexts) await c.close();
    await server.stop();
  }
}
