// skillbridge serve: the app in a browser. The simulation runs in a worker
// thread paced to wall time; the built renderer and the AppApi socket are served
// on 127.0.0.1, and the URL with the access token is printed once.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rendererBuildState } from '../../../base/renderer-build.mjs';
import { isBuiltinScene } from '../../../scenes/registry';
import type { RealRobotForm } from '../../service/app-service';
import { prebuiltWorker } from '../../service/worker-bundle';
import { startWorkerSession } from '../../service/worker-session';
import { realRobot } from '../robot-flag';
import { startWebServer } from '../../web/server';
import { sessionFolders } from '../../web/session-files';
import { DEFAULT_MAX_SESSIONS, type HostedSession } from '../../web/sessions';
import { type Parsed, UsageError, intFlag, stringFlag } from '../args';
import type { Output } from '../output';
import { envToken } from '../server-token';

export const DEFAULT_PORT = 4317;

export function rendererDir(): string {
  return fileURLToPath(new URL('../../../renderer/dist/', import.meta.url));
}

export async function serveCommand(p: Parsed, o: Output, opts: { untilSignal?: boolean } = {}): Promise<number> {
  const port = intFlag(p.flags, 'port', DEFAULT_PORT);
  if (port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535, got ${port}`);
  const host = stringFlag(p.flags, 'host');
  if (host && host !== '127.0.0.1' && host !== 'localhost') {
    throw new UsageError('--host: web mode listens on 127.0.0.1 only (the robot API must not be reachable from the network)');
  }
  // A fixed token (from the environment, never the command line where others can read it) keeps the
  // links a class was given valid across a restart; pages reconnect by themselves.
  const fixedToken = envToken('SKILLBRIDGE_WEB_TOKEN');
  const scene = stringFlag(p.flags, 'scene') ?? 'tabletop/fruits';
  if (!isBuiltinScene(scene)) throw new UsageError(`--scene: "${scene}" is not a built-in scene (see "skillbridge scenes")`);
  // --robot: agent runs act on a real robot; the scene is its shadow (the view shows each prediction).
  const robot: RealRobotForm | undefined = stringFlag(p.flags, 'robot') ? realRobot(p) : undefined;
  // --urdf FILE: the described robot in every page's scene in place of its own, checked here once.
  const urdfFlag = stringFlag(p.flags, 'urdf');
  const urdf = urdfFlag !== undefined ? await import('../urdf-flag') : undefined;
  if (urdf && urdfFlag === urdf.FROM_ROBOT)
    throw new UsageError(
      "--urdf rosbridge: serve takes a description file; read the robot's own with robots check rosbridge, or use call/run --urdf rosbridge",
    );
  const described = urdf?.urdfRobotForScenes(p.flags);
  if (urdf && described) o.err(`skillbridge: ${urdf.describeLoaded(described)}`);
  const staticDir = rendererDir();
  // Agent runs trace to ./traces; API keys (OPENAI_API_KEY, SKILLBRIDGE_API_KEY) come from
  // this process's environment, read in the worker, and never go to the browser.
  const traceDir = path.resolve('traces');
  const maxSessions = intFlag(p.flags, 'max-sessions', DEFAULT_MAX_SESSIONS);
  if (maxSessions < 1 || maxSessions > 64) throw new UsageError(`--max-sessions must be 1-64, got ${maxSessions}`);
  const seed = intFlag(p.flags, 'seed', 1);
  // A page may have SKILLBRIDGE_API_KEY sent only to these base URLs (besides SKILLBRIDGE_API_BASE_URL and the presets).
  const allowKeyFor = (stringFlag(p.flags, 'allow-key-for') ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  for (const u of allowKeyFor)
    if (!/^https?:\/\/[^\s/]+/.test(u)) throw new UsageError(`--allow-key-for: "${u}" is not an http(s) base URL`);
  const classroom = Boolean(p.flags['classroom']);
  const exercisesFlag = stringFlag(p.flags, 'exercises');
  const exercisesDir = exercisesFlag ? path.resolve(exercisesFlag) : undefined;
  if (exercisesDir && !existsSync(exercisesDir)) throw new UsageError(`--exercises: no folder ${exercisesDir}`);
  const scriptsFlag = stringFlag(p.flags, 'scripts');
  const scriptsDir = scriptsFlag ? path.resolve(scriptsFlag) : undefined;
  if (scriptsDir && !existsSync(scriptsDir)) throw new UsageError(`--scripts: no folder ${scriptsDir}`);
  // Each tab gets its own session: a worker that boots and loads the scene while
  // the page loads (the page's first request waits for the scene). The first one
  // starts now, so the first tab finds it warm.
  const workerUrl = prebuiltWorker();
  let closing = false;
  const open = async (): Promise<HostedSession> => {
    // Each session (a group's tab) keeps its traces and evaluation results in folders of its own.
    const own = sessionFolders(traceDir, path.resolve('eval-results'));
    const s = await startWorkerSession({
      ...(workerUrl ? { workerUrl } : {}),
      paced: true,
      background: true,
      seed,
      traceDir: own.traceDir,
      evalDir: own.evalDir,
      allowKeyFor,
      ...(robot ? { robot } : {}),
      ...(described ? { urdf: described } : {}),
      scriptFiles: scriptsDir ? { dir: scriptsDir } : 'none',
      ...(exercisesDir ? { exercisesDir } : {}),
      ...(p.flags['allow-model-pull'] ? { manageModels: true } : {}),
      onLog: (l) => o.err(`skillbridge: ${l}`),
    });
    // A session closed while its scene loads (serve refused to start) fails that load: not news, and not a second line.
    s.loadScene({ id: scene }).catch((e: unknown) => {
      if (!closing) o.err(`skillbridge: the scene ${scene} did not load: ${(e as Error).message}`);
    });
    return s;
  };
  let warm: Promise<HostedSession> | undefined = open();
  const openSession = (): Promise<HostedSession> => {
    const w = warm;
    warm = undefined;
    return w ?? open();
  };
  let server;
  try {
    server = await startWebServer({
      ...(fixedToken ? { token: fixedToken } : {}),
      openSession,
      maxSessions,
      staticDir,
      port,
      classroom,
      log: p.flags['verbose'] ? (l) => o.err(`skillbridge: ${l}`) : undefined,
    });
  } catch (e) {
    closing = true;
    if (warm !== undefined) await (await warm).dispose();
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(`port ${port} is in use; choose another with --port N (0 picks a free one)`);
    throw e;
  }
  // Said once serving: bad input before it is one line alone.
  const build = rendererBuildState(path.resolve(staticDir, '../..'));
  if (build.state === 'missing') o.err('skillbridge: the renderer is not built yet; run "npm run build:renderer" (the page says so too)');
  else if (build.state === 'stale')
    o.err(
      `skillbridge: the renderer build is older than its sources (${build.newer} changed since); run "npm run build:renderer" to serve today's code`,
    );
  if (server.teacherUrl) {
    o.out(`Skillbridge classroom mode (up to ${maxSessions} sessions).`);
    o.out(`Groups:  ${server.url}`);
    o.out(`Teacher: ${server.teacherUrl}`);
    o.out(
      'Each group opens the groups link in its own tab and gets its own world; the teacher link also shows every group read-only. Ctrl+C stops.',
    );
  } else {
    o.out(`Skillbridge web mode: ${server.url}`);
    if (robot) o.out(`Agent runs act on the robot at ${robot.url}; ${scene} runs beside it as its shadow.`);
    o.out('Open that URL in a browser (the token in it is required). Ctrl+C stops.');
  }
  if (opts.untilSignal === false) return 0;
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  if (warm !== undefined) await (await warm).dispose();
  return 0;
}
