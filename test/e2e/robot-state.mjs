// The page driving a real robot (serve --robot): the robot's own e-stop and
// battery are drawn with their freshness. A stand-in HTTP robot answers
// robot.safety as the test sets it: current readings show as values, readings
// older than the robot's stated maximum age as "stale (N s old)", and missing
// ones as "unknown" — in the header, the battery readout, the side panel and
// the facts — never the last value as if it were current.
import { createServer } from 'node:http';
import { assert, openTab, shot, startServer, test, until } from './harness.mjs';

const INFO = {
  protocol: 'skillbridge-robot/1',
  relations: ['on', 'in'],
  info: {
    id: 'stand-in',
    name: 'Stand-in arm',
    kind: 'fixed_arm',
    description: 'an HTTP robot whose safety readings the test sets',
    capabilities: ['arm', 'perception'],
    scene: { id: 'stand-in/scene', title: 'Stand-in', notes: [], userInfo: [], toolSet: 'alrm' },
    arm: { reachM: 0.6, payloadKg: 0.25, gripperOpeningM: 0.08, postures: ['home'] },
    places: [],
    referencePositions: [],
    batteryThresholds: { low: 20, critical: 5 },
  },
};

async function standInRobot() {
  const robot = { safety: undefined };
  const server = createServer((req, res) => {
    req.resume();
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const send = (status, body) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/v1/info') return send(200, INFO);
    if (path === '/v1/query/robot.safety' && robot.safety) return send(200, { value: robot.safety });
    send(404, { error: { code: 'not_found', message: path } });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', () => r()));
  robot.url = `http://127.0.0.1:${server.address().port}`;
  robot.close = () => {
    server.closeAllConnections();
    return new Promise((r) => server.close(() => r()));
  };
  return robot;
}

export async function robotStateFlows({ browser }) {
  const robot = await standInRobot();
  robot.safety = { estop: { state: 'released', ageS: 0.2 }, battery: { percent: 63, ageS: 0.2 }, maxAgeS: 2 };
  const server = startServer(['--robot', robot.url], { SKILLBRIDGE_ROBOT_TOKEN: 'stand-in-token' });
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 860 } });
  try {
    const page = await ctx.newPage();
    await page.goto(await server.url);
    await page.waitForFunction(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 4, null, { timeout: 60_000 });
    const estop = page.getByTestId('robot-estop');
    const battery = page.getByTestId('robot-battery');
    const text = (l) => l.innerText().then((t) => t.replace(/\s+/g, ' ').trim());

    await test("a real robot's current e-stop and battery show as values, beside STOP", async () => {
      await until(async () => (await text(estop)) === 'robot e-stop released', 'the robot e-stop "released"', 20_000);
      assert((await battery.getAttribute('role')) === 'meter', 'the current battery is not drawn as a meter');
      assert((await battery.getAttribute('aria-valuenow')) === '63', `battery ${await battery.getAttribute('aria-valuenow')}`);
      assert((await page.getByRole('meter', { name: 'Battery', exact: true }).count()) === 0, "the simulator's battery is still shown");
      assert((await page.getByTestId('robot-state-note').count()) === 0, 'a note about stale readings while they are current');
    });

    await test('readings older than the robot allows show as "stale (N s old)", not as current values', async () => {
      robot.safety = { estop: { state: 'released', ageS: 12.4 }, battery: { percent: 63, ageS: 12.4 }, maxAgeS: 2 };
      await until(async () => /^robot e-stop stale \(12\.\d s old\)$/.test(await text(estop)), 'the e-stop drawn stale', 15_000);
      assert(/^battery stale \(12\.\d s old\)$/.test(await text(battery)), `battery reads "${await text(battery)}"`);
      assert((await battery.getAttribute('role')) === 'status', 'a stale battery is still drawn as a meter');
      assert((await battery.locator('.battery-fill').evaluate((e) => e.style.width)) === '0%', 'a stale battery is still filled in');
      // Drawn unlike a current value: a dashed amber frame, not the green of "released".
      const look = await estop.evaluate((e) => ({
        border: getComputedStyle(e).borderTopStyle,
        colour: getComputedStyle(e.querySelector('.reading-value')).color,
      }));
      assert(look.border === 'dashed', `the stale e-stop's border is ${look.border}`);
      assert(look.colour !== 'rgb(63, 185, 80)', 'the stale e-stop is drawn in the green of a current "released"');
      const note = page.getByTestId('robot-state-note');
      assert(/e-stop stale .* and battery stale .*no motion is sent/.test(await text(note)), `side panel: "${await text(note)}"`);
      await openTab('World', page);
      const facts = page.getByTestId('facts-robot-estop');
      assert(/^stale \(12\.\d s old\)$/.test(await text(facts)), `facts: "${await text(facts)}"`);
      await page.screenshot({ path: shot('e2e-robot-stale.png') });
    });

    await test('a robot that cannot say its e-stop state shows "unknown"', async () => {
      robot.safety = undefined;
      await until(async () => (await text(estop)) === 'robot e-stop unknown', 'the e-stop drawn unknown', 15_000);
      assert((await text(page.getByTestId('facts-robot-estop'))) === 'unknown', 'facts panel');
      const title = await estop.getAttribute('title');
      assert(/robot\.safety/.test(title ?? ''), `the hover text says why: ${title}`);
      assert(/e-stop unknown/.test(await text(page.getByTestId('robot-state-note'))), 'side panel note');
    });
  } finally {
    await ctx.close();
    await server.stop();
    await robot.close();
  }
}
