// skillbridge foxglove --scene S: a simulated world in wall time behind a live
// Foxglove WebSocket server, for Foxglove or Lichtblick to watch. With --script
// FILE it runs those tool calls once a viewer has connected, so the motions are
// seen as they happen (the same script format as `call --script`).
import type { ToolContext } from '../../../agents/tools/tool';
import { openSim } from '../../../robot/sim/open';
import { startFoxgloveLive } from '../../foxglove/live';
import { SimFeed, liveWorld, spacesFor } from '../../foxglove/sim-feed';
import { type Parsed, UsageError, intFlag, requireFlag, stringFlag } from '../args';
import { type Output, json } from '../output';
import { findTool, readScript } from './call';
import { isCall } from '../../../eval/audit/script';
import { envToken, foxgloveOrigins } from '../server-token';

export const FOXGLOVE_PORT = 8765;

export async function foxgloveCommand(p: Parsed, o: Output, opts: { untilSignal?: boolean } = {}): Promise<number> {
  const scene = requireFlag(p.flags, 'scene', 'the scene to watch, e.g. --scene tabletop/fruits');
  const port = intFlag(p.flags, 'port', FOXGLOVE_PORT);
  if (port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535, got ${port}`);
  const token = envToken('SKILLBRIDGE_FOXGLOVE_TOKEN');
  const origins = foxgloveOrigins();
  const scriptPath = stringFlag(p.flags, 'script');
  const steps = scriptPath ? await readScript(scriptPath) : [];
  const { robot, control } = await openSim(scene, { seed: intFlag(p.flags, 'seed', 1) });
  const set = stringFlag(p.flags, 'set');
  // Every call is checked before the world starts: bad input never half-runs a script.
  const plan = [];
  for (const [i, s] of steps.entries()) {
    if (!isCall(s)) throw new UsageError(`--script: step [${i}] is an event; foxglove runs tool calls only (use call --script for events)`);
    const { tool } = await findTool(robot, s.tool, set);
    const v = tool.parse(s.args);
    if (!v.ok) throw new UsageError(`call [${i}] ${v.message.replace(/\n/g, ' ')}`);
    plan.push({ tool, args: v.args });
  }
  control.pace(true);
  const ticker = setInterval(() => {
    control.tick(performance.now());
    control.wake();
  }, 1000 / 60);
  const feed = new SimFeed(control);
  let live;
  try {
    live = await startFoxgloveLive({
      port,
      worlds: [liveWorld(feed, robot, spacesFor([{ name: 'robot', feed }])[0]!)],
      ...(token ? { token } : {}),
      origins,
      log: (l) => o.err(`skillbridge: ${l}`),
    });
  } catch (e) {
    clearInterval(ticker);
    control.dispose();
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(`port ${port} is in use; choose another with --port N (0 picks a free one)`);
    throw e;
  }
  if (p.flags['json']) json(o, { url: live.url, token: live.token, scene, script: scriptPath ?? null });
  else
    o.out(
      `Foxglove live view of ${scene}: ${live.url}  (Foxglove: Open connection → Foxglove WebSocket, paste this URL with its token). Ctrl+C stops.`,
    );
  const stop = new Promise<void>((resolve) => {
    if (opts.untilSignal === false) return resolve();
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  if (plan.length) {
    const ctl = new AbortController();
    void stop.then(() => ctl.abort());
    const ctx: ToolContext = { robot, signal: ctl.signal, state: new Map() };
    if (!p.flags['json']) o.out('Waiting for a viewer to connect before running the script…');
    while (live.clients() === 0 && !ctl.signal.aborted) await new Promise((r) => setTimeout(r, 200));
    for (const c of plan) {
      if (ctl.signal.aborted) break;
      const r = await c.tool.run(c.args, ctx);
      if (!p.flags['json']) o.out(`${c.tool.name}: ${r.ok ? '✓' : '✗'} ${r.content.replace(/\n/g, ' ')}`);
    }
  }
  await stop;
  clearInterval(ticker);
  await live.close();
  control.dispose();
  return 0;
}
