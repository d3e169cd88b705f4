// Pictures in the app: a scripted model that reads images calls the robot's
// camera; the trace panel shows the picture (a real decoded image, not blank),
// enlarges it on click with alt text saying what it is, and the replay of the
// finished run shows the same picture at its result.
import {
  assert,
  lastEnd,
  openTab,
  resetScene,
  scriptFile,
  sendMessage,
  shot,
  state,
  test,
  until,
  useScript,
  waitScene,
} from './harness.mjs';

/** The drawn image's size and how many distinct colours a sample of its pixels has (1: a blank picture). */
const drawn = (img) =>
  img.evaluate((el) => {
    const c = document.createElement('canvas');
    c.width = el.naturalWidth;
    c.height = el.naturalHeight;
    const g = c.getContext('2d');
    g.drawImage(el, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4 * 37) seen.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
    return { w: el.naturalWidth, h: el.naturalHeight, colours: seen.size, src: el.src.slice(0, 21) };
  });

export async function pictureFlows() {
  const page = state.page;

  await test('the trace panel shows the camera picture of a model that reads images, enlarged on click', async () => {
    await page.selectOption('select[aria-label="Scene"]', 'tabletop/fruits');
    await waitScene('tabletop/fruits');
    await resetScene();
    const file = scriptFile('pictures', [
      { tool_calls: [{ id: 'cam1', type: 'function', function: { name: 'get_camera_image', arguments: { width: 320 } } }] },
      { content: 'I see a lemon and a bowl.' },
    ]);
    await useScript(file);
    const reads = page.getByLabel(/Reads images/);
    if (!(await reads.isChecked())) await reads.check();
    await sendMessage('what do you see? (pictures)', { approval: 'auto' });
    await lastEnd().waitFor({ timeout: 30_000 });
    const row = page.locator('[data-testid="trace-row"][data-tool="get_camera_image"]').last();
    const img = row.locator('[data-testid="run-picture"]');
    await img.waitFor({ timeout: 10_000 });
    await until(() => img.evaluate((el) => el.complete && el.naturalWidth > 0), 'the picture to decode');
    const d = await drawn(img);
    assert(d.w === 320 && d.h === 240, `the picture is ${d.w}×${d.h}`);
    assert(d.colours > 8, `the picture has ${d.colours} colours in its sample (a blank one has 1)`);
    assert(d.src === 'data:image/png;base64', `the picture's source: ${d.src}`);
    const alt = await img.getAttribute('alt');
    assert(/^Robot camera picture, 320×240 PNG, t=\d+\.\d s$/.test(alt ?? ''), `alt text: ${alt}`);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot('e2e-pictures-trace.png') });
    await row.getByRole('button', { name: /Enlarge: Robot camera picture/ }).click();
    const big = page.locator('[data-testid="run-picture-large"]');
    await big.waitFor({ timeout: 5_000 });
    await page.screenshot({ path: shot('e2e-pictures-large.png') });
    await big.getByRole('button', { name: 'Close' }).click();
    await big.waitFor({ state: 'detached', timeout: 5_000 });
    // Later runs in this page send no images.
    await openTab('Agent');
    await page.getByLabel(/Reads images/).uncheck();
  });

  await test('the replay of the finished run shows the same picture at its result', async () => {
    await openTab('Runs');
    const item = page.locator('[data-testid="run-item"]').filter({ hasText: 'pictures' }).first();
    await item.getByRole('button', { name: 'Watch' }).click();
    await page.locator('[data-testid="replay-view"]').waitFor({ timeout: 10_000 });
    const inTrace = page.locator('[data-testid="replay-trace"] [data-testid="run-picture"]').first();
    await inTrace.waitFor({ timeout: 10_000 });
    await until(() => inTrace.evaluate((el) => el.complete && el.naturalWidth > 0), 'the replayed picture to decode');
    const d = await drawn(inTrace);
    assert(d.w === 320 && d.colours > 8, `the replayed picture: ${JSON.stringify(d)}`);
    // Seek to the result: the caption over the 3D view shows it too.
    const at = page
      .locator('[data-testid="replay-trace"] [data-testid="replay-event"]')
      .filter({ has: page.locator('[data-testid="run-picture"]') })
      .first();
    await at.getByRole('button').first().click();
    const caption = page.locator('[data-testid="replay-pane"] [data-testid="run-picture"]');
    await caption.waitFor({ timeout: 10_000 });
    await until(() => caption.evaluate((el) => el.complete && el.naturalWidth > 0), 'the picture at the playhead');
    await page.screenshot({ path: shot('e2e-pictures-replay.png') });
    await page.getByRole('button', { name: 'Back to live' }).click();
  });
}
