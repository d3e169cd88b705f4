// skillbridge mcp: the robots' tools for any MCP client, over stdio (the default:
// the client starts this command) or Streamable HTTP on 127.0.0.1 (--http PORT).
// On stdio, stdout carries only the protocol: every word for people goes to stderr.
import path from 'node:path';
import { traceVersions } from '../../../agents/runtime/trace';
import type { ServerToken } from '../../../base/server-token';
import { type FoxgloveLive, startFoxgloveLive } from '../../foxglove/live';
import { SimFeed, liveWorld, spacesFor } from '../../foxglove/sim-feed';
import { APPROVE_MODES } from '../../mcp/approval';
import { type Fleet, McpSetupError, type RobotSpec, openFleet, robotsFromFile, robotsFromSceneFlag } from '../../mcp/fleet';
import { DEFAULT_MAX_SESSIONS, startMcpHttp } from '../../mcp/http';
import { createMcpServer } from '../../mcp/server';
import { guardedStdio } from '../../mcp/stdio';
import { McpTraceLog } from '../../mcp/trace-log';
import { type Parsed, UsageError, intFlag, stringFlag } from '../args';
import { type Output, json } from '../output';
import { robotChoice } from '../robot-flag';
import { envToken, foxgloveOrigins } from '../server-token';

async function robotSpecs(p: Parsed): Promise<RobotSpec[]> {
  const scene = stringFlag(p.flags, 'scene');
  const file = stringFlag(p.flags, 'robots');
  if (scene && file) throw new UsageError('give either --scene or --robots FILE, not both');
  const set = stringFlag(p.flags, 'set');
  if (stringFlag(p.flags, 'robot')) {
    // A real robot (robot HTTP API or rosbridge), with --scene only for --shadow.
    if (file) throw new UsageError('give either --robot URL or --robots FILE, not both (a file may name http and rosbridge sources)');
    const choice = robotChoice(p);
    return [{ name: 'robot', source: choice.form, ...(set ? { set } : {}), ...(choice.acceptNoEstop ? { acceptNoEstop: true } : {}) }];
  }
  if (file) {
    if (set) throw new UsageError('--set applies to --scene; with --robots FILE give each robot its "set" in the file');
    return robotsFromFile(file);
  }
  if (!scene)
    throw new UsageError('name the robots: --scene S (one robot), --scene arm=tabletop/fruits,rover=farm (several) or --robots FILE');
  return robotsFromSceneFlag(scene, { seed: intFlag(p.flags, 'seed', 1), ...(set ? { set } : {}) });
}

/** Steps simulated robots in wall time, so a client (or a Foxglove view) sees motions take as long as they would. */
function pace(fleet: Fleet): () => void {
  const sims = fleet.robots.flatMap((r) => (r.sim ? [r.sim] : []));
  for (const s of sims) s.pace(true);
  const timer = setInterval(() => {
    const now = performance.now();
    for (const s of sims) {
      s.tick(now);
      s.wake();
    }
  }, 1000 / 60);
  return () => {
    clearInterval(timer);
    for (const s of sims) s.pace(false);
  };
}

/** The live Foxglove view of every simulated robot, side by side. */
async function startLive(
  fleet: Fleet,
  port: number,
  log: (l: string) => void,
  access: { token: ServerToken | undefined; origins: string[] },
): Promise<FoxgloveLive> {
  if (port < 0 || port > 65535) throw new UsageError(`--foxglove must be a port 0-65535, got ${port}`);
  const feeds = fleet.robots.flatMap((r) => (r.sim ? [{ name: r.name, feed: new SimFeed(r.sim), robot: r.robot }] : []));
  if (!feeds.length) throw new UsageError('--foxglove shows simulated robots, and none of these robots is simulated');
  const spaces = spacesFor(feeds);
  try {
    return await startFoxgloveLive({
      port,
      worlds: feeds.map((f, i) => liveWorld(f.feed, f.robot, spaces[i]!)),
      ...(access.token ? { token: access.token } : {}),
      origins: access.origins,
      log,
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(`port ${port} is in use; choose another with --foxglove N (0 picks a free one)`);
    throw e;
  }
}

export async function mcpCommand(p: Parsed, o: Output, opts: { untilSignal?: boolean } = {}): Promise<number> {
  const approve = stringFlag(p.flags, 'approve') ?? 'ask';
  if (!(APPROVE_MODES as readonly string[]).includes(approve))
    throw new UsageError(`--approve must be one of ${APPROVE_MODES.join(', ')}, got "${approve}"`);
  const httpFlag = stringFlag(p.flags, 'http');
  const httpPort = httpFlag === undefined ? undefined : intFlag(p.flags, 'http', 0);
  if (httpPort !== undefined && (httpPort < 0 || httpPort > 65535)) throw new UsageError(`--http must be a port 0-65535, got ${httpPort}`);
  // Checked before anything opens: a bad token or cap is one line, not a half-started server.
  const token = httpPort === undefined ? undefined : envToken('SKILLBRIDGE_MCP_TOKEN');
  const maxSessions = intFlag(p.flags, 'max-sessions', DEFAULT_MAX_SESSIONS, { min: 1, max: 10_000 });
  const liveAccess =
    stringFlag(p.flags, 'foxglove') === undefined
      ? { token: undefined, origins: [] }
      : { token: envToken('SKILLBRIDGE_FOXGLOVE_TOKEN'), origins: foxgloveOrigins() };
  const log = (line: string) => o.err(`skillbridge mcp: ${line}`);
  let specs: RobotSpec[];
  let fleet: Fleet;
  try {
    specs = await robotSpecs(p);
    fleet = await openFleet(specs, { readOnly: Boolean(p.flags['read-only']) });
  } catch (e) {
    if (e instanceof McpSetupError) throw new UsageError(e.message);
    throw e;
  }
  const traceDir = stringFlag(p.flags, 'trace');
  const seeds = new Map(specs.map((s) => [s.name, { seed: s.source.kind === 'sim' ? (s.source.seed ?? 1) : null }]));
  const trace = traceDir ? new McpTraceLog(path.resolve(traceDir), fleet, seeds) : undefined;
  // Foxglove watches in wall time, so a live view paces the worlds.
  const foxglove = stringFlag(p.flags, 'foxglove') === undefined ? undefined : intFlag(p.flags, 'foxglove', 0);
  const unpace = p.flags['paced'] || foxglove !== undefined ? pace(fleet) : () => undefined;
  let live: FoxgloveLive | undefined;
  if (foxglove !== undefined) {
    try {
      live = await startLive(fleet, foxglove, log, liveAccess);
    } catch (e) {
      unpace();
      trace?.close();
      await fleet.close();
      throw e;
    }
  }
  const make = () =>
    createMcpServer({
      fleet,
      approve: approve as (typeof APPROVE_MODES)[number],
      version: traceVersions().skillbridge,
      ...(trace ? { trace } : {}),
    });
  const shutdown = async () => {
    await live?.close();
    unpace();
    trace?.close();
    await fleet.close();
  };
  const summary = `${fleet.robots.map((r) => `${r.name} (${r.robot.info.scene.id}, ${r.tools.length} tools)`).join(', ')}; approve ${approve}${fleet.readOnly ? ', read-only' : ''}`;

  if (httpPort === undefined) {
    const { transport, closed } = guardedStdio(log);
    const server = make();
    await server.connect(transport);
    log(
      `serving ${summary} on stdio${trace ? `; traces: ${trace.paths.join(', ')}` : ''}${live ? `; Foxglove live view: ${live.url}` : ''}`,
    );
    await closed;
    await server.close();
    await shutdown();
    return 0;
  }

  let http;
  try {
    http = await startMcpHttp({
      port: httpPort,
      makeServer: make,
      maxSessions,
      ...(token ? { token } : {}),
      ...(p.flags['verbose'] ? { log } : {}),
    });
  } catch (e) {
    await shutdown();
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(`port ${httpPort} is in use; choose another with --http N (0 picks a free one)`);
    throw e;
  }
  if (p.flags['json'])
    json(o, {
      url: http.url,
      token: http.token,
      robots: fleet.robots.map((r) => r.name),
      approve,
      readOnly: fleet.readOnly,
      foxglove: live?.url ?? null,
    });
  else {
    o.out(`Skillbridge MCP server: ${http.url}  (${summary})${live ? `; Foxglove live view: ${live.url}` : ''}. Ctrl+C stops.`);
    o.out(`token: ${http.token}   (clients send "Authorization: Bearer ${http.token}"; export SKILLBRIDGE_MCP_TOKEN to choose it)`);
  }
  if (opts.untilSignal === false) return 0;
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await http.close();
  await shutdown();
  return 0;
}
