// What the app shows is what happened, checked as a person sees it: an approval
// card a stop ended cannot be answered, Release is readable and not under the
// pointer that pressed STOP, presentation mode fits a zoomed laptop screen, a
// run's end mark follows its trace, and a classroom's names and stops.
import { contrastOf } from './contrast.mjs';
import {
  assert,
  freshScene,
  lastEnd,
  openTab,
  pickScript,
  scriptFile,
  sendMessage,
  shot,
  startServer,
  test,
  until,
  useScript,
  waitScene,
} from './harness.mjs';

const ZOOMED = { viewport: { width: Math.round(1280 / 1.5), height: Math.round(720 / 1.5) }, deviceScaleFactor: 1.5 };

async function openPage(browser, url, opts = { viewport: { width: 1440, height: 860 } }) {
  const ctx = await browser.newContext(opts);
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 4, null, { timeout: 30_000 });
  return { ctx, page };
}

/** Whether a real click at the element's centre would reach it (on screen, on top, enabled). */
function clickable(loc) {
  return loc.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || el.disabled) return false;
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!at && (at === el || el.contains(at));
  });
}

const call = (id, name, args) => ({ tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] });

export async function shownFlows({ browser, url }) {
  const { ctx, page } = await openPage(browser, url);
  const estop = page.getByRole('button', { name: 'Emergency stop (Esc)' });
  const pressed = page.locator('.estop-head.pressed');
  const release = pressed.getByRole('button', { name: 'Release' });
  try {
    await test('right after a click on STOP the pointer is not on Release, and hovered Release reads at 4.5:1 or more', async () => {
      const b = await estop.boundingBox();
      const x = b.x + b.width / 2;
      const y = b.y + b.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.up();
      await pressed.waitFor({ timeout: 5_000 });
      const under = await release.evaluate(
        (el, [px, py]) => {
          const at = document.elementFromPoint(px, py);
          return !!at && (at === el || el.contains(at));
        },
        [x, y],
      );
      assert(!under, `Release is under the pointer that pressed STOP (at ${x.toFixed(0)}, ${y.toFixed(0)})`);
      const r = await release.boundingBox();
      await page.mouse.move(r.x + r.width / 2, r.y + r.height / 2);
      await page.waitForTimeout(200);
      const c = await contrastOf(release);
      await pressed.screenshot({ path: shot('e2e-release-hover.png') });
      assert(c >= 4.5, `hovered Release has contrast ${c.toFixed(2)}:1`);
      await release.click();
      await estop.waitFor({ timeout: 10_000 });
    });

    await test('after the e-stop ends a run that waited for approval, its Approve / Reject card cannot be clicked', async () => {
      await page.selectOption('select[aria-label="Scene"]', 'tabletop/fruits');
      await waitScene('tabletop/fruits', page);
      await useScript(
        scriptFile('shown-approval', [call('c1', 'pick', { object_name: 'lemon' }), { content: 'I picked up the lemon.' }]),
        page,
      );
      await sendMessage('pick the lemon (waits for approval)', { approval: 'ask' }, page);
      const approve = page.locator('aside.right .approval').last().getByRole('button', { name: 'Approve' });
      await approve.waitFor({ timeout: 15_000 });
      assert(await clickable(approve), 'the card is not clickable while the run waits');
      await estop.click();
      await pressed.waitFor({ timeout: 5_000 });
      await lastEnd(page).waitFor({ timeout: 15_000 });
      await page.waitForTimeout(300);
      const live = [];
      for (const name of ['Approve', 'Reject']) {
        const buttons = page.getByRole('button', { name, exact: true });
        for (let i = 0; i < (await buttons.count()); i++) if (await clickable(buttons.nth(i))) live.push(name);
      }
      await page.locator('aside.right').screenshot({ path: shot('e2e-approval-after-estop.png') });
      assert(live.length === 0, `still clickable after the stop ended the run: ${live.join(', ')}`);
      await release.click();
      await estop.waitFor({ timeout: 10_000 });
    });

    const GREEN = 'rgb(63, 185, 80)';
    const runEnd = async (name, message, turns, { reject = false } = {}) => {
      await freshScene('tabletop/fruits', page);
      await useScript(scriptFile(name, turns), page);
      await sendMessage(message, { approval: reject ? 'ask' : 'auto' }, page);
      if (reject) {
        const no = page.locator('aside.right .approval').last().getByRole('button', { name: 'Reject' });
        await no.waitFor({ timeout: 15_000 });
        await no.click();
      }
      await lastEnd(page).waitFor({ timeout: 30_000 });
      const end = lastEnd(page);
      const shown = { text: await end.innerText(), colour: await end.evaluate((el) => getComputedStyle(el).color) };
      await openTab('Runs', page);
      const item = page.locator('[data-testid="run-item"]').first();
      await until(async () => (await item.innerText()).includes(message), 'the run at the top of the Runs list');
      const bar = await item.evaluate((el) => getComputedStyle(el).borderLeftColor);
      const listed = await item.innerText();
      await openTab('Agent', page);
      return { ...shown, bar, listed };
    };
    const pick = call('c1', 'pick', { object_name: 'lemon' });

    await test('a false final answer after successful calls is not "✓ done": the goal check marks it contradicted, red, in the run and the Runs list', async () => {
      const r = await runEnd('shown-false-answer', 'Put the lemon in the bowl.', [pick, { content: 'The lemon is in the bowl.' }]);
      await page.locator('aside.right').screenshot({ path: shot('e2e-false-answer.png') });
      assert(!/✓/.test(r.text) && /contradicts/.test(r.text), `the run's end says: ${r.text}`);
      assert(r.colour !== GREEN && r.bar !== GREEN, `drawn green: end ${r.colour}, bar ${r.bar}`);
      assert(/contradicts/.test(r.listed), `the Runs list says: ${r.listed}`);
    });

    await test('a run whose call was rejected gets its own mark and no green bar in the Runs list', async () => {
      const r = await runEnd('shown-rejected', 'pick the lemon (rejected)', [pick, { content: 'I picked up the lemon.' }], {
        reject: true,
      });
      assert(r.bar !== GREEN, `the Runs list bar is green (${r.bar})`);
      assert(/rejected/.test(r.listed) && !/\bdone\b/.test(r.listed), `the Runs list says: ${r.listed}`);
    });

    await test('green only when the goal was checked and met; an answer nothing checked is not green', async () => {
      const met = await runEnd('shown-met', 'Put the lemon in the bowl.', [
        pick,
        call('c2', 'place', { target: 'bowl' }),
        { content: 'The lemon is in the bowl.' },
      ]);
      assert(/✓ goal met/.test(met.text) && met.colour === GREEN && met.bar === GREEN, `met: ${met.text} (${met.colour}, bar ${met.bar})`);
      const free = await runEnd('shown-unchecked', 'pick the lemon please', [pick, { content: 'I picked up the lemon.' }]);
      assert(!/✓/.test(free.text) && free.bar !== GREEN, `an unchecked answer: ${free.text} (bar ${free.bar})`);
    });
  } finally {
    await ctx.close();
  }

  await test('presentation mode at 1280×720 and 150 %: the header fits, "?" is on screen, "Pause" is on one line', async () => {
    const z = await openPage(browser, url, ZOOMED);
    try {
      const p = z.page;
      await p.getByRole('button', { name: 'Present', exact: true }).click();
      await p.locator('.app.present').waitFor({ timeout: 5_000 });
      await p.waitForTimeout(400);
      const vw = ZOOMED.viewport.width;
      await p.screenshot({ path: shot('e2e-present-zoomed.png') });
      const head = await p
        .locator('header.app-head')
        .evaluate((h) => ({ scroll: h.scrollWidth, client: h.clientWidth, right: h.getBoundingClientRect().right }));
      assert(head.scroll <= head.client + 1 && head.right <= vw + 1, `the header is ${head.scroll} px wide in a ${vw} px window`);
      const help = p.getByRole('button', { name: 'Help and keyboard shortcuts (?)' });
      const hb = await help.boundingBox();
      assert(hb && hb.x >= 0 && hb.x + hb.width <= vw + 1, `"?" is cut off: ${JSON.stringify(hb)}`);
      assert(await clickable(help), '"?" is covered or clipped');
      const pause = p.getByRole('group', { name: 'Physics' }).getByRole('button', { name: /Pause/ });
      const lines = await pause.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
      });
      assert(lines === 1, `"Pause" takes ${lines} lines`);
    } finally {
      await z.ctx.close();
    }
  });

  await classroom(browser);
}

/** A group's finished runs when the teacher watches it; a rename, a stop note and a stop only the teacher releases. */
async function classroom(browser) {
  const server = startServer(['--classroom']);
  const pages = [];
  try {
    const [groupsUrl, teacherUrl] = await server.urls;
    const group = await openPage(browser, groupsUrl);
    pages.push(group.ctx);
    const g = group.page;
    /** The teacher's page, opened once the group has a finished run. */
    let t;
    await test('classroom: the teacher watching a group sees the runs it finished before (not "No runs yet")', async () => {
      await g.selectOption('select[aria-label="Scene"]', 'tabletop/fruits');
      await waitScene('tabletop/fruits', g);
      await useScript(pickScript('shown-class-run', 'plum'), g);
      await sendMessage('pick the plum (finished before the teacher watches)', { approval: 'auto' }, g);
      await lastEnd(g).waitFor({ timeout: 30_000 });
      const teacher = await openPage(browser, teacherUrl);
      pages.push(teacher.ctx);
      t = teacher.page;
      await openTab('Class', t);
      const row = t.locator('[data-testid="class-row"]').first();
      await row.waitFor({ timeout: 15_000 });
      await row.getByRole('button', { name: 'Watch' }).click();
      await t.getByText(/Watching .* read-only/).waitFor({ timeout: 10_000 });
      await openTab('Runs', t);
      const item = t.locator('[data-testid="run-item"]').filter({ hasText: 'finished before the teacher watches' });
      await item.waitFor({ timeout: 10_000 });
      const box = await item.boundingBox();
      assert(box && box.height > 10, 'the run is not drawn in the list');
      assert((await t.getByText('No runs yet').count()) === 0, 'the list still says "No runs yet"');
      await t.getByRole('button', { name: 'back to my session', exact: true }).click();
      await t.getByText(/Watching .* read-only/).waitFor({ state: 'detached', timeout: 10_000 });
    });
    if (!t) return;

    await test('classroom: the teacher\'s stop note names an unnamed group as shown ("Group 1"), and the group cannot release the teacher\'s stop', async () => {
      await openTab('Class', t);
      const row = t.locator('[data-testid="class-row"]').first();
      const shown = (await row.locator('.class-card-name strong').innerText()).trim();
      assert(/^Group \d+$/.test(shown), `the group is shown as ${shown}`);
      await row.getByRole('button', { name: `Stop ${shown}` }).click();
      const note = t.locator('.class-stop [role="status"]');
      await note.waitFor({ timeout: 10_000 });
      const said = await note.innerText();
      assert(said.includes(shown) && !/\bs\d+\b/.test(said), `the stop note says: ${said}`);
      const pressed = g.locator('.estop-head.pressed');
      await pressed.waitFor({ timeout: 10_000 });
      await pressed.getByRole('button', { name: 'Release' }).click();
      await g
        .getByRole('alert')
        .filter({ hasText: /teacher/ })
        .waitFor({ timeout: 5_000 });
      await g.waitForTimeout(500);
      assert(await pressed.isVisible(), "the group released the teacher's stop");
      assert((await g.locator('[data-testid="estop-note"]').count()) === 1, "the group's note says the stop is gone");
      await g.locator('header.app-head').screenshot({ path: shot('e2e-class-teacher-stop.png') });
      await row.getByRole('button', { name: `Release ${shown}` }).click();
      await g.getByRole('button', { name: 'Emergency stop (Esc)' }).waitFor({ timeout: 10_000 });
    });

    await test("classroom: the teacher's rename shows in the group's own header at once (no reload)", async () => {
      const row = t.locator('[data-testid="class-row"]').first();
      await row.getByRole('button', { name: /^Rename / }).click();
      const field = row.getByRole('textbox', { name: /^New name for / });
      await field.fill('Team Renamed');
      await field.press('Enter');
      await until(
        async () => (await g.locator('input[aria-label="Group name"]').inputValue()) === 'Team Renamed',
        "the group's header to show the new name",
        10_000,
      );
    });
  } finally {
    for (const c of pages) await c.close();
    await server.stop();
  }
}
