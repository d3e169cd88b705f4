// A robot of the person's own in the page: `serve --urdf` draws the described
// robot's <visual> geometry in its material colour where its links are. The
// robot is the ur5e_like fixture with its material made magenta (a colour no
// scene object has); a link's world position is projected to the canvas
// through the view's probe, and the pixels there are the material's colour — and
// are not in the same scene with the scene's own robot. Then the robot picker:
// a robot folder picked in the page is uploaded and drawn and named; a broken
// one is refused with its reason, the robot before staying; "Use the scene's own
// robot" goes back.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assert, pixelStats, root, shot, startServer, test, until, waitScene, workDir } from './harness.mjs';

const SCENE = 'tabletop/fruits';

/** The ur5e_like folder copied, its grey material magenta. */
function magentaRobot() {
  const dir = workDir('robot');
  cpSync(path.join(root, 'test/fixtures/robots/ur5e_like'), path.join(dir, 'ur5e_like'), { recursive: true });
  const file = path.join(dir, 'ur5e_like/urdf/ur5e_like.urdf');
  writeFileSync(file, readFileSync(file, 'utf8').replace('<color rgba="0.7 0.7 0.7 1"/>', '<color rgba="0.9 0.1 0.9 1"/>'));
  return file;
}

/** Share of magenta pixels (red and blue well above green) in an 11 × 11 square around a canvas point. */
async function magentaAt(page, [x, y]) {
  const canvas = await page.locator('canvas').first().boundingBox();
  const png = await page.screenshot({ clip: { x: canvas.x + x - 5, y: canvas.y + y - 5, width: 11, height: 11 } });
  return page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const ctx = c.getContext('2d');
    ctx.drawImage(bmp, 0, 0);
    const d = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
    let hits = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 90 && d[i + 2] > 90 && d[i + 1] < 0.6 * Math.min(d[i], d[i + 2])) hits++;
    return hits / (d.length / 4);
  }, png.toString('base64'));
}

async function openScene(browser, server) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 860 } });
  const page = await ctx.newPage();
  await page.goto(await server.url);
  await page.waitForFunction(() => window.__skillbridge?.ready, null, { timeout: 60_000 });
  const select = page.locator('select[aria-label="Scene"]');
  if ((await select.inputValue()) !== SCENE) await select.selectOption(SCENE);
  await waitScene(SCENE, page);
  return { ctx, page };
}

/** Links whose visual covers their own origin, and the cylinders by the middle of what they cover. */
const AT_ORIGIN = ['robot#turret', 'robot#link:wrist_1_link', 'robot#link:wrist_2_link'];
const BY_BOX = ['robot#upper', 'robot#fore'];

async function linkPoints(page) {
  return page.evaluate(
    ({ origin, boxed }) => {
      const p = window.__skillbridge;
      const out = {};
      for (const id of origin) out[id] = p.screenPoint(id);
      for (const id of boxed) {
        const b = p.screenBox(id);
        out[id] = b ? [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2] : null;
      }
      return out;
    },
    { origin: AT_ORIGIN, boxed: BY_BOX },
  );
}

export async function ownRobotFlows({ browser }) {
  const magenta = magentaRobot();
  const described = startServer(['--urdf', magenta]);
  const own = startServer([]);
  const opened = [];
  try {
    const a = await openScene(browser, described);
    opened.push(a.ctx);
    let points = {};

    await test("serve --urdf draws the robot's visual geometry in its material colour where its links are", async () => {
      // The first frames of a loaded machine may come before the scene is drawn: look until the links are there.
      let seen = '';
      await until(
        async () => {
          points = await linkPoints(a.page);
          const shares = {};
          for (const [id, at] of Object.entries(points)) shares[id] = at ? await magentaAt(a.page, at) : 0;
          seen = Object.entries(shares)
            .map(([id, v]) => `${id} ${(v * 100).toFixed(0)}%`)
            .join(', ');
          return Object.values(shares).every((v) => v >= 0.5);
        },
        'every link magenta where it is projected',
        30_000,
      ).catch((e) => {
        throw new Error(`${e.message}: ${seen}`);
      });
      await a.page.screenshot({ path: shot('ownrobot-described.png') });
    });

    const b = await openScene(browser, own);
    opened.push(b.ctx);
    await test("the same places in the scene with its own robot are not the described robot's colour", async () => {
      await until(() => b.page.evaluate(() => window.__skillbridge.screenPoint('robot#turret') !== null), 'the scene robot drawn', 30_000);
      await b.page.screenshot({ path: shot('ownrobot-scene-own.png') });
      for (const [id, at] of Object.entries(points)) {
        const share = await magentaAt(b.page, at);
        assert(share < 0.1, `${id}: ${(share * 100).toFixed(0)}% magenta without the described robot`);
      }
    });

    await test('a robot folder picked in the page replaces the scene robot: drawn, and named in the UI', async () => {
      const page = b.page;
      const picker = page.getByTestId('robot-picker');
      await picker.locator('summary').click();
      const gen = await page.evaluate(() => window.__skillbridge.generation);
      await page.setInputFiles('input[aria-label="Robot folder"]', path.dirname(path.dirname(magenta)));
      await page.waitForFunction((g) => window.__skillbridge.generation > g && window.__skillbridge.framesSinceLoad > 4, gen, {
        timeout: 60_000,
      });
      await until(
        async () => /ur5e_like \(from the folder you picked\)/.test(await page.getByTestId('robot-in-use').innerText()),
        'the robot named',
        20_000,
      );
      await picker.locator('summary').click();
      await page.waitForTimeout(300);
      await page.screenshot({ path: shot('ownrobot-uploaded.png') });
      let seen = '';
      await until(
        async () => {
          const at = await linkPoints(page);
          const shares = await Promise.all(AT_ORIGIN.map(async (id) => (at[id] ? await magentaAt(page, at[id]) : 0)));
          seen = shares.map((v, k) => `${AT_ORIGIN[k]} ${(v * 100).toFixed(0)}%`).join(', ');
          return shares.every((v) => v >= 0.5);
        },
        'the uploaded robot drawn magenta',
        30_000,
      ).catch((e) => {
        throw new Error(`${e.message}: ${seen}`);
      });
    });

    await test('a broken robot folder is refused with the reason shown, and the robot before stays', async () => {
      const page = b.page;
      const picker = page.getByTestId('robot-picker');
      await picker.locator('summary').click();
      const gen = await page.evaluate(() => window.__skillbridge.generation);
      await page.setInputFiles('input[aria-label="Robot folder"]', path.join(root, 'test/fixtures/robots/broken'));
      const refused = page.getByTestId('robot-refused');
      await refused.waitFor({ timeout: 30_000 });
      const text = await refused.innerText();
      assert(/mimics joint "no_such_joint"/.test(text), `the refusal reads "${text}"`);
      assert(
        /joint "finger_joint"/.test(await page.getByRole('list', { name: 'Robot description problems' }).innerText()),
        'no problem on its element',
      );
      assert((await page.evaluate(() => window.__skillbridge.generation)) === gen, 'the scene was rebuilt for a refused robot');
      assert(/ur5e_like/.test(await page.getByTestId('robot-in-use').innerText()), 'the robot before is no longer named');
      await page.screenshot({ path: shot('ownrobot-refused.png') });
      // Below the open panel the 3D view still shows the scene, in the window as captured whole (a panel
      // that scrolled left the view black below it there).
      const panel = await page.locator('.robot-picker-panel').boundingBox();
      const canvas = await page.locator('canvas').first().boundingBox();
      const top = panel.y + panel.height + 10;
      const { colours } = await pixelStats(await page.screenshot(), page, {
        x: panel.x + 20,
        y: top,
        width: panel.width - 40,
        height: canvas.y + canvas.height - top - 40,
      });
      assert(colours > 3, `the view below the robot panel is one flat colour (${colours} colours)`);
    });

    await test('"Use the scene\'s own robot" goes back to it', async () => {
      const page = b.page;
      const gen = await page.evaluate(() => window.__skillbridge.generation);
      await page.getByRole('button', { name: "Use the scene's own robot" }).click();
      await page.waitForFunction((g) => window.__skillbridge.generation > g && window.__skillbridge.framesSinceLoad > 4, gen, {
        timeout: 60_000,
      });
      await until(async () => !/ur5e_like/.test(await page.getByTestId('robot-in-use').innerText()), 'the scene robot named', 20_000);
    });
  } finally {
    for (const c of opened) await c.close();
    await described.stop();
    await own.stop();
  }
}
