// Agent runs with a scripted model: the robot moves and the trace fills, Stop
// ends a run at once, an emergency stop reaches the running skill, and the page
// logs no errors.
import { assert, lastEnd, out, resetScene, startAgentRun, state, test } from './harness.mjs';
import path from 'node:path';

export async function agentFlows(tag) {
  const page = state.page;
  await test(`${tag}a scripted agent run moves the robot and fills the trace panel`, async () => {
    await resetScene();
    const row = await startAgentRun('happy', 'lemon');
    // The view highlights what the agent's call names while it runs.
    await page.waitForFunction(() => window.__skillbridge.highlighted().includes('lemon_1'), null, { timeout: 10_000 });
    await lastEnd().waitFor({ timeout: 30_000 });
    assert((await lastEnd().getAttribute('data-reason')) === 'done', `run ended: ${await lastEnd().innerText()}`);
    const text = await row.innerText();
    assert(/picked up lemon_1/.test(text) && /object_name/.test(text) && /\d+ ms/.test(text), `trace row: ${text}`);
    assert(
      /I picked up the lemon/.test(await page.locator('[data-testid="conversation"]').innerText()),
      'no final answer in the conversation',
    );
    await page.screenshot({ path: path.join(out, 'e2e-agent-run.png') });
  });

  await test(`${tag}Stop mid-run ends the run at once (model and skill)`, async () => {
    await resetScene();
    await startAgentRun('stop', 'peach');
    await page.waitForTimeout(250);
    const stopButton = page.getByRole('button', { name: 'Stop', exact: true });
    assert(await stopButton.isEnabled(), 'Stop is not enabled while running');
    const t0 = Date.now();
    await stopButton.click();
    await lastEnd().waitFor({ timeout: 5_000 });
    const reason = await lastEnd().getAttribute('data-reason');
    assert(reason === 'stopped', `run ended with ${reason}`);
    assert(Date.now() - t0 < 3_000, `stopping took ${Date.now() - t0} ms`);
    assert(!(await stopButton.isEnabled()), 'Stop still enabled after the run ended');
  });

  await test(`${tag}an emergency stop injected during a run reaches the running skill`, async () => {
    await resetScene();
    const row = await startAgentRun('estop', 'lemon');
    await page.getByRole('tab', { name: 'World' }).click();
    await page.getByRole('button', { name: 'EMERGENCY STOP', exact: true }).click();
    await page.getByRole('tab', { name: 'Agent' }).click();
    try {
      await page.waitForFunction(
        () => /estop|emergency stop/i.test([...document.querySelectorAll('[data-testid="trace-result"]')].at(-1)?.textContent ?? ''),
        null,
        { timeout: 15_000 },
      );
    } catch {
      throw new Error(`the tool result says: ${await row.innerText()}`);
    }
    await lastEnd().waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'World' }).click();
    await page.getByRole('button', { name: 'Release emergency stop' }).click();
    await page.getByText('released', { exact: true }).first().waitFor({ timeout: 10_000 });
  });

  await test(`${tag}no console errors and no lost WebGL context`, async () => {
    const lost = await page.evaluate(() => window.__skillbridge.contextLost);
    assert(!lost, 'WebGL context lost');
    assert(state.consoleErrors.length === 0, `console errors:\n    ${state.consoleErrors.slice(0, 5).join('\n    ')}`);
  });
}
