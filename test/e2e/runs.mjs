// Runs watched again: every run of the session in the Runs tab (exported on
// demand), replayed in 3D from its recorded poses with a timeline (play, pause,
// step, seek, speed) that the trace follows, and two runs side by side.
import {
  assert,
  lastEnd,
  openTab,
  out,
  pickScript,
  resetScene,
  sendMessage,
  shot,
  state,
  test,
  until,
  useScript,
  waitScene,
} from './harness.mjs';
import path from 'node:path';
import { readFileSync } from 'node:fs';

const replay = (page) =>
  page.evaluate(
    () =>
      window.__skillbridgeReplay && {
        t: window.__skillbridgeReplay.t,
        runs: window.__skillbridgeReplay.runs,
        at: window.__skillbridgeReplay.eventIndex(0),
      },
  );

export async function runFlows() {
  const page = state.page;
  const items = page.locator('[data-testid="run-item"]');

  await test('every agent run of the session is listed in the Runs tab, and any can be exported', async () => {
    await page.selectOption('select[aria-label="Scene"]', 'tabletop/fruits');
    await waitScene('tabletop/fruits');
    await openTab('Runs');
    const before = await items.count();
    for (const [name, object] of [
      ['runs-a', 'lemon'],
      ['runs-b', 'peach'],
    ]) {
      await resetScene();
      await useScript(pickScript(name, object));
      await sendMessage(`pick the ${object} (${name})`, { approval: 'auto' });
      await lastEnd().waitFor({ timeout: 30_000 });
    }
    await openTab('Runs');
    await until(async () => (await items.count()) >= before + 2, 'two more runs in the list');
    const first = items.filter({ hasText: 'runs-a' });
    assert(/1 call/.test(await first.innerText()), `the run list says: ${await first.innerText()}`);
    const dl = page.waitForEvent('download');
    await first.getByRole('button', { name: 'Export' }).click();
    const file = path.join(out, 'e2e-runs-export.jsonl');
    await (await dl).saveAs(file);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert(lines[0].type === 'header' && lines.some((l) => l.type === 'tool_call'), 'the export is not a trace with its tool call');
  });

  await test('a run replays in 3D: play moves the timeline and the lemon, pause holds it, step and seek move the trace', async () => {
    await items.filter({ hasText: 'runs-a' }).getByRole('button', { name: 'Watch' }).click();
    await page.locator('[data-testid="replay-view"]').waitFor({ timeout: 10_000 });
    const r0 = await replay(page);
    assert(r0.runs.length === 1 && r0.runs[0].frames > 5, `recorded frames: ${JSON.stringify(r0.runs)}`);
    const timeline = page.getByRole('group', { name: 'Replay timeline' });
    const lemonStart = await page.evaluate(() => window.__skillbridgeReplay.bodyAt(0, 'lemon_1'));
    await page.selectOption('select[aria-label="Replay speed"]', '4');
    await timeline.getByRole('button', { name: /Play the replay/ }).click();
    await until(async () => (await replay(page)).t > 500, 'the playhead to move');
    await timeline.getByRole('button', { name: /Pause the replay/ }).click();
    // Paused once the button offers Play again (a frame already scheduled may land first).
    await timeline.getByRole('button', { name: /Play the replay/ }).waitFor({ timeout: 5_000 });
    await page.waitForTimeout(150);
    const held = (await replay(page)).t;
    await page.waitForTimeout(500);
    assert((await replay(page)).t === held, 'the replay ran on while paused');
    // Seek to the end: the lemon is up in the gripper, the trace's marker on the last line.
    const seek = timeline.getByRole('slider', { name: 'Seek' });
    const max = Number(await seek.getAttribute('max'));
    await seek.fill(String(max));
    await until(async () => (await replay(page)).t >= max - 20, 'the seek to the end');
    const lemonEnd = await page.evaluate(() => window.__skillbridgeReplay.bodyAt(0, 'lemon_1'));
    assert(lemonEnd[1] > lemonStart[1] + 0.05, `the replayed lemon did not rise (${lemonStart[1].toFixed(2)} → ${lemonEnd[1].toFixed(2)})`);
    // The trace panel marks the line at the playhead: the last one at the end, the next one after a step.
    const lines = page.locator('[data-testid="replay-trace"] [data-testid="replay-event"]');
    const marked = () => lines.evaluateAll((ls) => ls.findIndex((l) => l.getAttribute('aria-current') === 'step'));
    await until(async () => (await marked()) === (await lines.count()) - 1, 'the trace marker on the last line after a seek to the end');
    const said = (await lines.allInnerTexts()).filter((l) => /I picked up the lemon/.test(l)).length;
    assert(said === 1, `the replay's trace says the answer ${said} times`);
    await seek.fill('0');
    await until(async () => (await replay(page)).t <= 20, 'the seek to the start');
    // Step = the next trace record, one line at a time (not one pose frame), back and forth.
    const at0 = await marked();
    const n = await lines.count();
    for (let k = 1; k <= Math.min(3, n - 1 - at0); k++) {
      await timeline.getByRole('button', { name: /Step forward/ }).click();
      await until(async () => (await marked()) === at0 + k, `the trace marker on line ${at0 + k} after ${k} steps`);
    }
    const here = await marked();
    await timeline.getByRole('button', { name: /Step back/ }).click();
    await until(async () => (await marked()) === here - 1, 'the trace marker one line back after a step back');
    const speeds = await page.locator('select[aria-label="Replay speed"] option').allInnerTexts();
    assert(speeds.includes('16×'), `speeds: ${speeds.join(' ')}`);
    await page.screenshot({ path: shot('e2e-replay-timeline.png') });
  });

  await test('a run whose call was rejected and whose answer claims it worked is not "✓ done"; a bookmark marks the rejection and a click on it puts the trace marker there', async () => {
    await page.getByRole('button', { name: 'Back to live' }).click();
    await resetScene();
    await useScript(pickScript('runs-rejected', 'plum'));
    // A short window: the agent panel is longer than the screen and must scroll to what needs the person.
    await page.setViewportSize({ width: 1280, height: 560 });
    const inSight = (loc) =>
      loc.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const box = el.closest('aside.right').getBoundingClientRect();
        return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
      });
    await sendMessage('pick the plum (runs-rejected)', { approval: 'ask' });
    const reject = page.locator('aside.right').getByRole('button', { name: 'Reject' }).first();
    await reject.waitFor({ timeout: 15_000 });
    await until(() => inSight(reject), 'the agent panel to scroll to the new approval', 5_000);
    await reject.click();
    await lastEnd().waitFor({ timeout: 30_000 });
    await until(() => inSight(lastEnd()), "the agent panel to scroll to the run's end", 5_000);
    await page.setViewportSize({ width: 1440, height: 860 });
    // Honesty: the call was rejected and the model still says "I picked up the plum": no green "✓ done".
    const end = await lastEnd().innerText();
    assert(!/✓ done/.test(end) && /rejected/.test(end), `the run's end says: ${end}`);
    await openTab('Runs');
    await items.filter({ hasText: 'runs-rejected' }).getByRole('button', { name: 'Watch' }).click();
    await page.locator('[data-testid="replay-view"]').waitFor({ timeout: 10_000 });
    const marks = page.locator('[data-testid="replay-bookmark"]');
    await until(async () => (await marks.count()) >= 1, 'a bookmark on the timeline');
    const label = await marks.first().getAttribute('aria-label');
    assert(/approval/.test(label), `the first bookmark: ${label}`);
    await marks.first().click();
    const lines = page.locator('[data-testid="replay-trace"] [data-testid="replay-event"]');
    await until(
      async () =>
        /rejected|reject/.test(
          (await lines.evaluateAll((ls) => ls.find((l) => l.getAttribute('aria-current') === 'step')?.textContent)) ?? '',
        ),
      'the trace marker on the rejection',
    );
  });

  await test('two runs side by side on one timeline', async () => {
    await page.getByRole('button', { name: 'Back to live' }).click();
    await page.getByRole('checkbox', { name: /runs-a/ }).check();
    await page.getByRole('checkbox', { name: /runs-b/ }).check();
    await page.getByRole('button', { name: 'Compare two' }).click();
    await until(async () => (await page.locator('[data-testid="replay-pane"]').count()) === 2, 'two panes');
    const r = await replay(page);
    assert(r.runs.length === 2 && r.runs.every((x) => x.frames > 5), `runs: ${JSON.stringify(r.runs)}`);
    assert((await page.locator('[data-testid="replay-trace"] section').count()) === 2, 'the trace does not show both runs');
    await page.waitForTimeout(400);
    await page.screenshot({ path: shot('e2e-replay-side-by-side.png') });
    await page.getByRole('button', { name: 'Back to live' }).click();
    await page.locator('[data-testid="scene-canvas"]').waitFor({ timeout: 10_000 });
  });
}
