// Web-mode defects, each as the person met it: blank coordinates,
// the console's stale result, approvals outside the Agent tab, live and replay
// counts, the answer said once, Test connection's fix, the trace's colours,
// a trace from another scene, contrast and the 3D view's focus ring.
import path from 'node:path';
import {
  assert,
  freshScene,
  lastEnd,
  openTab,
  out,
  pickScript,
  resetScene,
  scriptFile,
  sendMessage,
  state,
  test,
  until,
  useScript,
  waitScene,
} from './harness.mjs';
import { contrastOf } from './contrast.mjs';

export async function defectFlows() {
  const page = state.page;
  const scene = page.locator('select[aria-label="Scene"]');

  await test('moving an object with blank coordinates keeps it where it is (it does not fall through the floor)', async () => {
    await freshScene('tabletop/fruits');
    const before = await page.evaluate(() => window.__skillbridge.bodyPosition('lemon_1'));
    await openTab('World');
    await page.selectOption('select[aria-label="Object to move"]', 'lemon_1');
    for (const axis of ['x forward', 'y left', 'z up']) await page.fill(`input[aria-label="to ${axis} (m)"]`, '');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.waitForTimeout(1500);
    const after = await page.evaluate(() => window.__skillbridge.bodyPosition('lemon_1'));
    assert(Math.abs(after[1] - before[1]) < 0.1, `the lemon went from y=${before[1].toFixed(2)} to y=${after[1].toFixed(2)}`);
    assert(Math.hypot(after[0] - before[0], after[2] - before[2]) < 0.1, 'the lemon moved sideways');
    const msg = await page.locator('section.injector [role="status"]').innerText();
    assert(/moved lemon_1: it rests there, on table_1/.test(msg), `the move says: ${msg}`);
  });

  await test('"Move an object" speaks the tools\' frame (x forward, y left, z up), pre-filled where it rests; onto another object it lands there', async () => {
    await resetScene();
    await openTab('World');
    await page.selectOption('select[aria-label="Object to move"]', 'lemon_1');
    const field = (a) => page.locator(`input[aria-label="to ${a} (m)"]`);
    const shown = await Promise.all(['x forward', 'y left', 'z up'].map(async (a) => Number(await field(a).inputValue())));
    // The same point as get_pose reads (the centre; the form's z is its underside, so lower, never 5 cm higher).
    await page.getByRole('option', { name: 'get_pose', exact: true }).click();
    await page.fill('#arg-name', 'lemon_1').catch(() => page.fill('#arg-object_name', 'lemon_1'));
    await page.getByRole('button', { name: 'Call get_pose' }).click();
    const content = page.locator('[data-testid="tool-result"] .result-content');
    await until(async () => /"x"/.test(await content.innerText()), 'get_pose to answer', 30_000);
    const pose = JSON.parse((await content.innerText()).match(/\{[^{}]*"x"[^{}]*\}/)[0]);
    assert(Math.abs(pose.x - shown[0]) < 0.02 && Math.abs(pose.y - shown[1]) < 0.02, `form ${shown} vs get_pose ${JSON.stringify(pose)}`);
    assert(shown[2] <= pose.z + 0.005 && shown[2] > pose.z - 0.06, `form z ${shown[2]} vs get_pose z ${pose.z}`);
    await page.selectOption('select[aria-label="Onto"]', 'bowl_1');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.waitForTimeout(2000);
    const lemon = await page.evaluate(() => window.__skillbridge.bodyPosition('lemon_1'));
    const bowl = await page.evaluate(() => window.__skillbridge.bodyPosition('bowl_1'));
    assert(
      Math.hypot(lemon[0] - bowl[0], lemon[2] - bowl[2]) < 0.12 && Math.abs(lemon[1] - bowl[1]) < 0.15,
      `the lemon landed at ${lemon.map((v) => v.toFixed(2))}, the bowl is at ${bowl.map((v) => v.toFixed(2))}`,
    );
    const msg = await page.locator('section.injector [role="status"]').innerText();
    assert(!/fault|put back/i.test(msg), `the move says: ${msg}`);
  });

  await test("the tool console's last result goes with Reset and with a new scene", async () => {
    const result = page.locator('[data-testid="tool-result"]');
    const call = async () => {
      await page.getByRole('option', { name: 'get_objects', exact: true }).click();
      await page.getByRole('button', { name: 'Call get_objects' }).click();
      await result.waitFor({ timeout: 15_000 });
    };
    await call();
    await resetScene();
    await until(async () => (await result.count()) === 0, 'the result stayed after Reset', 5_000);
    await call();
    await scene.selectOption('tabletop/boxes');
    await waitScene('tabletop/boxes');
    await until(async () => (await result.count()) === 0, 'the result stayed after a scene switch', 5_000);
    await scene.selectOption('tabletop/fruits');
    await waitScene('tabletop/fruits');
  });

  let exported;
  await test('a pending approval shows outside the Agent tab: a badge, a prompt in the view and the caption', async () => {
    await useScript(pickScript('ask', 'lemon'));
    await sendMessage('pick the lemon', { approval: 'ask' });
    await openTab('World');
    const badge = page.getByRole('tab', { name: /Agent ● 1/ });
    await badge.waitFor({ timeout: 15_000 });
    const prompt = page.locator('[data-testid="view-approval"]');
    await prompt.waitFor({ timeout: 5_000 });
    assert(/pick/.test(await prompt.innerText()), `the view's prompt says: ${await prompt.innerText()}`);
    const caption = await page.locator('.view').first().innerText();
    assert(/waiting for your approval/.test(caption), 'the caption does not say the robot waits for an approval');
    await prompt.getByRole('button', { name: 'Approve' }).click();
    await openTab('Agent');
    await lastEnd().waitFor({ timeout: 30_000 });
    assert(!(await badge.isVisible()), 'the badge stayed after the approval');
  });

  await test('the approval box comes before the call it gates; the answer is said once', async () => {
    await openTab('Agent');
    const order = await page.evaluate(() => {
      const turn = [...document.querySelectorAll('.turn')].at(-1);
      const box = turn?.querySelector('.approval');
      const call = [...(turn?.querySelectorAll('.msg.tool') ?? [])].find((n) => /pick/.test(n.textContent ?? ''));
      return box && call ? box.compareDocumentPosition(call) & Node.DOCUMENT_POSITION_FOLLOWING : -1;
    });
    assert(order > 0, order === -1 ? 'no approval box or no pick line' : 'the approval box comes after the pick line');
    const text = await page.locator('.turn').last().innerText();
    const n = text.split('I picked up the lemon').length - 1;
    assert(n === 1, `the answer appears ${n} times`);
  });

  await test('the same run shows the same tool calls live and in replay, approval boxes included', async () => {
    const live = await page.locator('.turn').last().locator('.msg.tool').count();
    const liveEnd = await lastEnd().innerText();
    const dl = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export trace' }).click();
    exported = path.join(out, 'e2e-approved-run.jsonl');
    await (await dl).saveAs(exported);
    await page.setInputFiles('input[aria-label="Import trace"]', exported);
    await page.getByText(/Replay of run/).waitFor({ timeout: 5_000 });
    const replay = page.locator('.turn').last();
    const replayed = await replay.locator('.msg.tool').count();
    assert(replayed === live, `${live} tool lines live, ${replayed} in replay`);
    const count = (s) => /(\d+) tool calls?/.exec(s)?.[1];
    assert(count(await lastEnd().innerText()) === count(liveEnd), `live "${liveEnd}" vs replay "${await lastEnd().innerText()}"`);
    assert((await replay.locator('.approval').count()) >= 1, 'the replay dropped the approval box');
    await page.getByRole('button', { name: 'close replay' }).click();
  });

  await test('a trace imported in another scene says so', async () => {
    await scene.selectOption('tabletop/boxes');
    await waitScene('tabletop/boxes');
    await page.setInputFiles('input[aria-label="Import trace"]', exported);
    const note = page.getByRole('alert').filter({ hasText: 'recorded in scene tabletop/fruits' });
    await note.waitFor({ timeout: 5_000 });
    await page.getByRole('button', { name: 'close replay' }).click();
    await scene.selectOption('tabletop/fruits');
    await waitScene('tabletop/fruits');
  });

  await test('a model error is said once; a failed trace row is red, not green', async () => {
    const file = scriptFile('fails', [
      { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'pick', arguments: { object_name: 'unicorn' } } }] },
    ]);
    await useScript(file);
    await sendMessage('pick the unicorn', { approval: 'auto' });
    await lastEnd().waitFor({ timeout: 30_000 });
    const turn = await page.locator('.turn').last().innerText();
    const lines = turn.split('\n').filter((l) => /error|script/i.test(l));
    const dup = lines.find((l, i) => lines.indexOf(l) !== i);
    assert(!dup, `said twice: ${dup}`);
    const row = page.locator('[data-testid="trace-row"].fail').last();
    await row.waitFor({ timeout: 5_000 });
    const bar = await row.evaluate((el) => getComputedStyle(el).borderLeftColor);
    const [r, g] = bar.match(/\d+/g).map(Number);
    assert(r > g + 60, `the failed row's bar is ${bar}`);
  });

  await test('Test connection says how to start Ollama (ollama serve) and does not repeat itself', async () => {
    await openTab('Agent');
    await page.selectOption('select[aria-label="Model provider"]', 'ollama');
    const name = page.locator('input[aria-label="Model name"]');
    if (await name.isVisible()) await name.fill('qwen3:8b');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const probe = page.locator('[data-testid="probe-result"]');
    await probe.waitFor({ timeout: 20_000 });
    const text = await probe.innerText();
    assert(/ollama serve/.test(text), `no "ollama serve" in: ${text}`);
    const sentences = text
      .split(/[.?!]\s+/)
      .map((s) => s.trim())
      .filter((s) => s.length > 12);
    const dup = sentences.find((s, i) => sentences.indexOf(s) !== i);
    assert(!dup, `repeated: ${dup}`);
    await page.selectOption('select[aria-label="Model provider"]', 'scripted');
  });

  await test('failed lines and primary buttons meet WCAG AA contrast (4.5:1)', async () => {
    const checks = [
      ['.msg.tool.fail', 'a failed tool line'],
      ['.trace-row.fail', 'a failed trace row'],
      ['button[type="submit"]', 'the Send button'],
      ['.estop-head', 'the emergency stop'],
    ];
    for (const [sel, what] of checks) {
      const el = page.locator(sel).first();
      assert((await el.count()) > 0, `no ${what} on the page`);
      const c = await contrastOf(el);
      assert(c >= 4.5, `${what}: contrast ${c.toFixed(2)}:1`);
    }
  });

  await test('the 3D view shows a focus ring when it has the keyboard focus', async () => {
    const canvas = page.locator('[data-testid="scene-canvas"]');
    await page.keyboard.press('Shift');
    await canvas.focus();
    const ring = await canvas.evaluate((el) => {
      const s = getComputedStyle(el);
      return { visible: el.matches(':focus-visible'), style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
    });
    assert(ring.visible && ring.style !== 'none' && ring.width >= 2, `outline ${ring.style} ${ring.width}px`);
    await page.locator('body').focus();
  });
}
