// Every registered scene loads and draws (not blank, the robot in the default
// view), and hovering an object names it.
import { assert, log, out, pixelStats, state, test, waitScene } from './harness.mjs';
import path from 'node:path';

export async function sceneFlows(tag) {
  const page = state.page;
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
}
