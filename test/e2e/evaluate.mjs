// The Evaluate view: a small oracle evaluation started from the view,
// its progress and a result row per case, then a case opened as a replay of its
// recorded trace (the live world untouched). The server's results go to ./eval-results (ignored by git).
import { assert, openTab, pixelStats, shot, state, test } from './harness.mjs';

export async function evaluateFlows(tag = '') {
  const page = state.page;
  const view = page.locator('section.evaluate');

  await test(`${tag}the Evaluate view runs a small oracle evaluation, showing progress and a result row per case`, async () => {
    await openTab('Evaluate');
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
    await page.screenshot({ path: shot('e2e-evaluate.png') });
  });

  await test(`${tag}a case's transcript shows in the Evaluate view: its score and what decided it, the messages, tool calls and results`, async () => {
    const row = view.locator('table.eval-cases tbody tr').first();
    const caseId = (await row.locator('td').first().innerText()).trim();
    await row.getByRole('button', { name: /^Transcript of / }).click();
    const tx = view.getByRole('region', { name: 'Transcript' });
    await tx.locator('ol.eval-steps li').first().waitFor({ timeout: 30_000 });
    assert((await tx.locator('h4').innerText()).includes(caseId), `the transcript does not name ${caseId}`);
    const verdict = Object.fromEntries(
      await tx.locator('table.eval-verdict tr').evaluateAll((trs) => trs.map((tr) => [tr.cells[0].textContent, tr.cells[1].textContent])),
    );
    assert(verdict.status === 'pass' && /^1(\.0+)?$|^100/.test(verdict.score), `the verdict says: ${JSON.stringify(verdict)}`);
    assert(/^[0-9a-f]{16}$/.test(verdict.scorer ?? ''), `the verdict names no scorer: ${JSON.stringify(verdict)}`);
    // What is drawn: each step a box of its own inside the panel, its text wrapped (nothing cut off to the side).
    const panel = await view.boundingBox();
    const steps = await tx.locator('ol.eval-steps li').evaluateAll((lis) =>
      lis.map((li) => {
        const r = li.getBoundingClientRect();
        return { kind: li.dataset.kind, text: li.innerText, x: r.left, w: r.width, h: r.height, wide: li.scrollWidth > li.clientWidth + 1 };
      }),
    );
    const kinds = new Set(steps.map((x) => x.kind));
    for (const k of ['user', 'call', 'result-ok']) assert(kinds.has(k), `no ${k} step drawn: ${[...kinds].join(', ')}`);
    const call = steps.find((x) => x.kind === 'call');
    assert(/\w+/.test(call.text) && /[{]/.test(call.text), `a tool call shows no name and arguments: ${call.text.slice(0, 200)}`);
    for (const x of steps) {
      assert(x.w > 100 && x.h > 10, `a ${x.kind} step is not drawn: ${JSON.stringify(x)}`);
      assert(!x.wide && x.x + x.w <= panel.x + panel.width + 1, `a ${x.kind} step runs off the panel: ${JSON.stringify(x)}`);
    }
    await tx.scrollIntoViewIfNeeded();
    const seen = await pixelStats(await tx.screenshot({ path: shot('e2e-case-transcript.png') }));
    assert(seen.colours >= 4 && seen.std > 5, `the transcript looks blank: ${JSON.stringify(seen)}`);
    await tx.getByRole('button', { name: 'Close transcript' }).click();
    await tx.waitFor({ state: 'detached', timeout: 10_000 });
  });

  await test(`${tag}the report opened from the app shows its figures drawn: bars and marks in the window it opens`, async () => {
    const opened = page.waitForEvent('popup', { timeout: 60_000 });
    await view.locator('ul.eval-runs li.selected').getByRole('button', { name: 'Report' }).click();
    const report = await opened;
    const refused = [];
    report.on('console', (m) => m.type() === 'error' && refused.push(m.text()));
    await report.waitForLoadState('load');
    await report.locator('.chart').first().waitFor({ timeout: 30_000 });
    await report.waitForTimeout(300);
    const charts = await report.$$eval('.chart', (els) =>
      els.map((el) => {
        const svg = el.querySelector('svg');
        const r = (svg ?? el).getBoundingClientRect();
        const marks = el.querySelectorAll(
          'svg g[aria-label="bar"] rect, svg g[aria-label="dot"] circle, svg g[aria-label="line"] path, svg g[aria-label="box"] path, svg g[aria-label="box"] rect',
        ).length;
        return { id: el.id, svg: !!svg, marks, w: r.width, h: r.height, text: el.textContent.trim().slice(0, 80) };
      }),
    );
    assert(charts.length >= 1, 'the report has no figure');
    for (const c of charts) assert(c.svg && c.marks >= 1 && c.w > 200 && c.h > 50, `figure ${c.id} is not drawn: ${JSON.stringify(c)}`);
    // As a person sees it: the first figure's pixels are more than a blank box.
    const first = report.locator('.chart').first();
    await first.scrollIntoViewIfNeeded();
    const stats = await pixelStats(await first.screenshot({ path: shot('e2e-report-figure.png') }));
    assert(stats.colours >= 4 && stats.std > 5, `the first figure looks blank: ${JSON.stringify(stats)}`);
    assert(!refused.some((t) => /Content Security Policy/i.test(t)), `the report page refused its scripts: ${refused[0]}`);
    await report.close();
  });

  await test(`${tag}clicking a case opens a replay of its recorded trace; the live world is left as it was`, async () => {
    const before = await page.evaluate(() => [window.__skillbridge.sceneId, window.__skillbridge.generation]);
    const row = view.locator('table.eval-cases tbody tr').first();
    const caseId = (await row.locator('td').first().innerText()).trim();
    await row.locator('td').first().click();
    await page.locator('[data-testid="replay-view"]').waitFor({ timeout: 30_000 });
    const lines = page.locator('[data-testid="replay-trace"] [data-testid="replay-event"]');
    await lines.first().waitFor({ timeout: 10_000 });
    const text = (await lines.allInnerTexts()).join('\n');
    assert(/\w+\(/.test(text), `the case's trace shows no tool call: ${text.slice(0, 300)}`);
    assert((await page.locator('.replay-caption').innerText()).includes(caseId), 'the replay does not name the case');
    // A finished case: not captioned "running", and its world drawn in the 3D view (not "No poses were recorded").
    const caption = await page.locator('.replay-caption').innerText();
    assert(!/\brunning\b/.test(caption), `a finished case is captioned: ${caption}`);
    assert((await page.getByText('No poses were recorded').count()) === 0, 'the 3D view says no poses were recorded');
    const canvas = page.locator('[data-testid="replay-pane"] canvas');
    await canvas.waitFor({ timeout: 10_000 });
    await page.waitForTimeout(800);
    const drawn = await pixelStats(await canvas.screenshot({ path: shot('e2e-case-replay.png') }));
    assert(drawn.colours >= 20 && drawn.std > 8, `the case's 3D view looks empty: ${JSON.stringify(drawn)}`);
    const after = await page.evaluate(() => [window.__skillbridge.sceneId, window.__skillbridge.generation]);
    assert(after[0] === before[0] && after[1] === before[1], `the live world changed: ${before} → ${after}`);
    await page.getByRole('button', { name: 'Back to live' }).click();
    await page.locator('[data-testid="scene-canvas"]').waitFor({ timeout: 10_000 });
  });
}
