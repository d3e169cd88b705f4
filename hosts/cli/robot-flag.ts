// --robot, --mapping and --shadow, read in one place for every command that
// drives a robot (call, run, serve; eval and mcp reuse it): a simulated robot
// from --scene by default, or a real one — the robot HTTP API at an http:// URL
// (token from SKILLBRIDGE_ROBOT_TOKEN), or rosbridge at a ws:// URL with a
// mapping file. --shadow keeps the scene as a simulator running beside it.
import type { RobotForm } from '../../robot/sources';
import { type Parsed, UsageError, intFlag, stringFlag } from './args';

export interface RobotChoice {
  form: RobotForm;
  /** Shadow mode: the scene the simulator beside the real robot runs. */
  shadow: { scene: string; seed: number } | undefined;
  /** What to call it in messages and trace headers. */
  label: string;
  /** --accept-no-estop: the person accepts a robot that declares it reports no e-stop state. */
  acceptNoEstop: boolean;
}

export interface RobotChoiceOptions {
  /** The command applies --seed beside a real robot too (run: a reference policy's seed), not to the shadow alone. */
  seedElsewhere?: boolean;
}

export function robotChoice(
  p: Parsed,
  env: Readonly<Record<string, string | undefined>> = process.env,
  opts: RobotChoiceOptions = {},
): RobotChoice {
  // Each option is read where it applies, and refused where it would change nothing.
  const url = stringFlag(p.flags, 'robot');
  const scene = stringFlag(p.flags, 'scene');
  const acceptNoEstop = Boolean(p.flags['accept-no-estop']);
  if (!url) {
    if (acceptNoEstop) throw new UsageError('--accept-no-estop needs --robot URL: the simulator always reports its e-stop');
    if (p.flags['shadow']) throw new UsageError('--shadow needs --robot URL: it runs the --scene simulator beside a real robot');
    if (p.flags['mapping'] !== undefined) throw new UsageError('--mapping needs --robot ws://HOST:PORT: it maps a rosbridge robot');
    if (!scene)
      throw new UsageError('--scene is required (a scene id such as "tabletop/fruits" or a scene file), or --robot URL for a real robot');
    return { form: { kind: 'sim', scene, seed: intFlag(p.flags, 'seed', 1) }, shadow: undefined, label: scene, acceptNoEstop };
  }
  let shadow: RobotChoice['shadow'];
  if (p.flags['shadow']) {
    if (!scene) throw new UsageError('--shadow needs --scene S: the simulated world that runs beside the robot');
    shadow = { scene, seed: intFlag(p.flags, 'seed', 1) };
  } else if (scene) {
    throw new UsageError('--scene with --robot runs nothing: add --shadow to run the scene beside the robot, or drop --scene');
  } else if (p.flags['seed'] !== undefined && !opts.seedElsewhere) {
    throw new UsageError('--seed with --robot seeds nothing: it seeds the --shadow simulator (add --shadow --scene S), or leave it out');
  }
  const real = realRobotForm(p, url, env);
  return { form: { ...real, ...(shadow ? { shadow } : {}) }, shadow, label: url, acceptNoEstop };
}

/** serve --robot URL: the real robot alone (serve runs its --scene beside it itself). */
export function realRobot(p: Parsed, env: Readonly<Record<string, string | undefined>> = process.env): RealRobot {
  const url = stringFlag(p.flags, 'robot');
  if (!url) throw new UsageError('--robot: give a real robot URL');
  return { ...realRobotForm(p, url, env), ...(p.flags['accept-no-estop'] ? { acceptNoEstop: true } : {}) };
}

type RealRobot = Extract<RobotForm, { kind: 'http' | 'rosbridge' }> & { acceptNoEstop?: boolean };

function realRobotForm(
  p: Parsed,
  url: string,
  env: Readonly<Record<string, string | undefined>>,
): Extract<RobotForm, { kind: 'http' | 'rosbridge' }> {
  if (/^https?:\/\//i.test(url)) {
    if (p.flags['mapping'] !== undefined)
      throw new UsageError('--mapping maps a rosbridge robot (--robot ws://HOST:PORT); a robot HTTP API robot needs none');
    const token = env['SKILLBRIDGE_ROBOT_TOKEN'] ?? '';
    if (!token) throw new UsageError('--robot: set SKILLBRIDGE_ROBOT_TOKEN to the robot API token (robot-api prints it)');
    return { kind: 'http', url, token };
  }
  if (/^wss?:\/\//i.test(url)) {
    const mapping = stringFlag(p.flags, 'mapping');
    if (!mapping) throw new UsageError('--robot ws://…: a rosbridge robot needs --mapping FILE (see examples/rosbridge/nav2-moveit.json)');
    return { kind: 'rosbridge', url, mapping };
  }
  throw new UsageError(`--robot must be http://HOST:PORT (robot HTTP API) or ws://HOST:PORT (rosbridge), got "${url}"`);
}
