// The tool console: a call moves the object in the view, a bad call shows the
// validation message a model would get, and the emergency stop blocks motion.
import { assert, out, state, test, waitScene } from './harness.mjs';
import path from 'node:path';

export async function consoleFlows(tag) {
  const page = state.page;
  await test(`${tag}a tool called from the console moves the object in the view`, async () => {
    await page.selectOption('select[aria-label="Scene"]', 'tabletop/fruits');
    await waitScene('tabletop/fruits');
    const before = await page.evaluate(() => window.__skillbridge.bodyPosition('lemon_1'));
    assert(before, 'lemon_1 is not drawn');
    await page.getByRole('option', { name: 'pick', exact: true }).click();
    await page.fill('#arg-object_name', 'lemon');
    await page.getByRole('button', { name: 'Call pick' }).click();
    // While the arm works, the call's target is highlighted.
    await page.waitForFunction(() => window.__skillbridge.highlighted().includes('lemon_1'), null, { timeout: 10_000 });
    const result = page.locator('[data-testid="tool-result"]');
    await result.waitFor({ timeout: 30_000 });
    const text = await result.locator('.result-content').innerText();
    assert(/picked up lemon_1/.test(text), `unexpected result: ${text}`);
    await page.waitForTimeout(300);
    const after = await page.evaluate(() => window.__skillbridge.bodyPosition('lemon_1'));
    const moved = Math.hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]);
    await page.screenshot({ path: path.join(out, 'e2e-tool-pick.png') });
    assert(moved > 0.05 && after[1] > before[1] + 0.05, `the lemon did not move up in the view (moved ${moved.toFixed(3)} m)`);
  });

  await test(`${tag}the console shows the validation message a model would get`, async () => {
    await page.getByRole('option', { name: 'compute_grasp', exact: true }).click();
    await page.fill('#arg-object_name', '');
    await page.getByRole('button', { name: 'Call compute_grasp' }).click();
    const content = page.locator('[data-testid="tool-result"] .result-content');
    try {
      await page.waitForFunction(
        () =>
          /Invalid arguments for compute_grasp/.test(
            document.querySelector('[data-testid="tool-result"] .result-content')?.textContent ?? '',
          ),
        null,
        { timeout: 10_000 },
      );
    } catch {
      throw new Error(`the console shows: ${await content.innerText()}`);
    }
    const text = await content.innerText();
    assert(/object_name: missing \(required/.test(text), `no "object_name: missing (required" in: ${text}`);
  });

  await test(`${tag}the console's field hints stay inside the console, whole (no "…base frame (REP 10" cut off)`, async () => {
    await page.getByRole('option', { name: 'place', exact: true }).click();
    const hints = page.locator('section.tool-console .field-help');
    await hints.first().waitFor({ timeout: 10_000 });
    const boxes = await page.evaluate(() => {
      const panel = document.querySelector('aside.left').getBoundingClientRect();
      return [...document.querySelectorAll('section.tool-console .field-help')].map((h) => {
        const r = h.getBoundingClientRect();
        return { text: h.textContent, right: r.right, panel: panel.right, clipped: h.scrollWidth > h.clientWidth + 1 };
      });
    });
    assert(
      boxes.some((b) => /REP 103\)/.test(b.text)),
      `no hint names the frame: ${boxes.map((b) => b.text).join(' | ')}`,
    );
    for (const b of boxes)
      assert(b.right <= b.panel + 1 && !b.clipped, `a hint overflows the console: "${b.text}" (right ${b.right} > ${b.panel})`);
  });

  await test(`${tag}the emergency stop reaches the robot and blocks motion`, async () => {
    await page.getByRole('tab', { name: 'World' }).click();
    await page.getByRole('button', { name: 'EMERGENCY STOP', exact: true }).click();
    await page.locator('.estop-head.pressed').waitFor({ timeout: 10_000 });
    await page.getByRole('option', { name: 'move_to_home_pos', exact: true }).click();
    await page.getByRole('button', { name: 'Call move_to_home_pos' }).click();
    await page.waitForFunction(
      () => /estop|emergency stop/i.test(document.querySelector('[data-testid="tool-result"] .result-content')?.textContent ?? ''),
      null,
      { timeout: 15_000 },
    );
    await page.getByRole('button', { name: 'Release emergency stop' }).click();
    await page.getByText('released', { exact: true }).waitFor({ timeout: 10_000 });
  });
}
