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

export function robotChoice(p: Parsed, env: Readonly<Record<string, string | undefined>> = process.env): RobotChoice {
  const url = stringFlag(p.flags, 'robot');
  const scene = stringFlag(p.flags, 'scene');
  const seed = intFlag(p.flags, 'seed', 1);
  const acceptNoEstop = Boolean(p.flags['accept-no-estop']);
  if (!url) {
    if (acceptNoEstop) throw new UsageError('--accept-no-estop needs --robot URL: the simulator always reports its e-stop');
    if (p.flags['shadow']) throw new UsageError('--shadow needs --robot URL: it runs the --scene simulator beside a real robot');
    if (!scene)
      throw new UsageError('--scene is required (a scene id such as "tabletop/fruits" or a scene file), or --robot URL for a real robot');
    return { form: { kind: 'sim', scene, seed }, shadow: undefined, label: scene, acceptNoEstop };
  }
  let shadow: RobotChoice['shadow'];
  if (p.flags['shadow']) {
    if (!scene) throw new UsageError('--shadow needs --scene S: the simulated world that runs beside the robot');
    shadow = { scene, seed };
  } else if (scene) {
    throw new UsageError('--scene with --robot runs nothing: add --shadow to run the scene beside the robot, or drop --scene');
  }
  const token = env['SKILLBRIDGE_ROBOT_TOKEN'] ?? '';
  if (/^https?:\/\//i.test(url)) {
    if (!token) throw new UsageError('--robot: set SKILLBRIDGE_ROBOT_TOKEN to the robot API token (robot-api prints it)');
    return { form: { kind: 'http', url, token, ...(shadow ? { shadow } : {}) }, shadow, label: url, acceptNoEstop };
  }
  if (/^wss?:\/\//i.test(url)) {
    const mapping = stringFlag(p.flags, 'mapping');
    if (!mapping) throw new UsageError('--robot ws://…: a rosbridge robot needs --mapping FILE (see examples/rosbridge/nav2-moveit.json)');
    return { form: { kind: 'rosbridge', url, mapping, ...(shadow ? { shadow } : {}) }, shadow, label: url, acceptNoEstop };
  }
  throw new UsageError(`--robot must be http://HOST:PORT (robot HTTP API) or ws://HOST:PORT (rosbridge), got "${url}"`);
}
