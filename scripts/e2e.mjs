#!/usr/bin/env node
// Browser end-to-end tests against web mode (`skillbridge serve`) in Chromium
// with software WebGL, then the desktop app through Playwright's Electron driver
// where an Electron binary exists. The flows live in test/e2e/, one file per
// area; this runner starts what they share and runs them in order. Screenshots
// go to test-results/. Ends with "N passed, N failed[, N skipped]".
//
// Env: CHROMIUM (default: the first Chromium, Chrome or Edge found, see
// test/support/find-browser.mjs); SKILLBRIDGE_E2E_ALLOW_SKIP=1 counts a missing
// browser as skipped instead of failed; SKIP_BUILD=1 reuses renderer/dist;
// E2E_ONLY=area,area runs some areas only (access is always run).
import {
  assert,
  browserPath,
  buildRenderer,
  fail,
  GL_ARGS,
  log,
  skip,
  startServer,
  state,
  summary,
  test,
  usePage,
} from '../test/e2e/harness.mjs';
import { accessFlows } from '../test/e2e/access.mjs';
import { agentFlows } from '../test/e2e/agent.mjs';
import { consoleFlows } from '../test/e2e/console.mjs';
import { desktopFlows } from '../test/e2e/desktop.mjs';
import { classroomFlows } from '../test/e2e/classroom.mjs';
import { defectFlows } from '../test/e2e/defects.mjs';
import { hardeningFlows } from '../test/e2e/hardening.mjs';
import { layoutFlows } from '../test/e2e/layout.mjs';
import { runFlows } from '../test/e2e/runs.mjs';
import { evaluateFlows } from '../test/e2e/evaluate.mjs';
import { teacherFlows } from '../test/e2e/teacher.mjs';
import { sceneFlows } from '../test/e2e/scenes.mjs';
import { modelFlows } from '../test/e2e/models.mjs';
import { glanceFlows } from '../test/e2e/glance.mjs';
import { robotStateFlows } from '../test/e2e/robot-state.mjs';

const only = (process.env.E2E_ONLY ?? '').split(',').filter(Boolean);
const wants = (area) => only.length === 0 || only.includes(area);

log('▶ browser end-to-end tests (web mode)');
const found = browserPath();
if (!found.path) {
  log(found.hint);
  if (process.env.SKILLBRIDGE_E2E_ALLOW_SKIP === '1') skip('browser end-to-end tests', 'no Chromium');
  else fail('Chromium is missing');
  summary();
}
log(`    browser: ${found.path}`);
if (!buildRenderer()) {
  fail('renderer build (vite build) failed');
  summary();
}

const { chromium } = await import('playwright-core');
const server = startServer();
let url;
try {
  url = await server.url;
} catch (e) {
  fail(`server start: ${e.message}`);
  summary();
}
const browser = await chromium.launch({ executablePath: found.path, headless: true, args: GL_ARGS });
usePage(await browser.newPage({ viewport: { width: 1440, height: 860 } }));

/** The flows every host must pass: web mode here, the desktop app below (names prefixed by `tag`). */
async function flows(tag) {
  if (wants('scenes')) await sceneFlows(tag);
  if (wants('console')) await consoleFlows(tag);
  if (wants('agent')) await agentFlows(tag);
}

await accessFlows({ browser, url });
await flows('');
// Issue 15: web mode cannot be broken (1), the defects found (2), the teacher's controls (3).
if (wants('hardening')) await hardeningFlows({ url });
if (wants('defects')) await defectFlows();
if (wants('teacher')) await teacherFlows();
if (wants('runs')) await runFlows();
if (wants('evaluate')) await evaluateFlows();
if (wants('layout')) await layoutFlows({ browser, url });
if (wants('classroom')) await classroomFlows({ browser });
if (wants('models')) await modelFlows({ browser });
if (wants('glance')) await glanceFlows({ browser });
if (wants('robotstate')) await robotStateFlows({ browser });
if (['hardening', 'defects', 'teacher', 'runs'].some(wants))
  await test('no console errors and no lost WebGL context through the issue-15 flows', async () => {
    assert(!(await state.page.evaluate(() => window.__skillbridge.contextLost)), 'WebGL context lost');
    assert(state.consoleErrors.length === 0, `console errors:\n    ${state.consoleErrors.slice(0, 5).join('\n    ')}`);
  });
await browser.close();
await server.stop();

if (wants('desktop')) await desktopFlows(flows);
summary();
