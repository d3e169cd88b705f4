#!/usr/bin/env node
// Browser end-to-end tests against web mode (`skillbridge serve`) in Chromium
// with software WebGL, then the desktop app through Playwright's Electron driver
// where an Electron binary exists. The flows live in test/e2e/, one file per
// area, run one after another; each area's time is printed. With E2E_SHARDS=N
// they run in N parallel shards (test/e2e/shards.mjs), each with its own server
// and browser, balanced by the times below. Screenshots go to test-results/.
// Ends with "N passed, N failed[, N skipped]".
//
// Env: CHROMIUM (default: the first Chromium, Chrome or Edge found, see
// test/support/find-browser.mjs); SKILLBRIDGE_E2E_ALLOW_SKIP=1 counts a missing
// browser as skipped instead of failed; SKIP_BUILD=1 reuses renderer/dist;
// E2E_ONLY=area,area runs some areas only; E2E_SHARDS=N runs N shards in parallel
// (default 1: on a loaded 2-core machine two shards measured no faster, since
// Chromium's software WebGL keeps a core busy).
import {
  assert,
  browserPath,
  buildRenderer,
  fail,
  GL_ARGS,
  GL_ENV,
  GL_PLAN,
  log,
  skip,
  startServer,
  state,
  summary,
  test,
  usePage,
} from '../test/e2e/harness.mjs';
import { partition, runShards } from '../test/e2e/shards.mjs';
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
import { shownFlows } from '../test/e2e/shown.mjs';
import { pictureFlows } from '../test/e2e/pictures.mjs';
import { ownRobotFlows } from '../test/e2e/ownrobot.mjs';

/** The flows every host must pass: web mode here, the desktop app too (names prefixed by `tag`). */
const HOST_AREAS = [
  ['scenes', (tag) => sceneFlows(tag)],
  ['console', (tag) => consoleFlows(tag)],
  ['agent', (tag) => agentFlows(tag)],
];

/**
 * The areas in the order one shard runs them, with each one's seconds measured
 * alone on the 2-core CI machine (what the shards are balanced by; a new area
 * without a figure counts as 30 s). Those that drive the shared page (`state.page`)
 * come before those that open their own pages or servers (`ownPages`).
 */
const AREAS = [
  ...HOST_AREAS.map(([name, run]) => ({ name, run: () => run('') })),
  { name: 'hardening', run: ({ url }) => hardeningFlows({ url }) },
  { name: 'defects', run: () => defectFlows() },
  { name: 'teacher', run: () => teacherFlows() },
  { name: 'runs', run: () => runFlows() },
  { name: 'pictures', run: () => pictureFlows() },
  { name: 'evaluate', run: () => evaluateFlows() },
  { name: 'layout', ownPages: true, run: ({ browser, url }) => layoutFlows({ browser, url }) },
  { name: 'classroom', ownPages: true, run: ({ browser }) => classroomFlows({ browser }) },
  { name: 'models', ownPages: true, run: ({ browser }) => modelFlows({ browser }) },
  { name: 'glance', ownPages: true, run: ({ browser }) => glanceFlows({ browser }) },
  { name: 'robotstate', ownPages: true, run: ({ browser }) => robotStateFlows({ browser }) },
  { name: 'shown', ownPages: true, run: ({ browser, url }) => shownFlows({ browser, url }) },
  { name: 'ownrobot', ownPages: true, run: ({ browser }) => ownRobotFlows({ browser }) },
];
const SECS = {
  scenes: 37,
  console: 16,
  agent: 28,
  hardening: 44,
  defects: 44,
  teacher: 63,
  runs: 50,
  pictures: 30,
  evaluate: 12,
  layout: 50,
  classroom: 129,
  models: 11,
  glance: 108,
  robotstate: 10,
  shown: 150,
  ownrobot: 40,
};
/** The areas that drive the shared page: its console errors and WebGL context are checked after them. */
const PAGE_AREAS = ['hardening', 'defects', 'teacher', 'runs', 'pictures'];

const only = (process.env.E2E_ONLY ?? '').split(',').filter(Boolean);
const wants = (area) => only.length === 0 || only.includes(area);
const shardOf = process.env.E2E_SHARD; // "k/N" in a shard's own process
const shardCount = Math.max(1, Number(process.env.E2E_SHARDS ?? 1) || 1);
const t0 = Date.now();

log(`▶ browser end-to-end tests (web mode)${shardOf ? `, shard ${shardOf}` : ''}`);
const found = browserPath();
if (!found.path) {
  log(found.hint);
  if (process.env.SKILLBRIDGE_E2E_ALLOW_SKIP === '1') skip('browser end-to-end tests', 'no Chromium');
  else fail('Chromium is missing');
  summary();
}
log(`    browser: ${found.path}`);
const buildStart = Date.now();
if (!buildRenderer()) {
  fail('renderer build (vite build) failed');
  summary();
}
if (!shardOf) log(`    renderer build: ${((Date.now() - buildStart) / 1000).toFixed(1)} s`);

if (!shardOf && shardCount > 1) {
  const chosen = [...AREAS.map((a) => a.name), 'desktop']
    .filter(wants)
    .map((name) => ({ name, secs: SECS[name] ?? (name === 'desktop' ? 1 : 30) }));
  await runShards(partition(chosen, shardCount), { t0 });
}

/** Runs one area and prints its wall time (the shard runner collects these lines). */
async function area(name, fn) {
  const start = Date.now();
  await fn();
  log(`  area ${name} took ${((Date.now() - start) / 1000).toFixed(1)} s`);
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
log(`    software GL: ${GL_PLAN.backend} (${GL_PLAN.why})`);
const browser = await chromium.launch({ executablePath: found.path, headless: true, args: GL_ARGS, env: GL_ENV });
usePage(await browser.newPage({ viewport: { width: 1440, height: 860 } }));

// Getting in is checked once (by the first shard); the other shards only open the app.
const firstShard = !shardOf || shardOf.startsWith('1/');
await area('access', () => accessFlows({ browser, url, checks: firstShard }));
const shared = AREAS.filter((a) => !a.ownPages);
for (const a of shared) if (wants(a.name)) await area(a.name, () => a.run({ browser, url }));
if (PAGE_AREAS.some(wants))
  await test(`no console errors and no lost WebGL context through the ${PAGE_AREAS.filter(wants).join(', ')} flows`, async () => {
    assert(!(await state.page.evaluate(() => window.__skillbridge.contextLost)), 'WebGL context lost');
    assert(state.consoleErrors.length === 0, `console errors:\n    ${state.consoleErrors.slice(0, 5).join('\n    ')}`);
  });
// The shared page is done with: left open, its scene would go on drawing (about one core of
// software WebGL) beside the pages the remaining areas open, which would then draw slower.
await state.page.goto('about:blank');
for (const a of AREAS) if (a.ownPages && wants(a.name)) await area(a.name, () => a.run({ browser, url }));
await browser.close();
await server.stop();

if (wants('desktop'))
  await area('desktop', () =>
    desktopFlows(async (tag) => {
      for (const [, run] of HOST_AREAS) await run(tag);
    }),
  );
log(`  e2e wall time ${((Date.now() - t0) / 1000).toFixed(1)} s`);
summary();
