// Classroom mode end to end: `serve --classroom --exercises DIR`, two groups in
// their own tabs, task cards checked ✓ / ✗ with what is missing, a card added
// from the browser, and the teacher's read-only overview of every group.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  assert,
  lastEnd,
  openTab,
  pickScript,
  sendMessage,
  shot,
  startServer,
  test,
  until,
  useScript,
  waitScene,
  workDir,
} from './harness.mjs';

const TEACHER_CARD = {
  id: 'teacher-peach-trash',
  scene: 'tabletop/fruits',
  title: 'Peach in the trash',
  task: 'Throw the peach away.',
  goal: { fact: 'in(peach_1, trash_1)' },
};

async function callTool(page, tool, args) {
  await page.getByRole('option', { name: tool, exact: true }).click();
  for (const [k, v] of Object.entries(args)) await page.fill(`#arg-${k}`, v);
  // allInnerTexts does not wait for a result to appear (innerText would, for its whole timeout).
  const result = () =>
    page
      .locator('[data-testid="tool-result"]')
      .allInnerTexts()
      .then((t) => t.join('\n'));
  const before = await result();
  await page.getByRole('button', { name: `Call ${tool}` }).click();
  await until(
    async () => {
      const t = await result();
      return t && t !== before && !/running/i.test(t);
    },
    `${tool} to answer`,
    30_000,
  );
}

/** Says to the page that its tab went behind another (or came to the front), as a browser does. */
function setHidden(page, hidden) {
  return page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

export async function classroomFlows({ browser }) {
  const dir = workDir('cards');
  writeFileSync(path.join(dir, 'peach.json'), JSON.stringify(TEACHER_CARD));
  const server = startServer(['--classroom', '--exercises', dir]);
  const contexts = [];
  const open = async (url, viewport = { width: 1440, height: 860 }) => {
    const ctx = await browser.newContext({ viewport });
    contexts.push(ctx);
    const page = await ctx.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 4, null, { timeout: 30_000 });
    return page;
  };
  try {
    const [groupsUrl, teacherUrl] = await server.urls;
    assert(groupsUrl && teacherUrl && groupsUrl !== teacherUrl, 'serve --classroom did not print two links');
    const a = await open(groupsUrl);
    const b = await open(groupsUrl);

    await test('classroom: a group names itself and has no class overview', async () => {
      for (const [page, name] of [
        [a, 'Team Lemon'],
        [b, 'Team Boxes'],
      ]) {
        await page.fill('input[aria-label="Group name"]', name);
        await page.keyboard.press('Enter');
        assert((await page.getByRole('tab', { name: 'Class' }).count()) === 0, 'a group sees the Class tab');
      }
      await b.selectOption('select[aria-label="Scene"]', 'tabletop/boxes');
      await waitScene('tabletop/boxes', b);
    });
    // Team Boxes waits in a tab behind Team Lemon's (as on a laptop two groups share) until the
    // teacher's tests: a tab in front of nobody would go on drawing its scene beside Team Lemon's.
    await setHidden(b, true);

    await test('a task card written as JSON is added from the browser; a bad one is refused naming the field', async () => {
      const good = path.join(dir, 'upload.json');
      writeFileSync(
        good,
        JSON.stringify({ ...TEACHER_CARD, id: 'uploaded-plum', title: 'Plum in the bowl', goal: { fact: 'in(plum_1, bowl_1)' } }),
      );
      await a.selectOption('select[aria-label="Scene"]', 'tabletop/fruits');
      await waitScene('tabletop/fruits', a);
      await openTab('Tasks', a);
      await a.setInputFiles('input[aria-label="Add a task card"]', good);
      await a.getByRole('button', { name: /Plum in the bowl/ }).waitFor({ timeout: 5_000 });
      const bad = path.join(dir, 'bad.json');
      writeFileSync(bad, JSON.stringify({ id: 'x', scene: 'tabletop/fruits', task: 'no title', goal: { fact: 'holding(x)' } }));
      await a.setInputFiles('input[aria-label="Add a task card"]', bad);
      const alert = a.locator('section.exercises [role="alert"]');
      await alert.waitFor({ timeout: 5_000 });
      assert(/title/.test(await alert.innerText()), `the refusal says: ${await alert.innerText()}`);
    });

    await test("task cards: ✗ with what is missing, then ✓ once the lemon is in the bowl; the teacher's card is listed", async () => {
      await a.selectOption('select[aria-label="Scene"]', 'tabletop/fruits');
      await waitScene('tabletop/fruits', a);
      await openTab('Tasks', a);
      await a.getByRole('button', { name: /Peach in the trash/ }).waitFor({ timeout: 5_000 });
      await a.getByRole('button', { name: /Lemon in the bowl/ }).click();
      const verdict = a.locator('[data-testid="exercise-verdict"]');
      await verdict.waitFor({ timeout: 10_000 });
      assert(/✗ Not yet/.test(await verdict.innerText()), `before: ${await verdict.innerText()}`);
      const missing = await a
        .locator('[data-testid="goal-check"][data-ok="false"], [data-testid="exercise-check"][data-ok="false"]')
        .allInnerTexts();
      assert(
        missing.some((m) => /lemon_1/.test(m) && /bowl_1/.test(m)),
        `what is missing: ${missing.join(' | ')}`,
      );
      await callTool(a, 'pick', { object_name: 'lemon' });
      await callTool(a, 'place', { target: 'bowl' });
      await a.getByRole('button', { name: 'Check now' }).click();
      await until(async () => /✓ Done/.test(await verdict.innerText()), 'the card to pass', 10_000);
    });

    await test("classroom: a group's agent run with an uploaded script; the group sees its trace's file name, not the server's path", async () => {
      await useScript(pickScript('class-run', 'peach'), a);
      await sendMessage('pick the peach for the class', { approval: 'auto' }, a);
      await lastEnd(a).waitFor({ timeout: 30_000 });
      const file = await a.locator('[data-testid="trace-panel"]').innerText();
      assert(
        /file: [\w-]+\.jsonl/.test(file) && !/file: .*[\\/]/.test(file),
        `the trace panel shows: ${file.split('\n').find((l) => /file:/.test(l))}`,
      );
    });

    await setHidden(b, false);
    const teacher = await open(teacherUrl);
    await test("classroom: the teacher's overview shows every group's scene, last run and task score", async () => {
      await openTab('Class', teacher);
      const rows = teacher.locator('[data-testid="class-row"]');
      await until(async () => (await rows.count()) >= 2, 'two groups in the overview');
      const lemon = rows.filter({ hasText: 'Team Lemon' });
      await until(async () => /pick the peach for the class/.test(await lemon.innerText()), 'the last run in the overview');
      const text = await lemon.innerText();
      assert(/tabletop\/fruits/.test(text) && /✓ Lemon in the bowl/.test(text), `Team Lemon's row: ${text}`);
      assert(/tabletop\/boxes/.test(await rows.filter({ hasText: 'Team Boxes' }).innerText()), "Team Boxes' scene is not shown");
      await teacher.screenshot({ path: shot('e2e-class-overview.png') });
    });

    await test("classroom: the teacher watches a group read-only and goes back to the teacher's own session", async () => {
      await teacher.locator('[data-testid="class-row"]').filter({ hasText: 'Team Boxes' }).getByRole('button', { name: 'Watch' }).click();
      // Named as the group named itself, not by the session's id ("s3").
      await teacher.getByText(/Watching Team Boxes read-only/).waitFor({ timeout: 10_000 });
      // The tool console is off with a plain message (no raw developer error).
      await teacher.locator('[data-testid="console-watching"]').waitFor({ timeout: 5_000 });
      assert(
        /watching Team Boxes/.test(await teacher.locator('[data-testid="console-watching"]').innerText()),
        'the console note does not name the group',
      );
      assert(await teacher.getByRole('button', { name: /^Call / }).isDisabled(), 'the tool console can call tools on the watched group');
      await waitScene('tabletop/boxes', teacher);
      assert(await teacher.locator('select[aria-label="Scene"]').isDisabled(), 'the scene can be changed while watching');
      // The stop always wins: the teacher's STOP presses the watched group's e-stop, and the teacher releases it.
      const stop = teacher.getByRole('button', { name: 'Emergency stop (Esc)' });
      assert(!(await stop.isDisabled()), 'STOP is greyed out while the teacher watches a group');
      await stop.click();
      await b.locator('.estop-head.pressed').waitFor({ timeout: 10_000 });
      await teacher.locator('.estop-head.pressed').getByRole('button', { name: 'Release' }).click();
      await b.getByRole('button', { name: 'Emergency stop (Esc)' }).waitFor({ timeout: 10_000 });
      await teacher.getByRole('button', { name: 'back to my session', exact: true }).click();
      await teacher.getByText(/Watching Team Boxes/).waitFor({ state: 'detached', timeout: 10_000 });
    });

    await test('classroom: the teacher stops one group (its run ends, its trace names the teacher), then all groups, and releases them', async () => {
      await useScript(pickScript('class-stop', 'lemon'), a);
      await sendMessage('pick the lemon, wait for approval', { approval: 'ask' }, a);
      await a.getByRole('button', { name: 'Approve' }).first().waitFor({ timeout: 15_000 });
      await openTab('Class', teacher);
      const rows = teacher.locator('[data-testid="class-row"]');
      await rows.filter({ hasText: 'Team Lemon' }).getByRole('button', { name: 'Stop Team Lemon' }).click();
      await a.locator('.estop-head.pressed').waitFor({ timeout: 10_000 });
      assert((await b.locator('.estop-head.pressed').count()) === 0, 'stopping Team Lemon stopped Team Boxes too');
      await lastEnd(a).waitFor({ timeout: 15_000 });
      const said = await a.locator('.turn').last().locator('.msg.stop').allInnerTexts();
      assert(
        said.some((t) => /by the teacher/.test(t)),
        `the run's stop record: ${said.join(' | ') || 'none'}`,
      );
      await teacher.getByRole('button', { name: /Stop all groups/ }).click();
      await b.locator('.estop-head.pressed').waitFor({ timeout: 10_000 });
      await until(async () => (await teacher.locator('[data-testid="class-estop"]').count()) >= 2, 'both groups shown stopped');
      await teacher.screenshot({ path: shot('e2e-class-stop-all.png') });
      await teacher.getByRole('button', { name: 'Release all' }).click();
      for (const p of [a, b]) await p.getByRole('button', { name: 'Emergency stop (Esc)' }).waitFor({ timeout: 10_000 });
    });
  } finally {
    for (const c of contexts) await c.close();
    await server.stop();
  }
}
