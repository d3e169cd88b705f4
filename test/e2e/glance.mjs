// The teacher's second pass at the room: the class at a glance (a live
// thumbnail of each group's scene, groups the teacher names), and the default
// views a class sees (the robot large enough, the robot camera showing what it
// sees, a person's words in the 3D view), presentation mode reframing the view,
// and the frame-rate controls (fps readout, quality with its antialiasing, a
// hidden tab not drawing).
import { assert, openTab, pixelStats, shot, startServer, test as run, until } from './harness.mjs';

/** GLANCE_TESTS=word,word runs only the tests whose names hold one of the words (a quicker loop while working on one). */
const only = (process.env.GLANCE_TESTS ?? '').split(',').filter(Boolean);
const test = (name, fn) => (only.length && !only.some((w) => name.includes(w)) ? undefined : run(name, fn));

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
    // A large scene loads slowly on a loaded machine.
    const loaded = (id) =>
      a.waitForFunction((sid) => window.__skillbridge?.sceneId === sid && window.__skillbridge.framesSinceLoad > 8, id, {
        timeout: 90_000,
      });

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
      // The overview refreshes from the host every second, each refresh with the group's later sim time:
      // two new sim times in the (only) thumbnail mean a whole refresh came in after what was on screen.
      const anyThumb = teacher.locator('canvas[data-testid="class-thumb"]').first();
      const refreshedTwice = async () => {
        for (let i = 0; i < 2; i++) {
          const seen = await anyThumb.getAttribute('data-sim-time');
          await until(async () => (await anyThumb.getAttribute('data-sim-time')) !== seen, 'the class overview to refresh', 10_000);
        }
      };
      // Kept by the host: the next refresh still shows the new name.
      await refreshedTwice();
      assert((await renamed.count()) === 1, 'the name the teacher set did not last a refresh');
      // The group's tab reloads (it reconnects offering the name it kept): the teacher's name wins, and the group sees it.
      await a.reload();
      await a.waitForFunction(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 4, null, { timeout: 60_000 });
      await until(
        async () => (await a.inputValue('input[aria-label="Group name"]')) === 'Lemon Squad',
        "the teacher's name in the group's tab",
      );
      await refreshedTwice();
      assert(
        (await renamed.count()) === 1,
        `the group's reconnect renamed it: ${await teacher.locator('[data-testid="class-row"]').allInnerTexts()}`,
      );
    });
    // The rest is the group's tab alone: the teacher's tab, left open, would go on drawing its scene beside it.
    contexts.splice(contexts.indexOf(teacher.context()), 1);
    await teacher.context().close();
    await test('default views: the farm rover framed large in its shelter, its camera saying what fills its image', async () => {
      await a.selectOption('select[aria-label="Scene"]', 'farm');
      await loaded('farm');
      const rover = await a.evaluate(() => window.__skillbridge.screenBox('robot#base'));
      assert(rover[2] - rover[0] >= 80, `the rover is ${(rover[2] - rover[0]).toFixed(0)} px wide in the default view`);
      assert(await a.evaluate(() => window.__skillbridge.robotInView()), 'the rover is hidden in the default view');
      // Docked, the rover faces its shelter's back wall half a metre away: the flat image says so.
      const note = a.locator('[data-testid="inset-note"]');
      await note.waitFor({ timeout: 10_000 });
      assert(/shelter/.test(await note.innerText()), `the inset note: ${await note.innerText()}`);
      await a.screenshot({ path: shot('e2e-default-farm.png') });
    });

    await test("default views: the workshop's wrist camera shows the room, not the inside of the robot's hand", async () => {
      await a.selectOption('select[aria-label="Scene"]', 'tabletop/workshop');
      await loaded('tabletop/workshop');
      const inset = a.locator('.view-inset canvas');
      await a.screenshot({ path: shot('e2e-default-workshop.png') });
      await until(async () => (await canvasColours(inset)) >= 24, 'a wrist camera image with more than a flat colour', 15_000).catch(
        async (e) => {
          throw new Error(`${e.message} (${await canvasColours(inset)} colours)`);
        },
      );
      await a.screenshot({ path: shot('e2e-default-workshop.png') });
    });

    await test('"a person says" shows the words over the person in the 3D view while they last', async () => {
      await a.selectOption('select[aria-label="Scene"]', 'kitchen/assistive');
      await loaded('kitchen/assistive');
      await openTab('World', a);
      await a.selectOption('select[aria-label="Who speaks"]', 'adriana');
      // Long enough to stay up about nine seconds: a slow software-rendered frame still sees it placed.
      await a.fill(
        'input[aria-label="What they say"]',
        'Could you bring me a glass of water? The tall glass on the left of the shelf, please.',
      );
      await a.getByRole('button', { name: 'Say', exact: true }).click();
      const bubble = a.locator('[data-testid="speech-bubble"]');
      // Read at once in the page: where the bubble is, where Adriana is drawn, and what it says.
      const seen = await a.waitForFunction(
        () => {
          // Placed over its speaker (the first frame may draw it before her screen position is known).
          const el = document.querySelector('[data-testid="speech-bubble"]:not(.unplaced)');
          const c = document.querySelector('[data-testid="scene-canvas"]');
          if (!el || !c) return null;
          const r = el.getBoundingClientRect();
          const k = c.getBoundingClientRect();
          return {
            b: { x: r.x, y: r.y, width: r.width, height: r.height },
            canvas: { x: k.x, y: k.y },
            head: window.__skillbridge.screenBox('adriana'),
            said: el.textContent,
          };
        },
        null,
        // Polled on a timer, not on animation frames: under load the page draws a frame a second or less.
        { timeout: 20_000, polling: 100 },
      );
      const { b, head, canvas, said } = await seen.jsonValue();
      assert(/Adriana/.test(said) && /glass of water/.test(said), said);
      // Over Adriana: centred on her, its tail in the top of the box she is drawn in (the box's near corners rise above her head).
      const cx = b.x + b.width / 2 - canvas.x;
      assert(
        cx > head[0] - 20 && cx < head[2] + 20 && b.y + b.height - canvas.y <= head[1] + (head[3] - head[1]) * 0.35,
        `bubble ${JSON.stringify(b)} head ${head}`,
      );
      await a.screenshot({ path: shot('e2e-speech.png') });
      await bubble.waitFor({ state: 'detached', timeout: 20_000 });
    });
    await test('presentation mode frames the view again for the bigger viewport', async () => {
      // The workshop is wide: with the side panels open its width sets the camera's distance.
      await a.selectOption('select[aria-label="Scene"]', 'tabletop/workshop');
      await loaded('tabletop/workshop');
      const probe = () =>
        a.evaluate(() => ({
          radius: window.__skillbridge.cameraRadius(),
          framed: window.__skillbridge.framedRadius(),
          angles: window.__skillbridge.cameraAngles(),
        }));
      const canvas = a.locator('[data-testid="scene-canvas"]');
      const box = await canvas.boundingBox();
      const w0 = box.width;
      const start = await probe();
      // A person turns the view first: following the robot keeps that angle; only framing the view again resets it.
      await a.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await a.mouse.down();
      await a.mouse.move(box.x + box.width / 2 + 160, box.y + box.height / 2, { steps: 8 });
      await a.mouse.up();
      await until(async () => Math.abs((await probe()).angles[0] - start.angles[0]) > 0.3, 'the drag to turn the view', 5_000).catch(
        () => undefined,
      );
      const turned = await probe();
      assert(Math.abs(turned.angles[0] - start.angles[0]) > 0.3, `the drag did not turn the view: ${start.angles} → ${turned.angles}`);
      await a.getByRole('button', { name: 'Present', exact: true }).click();
      await until(async () => (await canvas.boundingBox()).width > w0 + 300, 'the panels to fold');
      // Framed again for the wider canvas: the default angle, at the distance the default view picks for this canvas
      // (closer than before; following the robot can only bring it closer still).
      await until(
        async () => {
          const p = await probe();
          return Math.abs(p.angles[0] - start.angles[0]) < 0.05 && p.framed < start.radius * 0.95 && p.radius <= p.framed * 1.03;
        },
        'the view framed again for the wider canvas',
        10_000,
      ).catch(async (e) => {
        throw new Error(
          `${e.message}: before ${JSON.stringify(start)}, turned ${JSON.stringify(turned)}, now ${JSON.stringify(await probe())}`,
        );
      });
      assert(await a.evaluate(() => window.__skillbridge.robotInView()), 'the robot is hidden in presentation mode');
      await a.screenshot({ path: shot('e2e-present-reframed.png') });
      await a.getByRole('button', { name: 'Present', exact: true }).click();
    });

    await test('frame rate: an fps readout and a quality setting, both remembered; a hidden tab does not draw', async () => {
      await a.getByRole('button', { name: 'FPS', exact: true }).click();
      const fps = a.locator('[data-testid="fps-readout"]');
      // The readout says the resolution the view draws at now: adaptive resolution lowers it on a slow machine.
      // The view draws only what changed: while a person turns it, the rate it draws at ...
      const cbox = await a.locator('[data-testid="scene-canvas"]').boundingBox();
      const [cx, cy] = [cbox.x + cbox.width / 2, cbox.y + cbox.height * 0.9];
      await a.mouse.move(cx, cy);
      await a.mouse.down();
      let turning = '';
      for (let i = 0; i < 60 && !/^\d+ fps · \d+ % res$/.test(turning); i++) {
        await a.mouse.move(cx + (i % 2 ? 120 : -120), cy, { steps: 6 });
        turning = await fps.innerText();
      }
      await a.mouse.up();
      assert(/^\d+ fps · \d+ % res$/.test(turning), `while the view turns the readout shows "${turning}"`);
      assert(Number(/^(\d+)/.exec(turning)[1]) > 0, `while the view turns the readout shows "${turning}"`);
      // ... and once nothing changes, "idle" (not a low rate that would read as a slow machine).
      await until(async () => /^idle · \d+ % res$/.test(await fps.innerText()), 'the readout to say idle once nothing changes', 10_000);
      // Idle, the canvas keeps showing the scene; a change (the view turned again) is drawn on it at once.
      const canvasEl = a.locator('[data-testid="scene-canvas"]');
      const insetBefore = await a.evaluate(() => window.__skillbridge.insetRenders);
      const idleShot = await canvasEl.screenshot();
      const idle = await pixelStats(idleShot, a);
      assert(idle.colours >= 24 && idle.std > 4, `the idle canvas: ${JSON.stringify(idle)}`);
      await a.mouse.move(cx, cy);
      await a.mouse.down();
      await a.mouse.move(cx + 150, cy, { steps: 5 });
      await a.mouse.up();
      await until(async () => !(await canvasEl.screenshot()).equals(idleShot), 'the turned view drawn on an idle canvas', 5_000);
      const turned = await pixelStats(await canvasEl.screenshot(), a);
      assert(turned.colours >= 24 && turned.std > 4, `the turned view: ${JSON.stringify(turned)}`);
      // Turning the view changes nothing the robot's camera sees: its image (a second pass over the scene) is not drawn again.
      await a.waitForTimeout(1_000);
      const insetAfter = await a.evaluate(() => window.__skillbridge.insetRenders);
      assert(insetAfter === insetBefore, `turning the view drew the robot camera's image ${insetAfter - insetBefore} more times`);
      const drawn = await a.evaluate(() => ({ level: window.__skillbridge.scaling(), range: window.__skillbridge.scalingRange() }));
      const shown = Number(/· (\d+) % res/.exec(await fps.innerText())[1]);
      assert(Math.abs(shown - 100 / drawn.level) <= 9, `readout ${shown} % for level ${drawn.level}`);
      assert(drawn.level >= drawn.range[0] && drawn.level <= drawn.range[1], `level ${drawn.level} outside ${drawn.range}`);
      await a.screenshot({ path: shot('e2e-fps.png') });
      // The quality's own resolution (adaptive resolution moves the level between it and its floor).
      const scaling = () => a.evaluate(() => window.__skillbridge.scalingRange()[0]);
      const medium = await scaling();
      await a.selectOption('select[aria-label="Rendering quality"]', 'low');
      await until(async () => (await scaling()) > medium, 'fewer pixels at low quality');
      await a.reload();
      await a.waitForFunction(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 4, null, { timeout: 60_000 });
      assert((await a.locator('select[aria-label="Rendering quality"]').inputValue()) === 'low', 'the quality was not remembered');
      await fps.waitFor({ timeout: 5_000 });
      // Antialiasing is part of the level: on at high, off at low, switched in place (drawing goes on).
      const view = () =>
        a.evaluate(() => ({
          aa: window.__skillbridge.antialiased(),
          scene: window.__skillbridge.sceneId,
          meshes: window.__skillbridge.meshCount,
          // Frames since the page loaded: high quality's shadows rebuild the scene from its data (same scene, same meshes).
          frames: window.__skillbridge.framesRendered,
        }));
      const lowView = await view();
      assert(!lowView.aa, 'antialiasing on at low quality');
      await a.selectOption('select[aria-label="Rendering quality"]', 'high');
      await until(async () => (await view()).aa && (await scaling()) < medium, 'antialiasing and more pixels at high quality');
      await until(async () => (await view()).frames > lowView.frames + 3, 'frames drawn at high quality');
      const highView = await view();
      assert(
        highView.scene === lowView.scene && highView.meshes === lowView.meshes,
        `the scene changed: ${JSON.stringify([lowView, highView])}`,
      );
      await a.reload();
      await a.waitForFunction(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 4, null, { timeout: 60_000 });
      assert((await a.locator('select[aria-label="Rendering quality"]').inputValue()) === 'high', 'high quality was not remembered');
      await until(async () => (await view()).aa, 'antialiasing after a reload at high quality');
      await a.selectOption('select[aria-label="Rendering quality"]', 'medium');
      await a.getByRole('button', { name: 'FPS', exact: true }).click();
      // Hidden (another tab in front): no frames drawn; shown again: drawing resumes.
      const hide = (hidden) =>
        a.evaluate((h) => {
          Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
          document.dispatchEvent(new Event('visibilitychange'));
        }, hidden);
      await hide(true);
      await a.waitForTimeout(300);
      const f0 = await a.evaluate(() => window.__skillbridge.framesRendered);
      await a.waitForTimeout(1_500);
      const f1 = await a.evaluate(() => window.__skillbridge.framesRendered);
      assert(f1 === f0, `a hidden tab drew ${f1 - f0} frames in 1.5 s`);
      await hide(false);
      await until(async () => (await a.evaluate(() => window.__skillbridge.framesRendered)) > f1 + 3, 'drawing to resume');
    });
  } finally {
    for (const c of contexts) await c.close();
    await server.stop();
  }
}
