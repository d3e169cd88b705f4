// skillbridge robot-api: a scene's simulated robot served over the robot HTTP
// API (hosts/robot-api) until Ctrl-C. The world runs in wall time (a real robot
// takes real time; --speed X runs it faster, --fast unpaced), so long skills are
// jobs a client can watch and cancel.
import { SafetyChain } from '../../../agents/runtime/safety';
import { findToolSet } from '../../../agents/tools/sets';
import type { Robot } from '../../../robot/robot';
import { interceptSkills } from '../../../robot/skills';
import { openRobot } from '../../../robot/sources';
import { RobotSourceError } from '../../../robot/source';
import { startRobotApi } from '../../robot-api/server';
import { type Parsed, UsageError, intFlag, numberFlag, requireFlag } from '../args';
import type { Output } from '../output';
import { envToken } from '../server-token';

/** The maximum age of a reading an unpaced (--fast) simulator states, seconds. */
const FAST_MAX_AGE_S = 10;

export async function robotApiCommand(p: Parsed, o: Output, opts: { untilSignal?: boolean } = {}): Promise<number> {
  const scene = requireFlag(p.flags, 'scene', 'the scene whose robot to serve, e.g. --scene tabletop/fruits');
  const port = intFlag(p.flags, 'port', 0);
  if (port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535, got ${port}`);
  const speed = numberFlag(p.flags, 'speed', 1);
  if (speed <= 0 || speed > 1000) throw new UsageError(`--speed must be above 0 and at most 1000, got ${speed}`);
  const asJson = Boolean(p.flags['json']);
  const token = envToken('SKILLBRIDGE_ROBOT_TOKEN');
  let opened;
  try {
    opened = await openRobot({ kind: 'sim', scene, seed: intFlag(p.flags, 'seed', 1) });
  } catch (e) {
    if (e instanceof RobotSourceError) throw new UsageError(`--scene: ${e.message}`);
    throw e;
  }
  const { sim } = opened;
  let robot: Robot = opened.robot;
  let ticker: ReturnType<typeof setInterval> | undefined;
  if (!p.flags['fast']) {
    sim.pace(true);
    sim.setSpeed(speed);
    ticker = setInterval(() => sim.tick(performance.now()), 1000 / 60);
  } else {
    // Unpaced, a skill's physics runs between this server's answers: a safety answer can wait
    // longer than the simulator's 1 s, though its state changes only as that physics runs (a
    // press goes out on the event stream at once). It states the age it can keep, so a client
    // watching a job does not read the wait as a stale e-stop.
    const inner = robot;
    robot = {
      ...interceptSkills(inner, (c, _s, next) => next(c)),
      safety: async () => ({ ...(await inner.safety()), maxAgeS: FAST_MAX_AGE_S }),
    };
  }
  const chain = new SafetyChain(robot);
  const alrm = robot.arm ? await findToolSet('alrm')!.build(robot) : undefined;
  let server;
  try {
    server = await startRobotApi({
      robot,
      chain,
      ...(alrm ? { alrm } : {}),
      port,
      ...(token ? { token } : {}),
      actions: p.flags['read-only'] ? 'deny' : 'auto',
      log: (l) => o.err(`skillbridge robot-api: ${l}`),
    });
  } catch (e) {
    clearInterval(ticker);
    await opened.close();
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(`port ${port} is in use; choose another with --port N (0 picks a free one)`);
    throw e;
  }
  if (asJson) o.out(JSON.stringify({ url: server.url, token: server.token, openapi: server.openapi }));
  else {
    o.out(`Skillbridge robot API for ${robot.info.name} on ${scene}: ${server.url}`);
    o.out(`token: ${server.token}   (export SKILLBRIDGE_ROBOT_TOKEN=${server.token})`);
    o.out(`OpenAPI: ${server.openapi}   Ctrl+C stops.`);
  }
  const shutdown = async () => {
    clearInterval(ticker);
    await server.close();
    chain.dispose();
    await opened.close();
  };
  if (opts.untilSignal === false) {
    await shutdown();
    return 0;
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await shutdown();
  return 0;
}
