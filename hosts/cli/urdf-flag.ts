// --urdf FILE [--robot-config FILE] [--package-dir DIR[,DIR]]: the robot a
// description names, loaded under the terminal's policy, to put in a scene in
// place of its own. A file that is no robot description, or a robot with an
// error, is bad input: one line naming each problem on its element.
import { statSync } from 'node:fs';
import { terminalRobotFiles } from '../service/robot-file-policy';
import { type LoadedRobot, RobotFileError, loadRobot } from '../../scenes/urdf/load';
import { RobotImportError, importable } from '../../sim/world/imported-robot';
import type { SimWorld } from '../../sim/world/sim-world';
import { type Parsed, UsageError, stringFlag } from './args';

/** The folders --package-dir names (comma-separated), each an existing folder. */
export function packageDirs(flags: Parsed['flags']): string[] {
  const raw = stringFlag(flags, 'package-dir');
  if (raw === undefined) return [];
  const dirs = raw.split(',').map((d) => d.trim());
  for (const d of dirs) {
    if (d === '') throw new UsageError('--package-dir: an empty folder name; give DIR[,DIR]');
    let isDir = false;
    try {
      isDir = statSync(d).isDirectory();
    } catch {
      throw new UsageError(`--package-dir ${JSON.stringify(d.slice(0, 80))}: no such folder`);
    }
    if (!isDir) throw new UsageError(`--package-dir ${JSON.stringify(d.slice(0, 80))}: not a folder`);
  }
  return dirs;
}

/** `--urdf rosbridge`: the description is the real robot's own, read from the rosbridge server --robot names. */
export const FROM_ROBOT = 'rosbridge';

/**
 * The real robot --urdf rosbridge reads its description from, or undefined for a --urdf FILE or none.
 * The robot is only read (its robot_description): the tools act on its twin in --scene, so a real
 * robot's options (--mapping, --shadow, --accept-no-estop) are refused; and --urdf FILE beside
 * --robot is refused (a real robot is its own).
 */
export function twinOf(flags: Parsed['flags']): { url: string; scene: string } | undefined {
  const urdf = stringFlag(flags, 'urdf');
  const robot = stringFlag(flags, 'robot');
  if (urdf === undefined) return undefined;
  if (urdf !== FROM_ROBOT) {
    if (robot !== undefined)
      throw new UsageError(
        "give --urdf FILE or --robot, not both: a real robot (--robot) is its own; --urdf puts a described robot in the --scene simulator (--urdf rosbridge --robot ws://HOST:PORT reads the robot's own description)",
      );
    return undefined;
  }
  if (robot === undefined)
    throw new UsageError(
      '--urdf rosbridge needs --robot ws://HOST:PORT: the rosbridge server of the robot whose robot_description to read',
    );
  for (const f of ['mapping', 'shadow', 'accept-no-estop'] as const)
    if (flags[f] !== undefined)
      throw new UsageError(
        `--${f} with --urdf rosbridge: the robot is only read for its description and its twin acts in --scene; leave --${f} out (or drop --urdf to act on the robot)`,
      );
  const scene = stringFlag(flags, 'scene');
  if (scene === undefined) throw new UsageError('--urdf rosbridge needs --scene S: the scene its twin acts in');
  return { url: robot, scene };
}

/** The robot --urdf names — a file, or with --urdf rosbridge the real robot's own description — or undefined without --urdf. */
export async function urdfRobotOrTwin(flags: Parsed['flags']): Promise<LoadedRobot | undefined> {
  const twin = twinOf(flags);
  if (!twin) return urdfRobot(flags);
  const [{ terminalRosbridgeUrl, terminalRobotPackages }, { fetchRobotDescription, RobotDescriptionError }, { loadRobotText }] =
    await Promise.all([
      import('../service/robot-file-policy'),
      import('../../robot/rosbridge/robot-description'),
      import('../../scenes/urdf/load'),
    ]);
  const url = terminalRosbridgeUrl(twin.url);
  try {
    return loadRobotText(await fetchRobotDescription(url), terminalRobotPackages(packageDirs(flags), stringFlag(flags, 'robot-config')));
  } catch (e) {
    if (e instanceof RobotDescriptionError) throw new UsageError(`--urdf rosbridge --robot: ${e.message}`);
    if (e instanceof RobotFileError) throw new UsageError(`--urdf rosbridge: ${e.message}`);
    throw e;
  }
}

/** The robot --urdf names, or undefined without --urdf. */
export function urdfRobot(flags: Parsed['flags']): LoadedRobot | undefined {
  const file = stringFlag(flags, 'urdf');
  if (file === undefined) return undefined;
  if (file === FROM_ROBOT)
    throw new UsageError(
      '--urdf rosbridge (the real robot\'s own description) applies to call and run; here give the description FILE (see "skillbridge robots check rosbridge --robot ws://HOST:PORT")',
    );
  const sidecar = stringFlag(flags, 'robot-config');
  try {
    return loadRobot(terminalRobotFiles(file, packageDirs(flags), sidecar));
  } catch (e) {
    if (e instanceof RobotFileError) throw new UsageError(`--urdf: ${e.message}`);
    throw e;
  }
}

/**
 * The robot --urdf names, checked as one any scene can take (a command that builds many worlds:
 * eval, audit, serve), or undefined without --urdf. Bad input names every problem.
 */
export function urdfRobotForScenes(flags: Parsed['flags']): LoadedRobot | undefined {
  const loaded = urdfRobot(flags);
  if (!loaded) return undefined;
  try {
    importable(loaded);
  } catch (e) {
    throw urdfRefusal(e) ?? e;
  }
  return loaded;
}

/** A robot that cannot stand in the scene, as the one line bad input gets. */
export function urdfRefusal(e: unknown): UsageError | undefined {
  if (!(e instanceof RobotImportError)) return undefined;
  const each = e.problems.map((p) => `${p.element}: ${p.problem} (fix: ${p.fix})`);
  return new UsageError(`--urdf ${e.file}: ${each.length} problem${each.length > 1 ? 's' : ''}: ${each.join('; ')}`);
}

/** What to say of the robot --urdf put in the scene: its name, its arm, and the loader's warnings. */
export function describeImport(loaded: LoadedRobot, world: SimWorld): { lines: string[]; data: Record<string, unknown> } {
  const k = world.kinematics;
  const warnings = loaded.problems.filter((p) => p.severity === 'warning').map((p) => `${p.element}: ${p.problem}`);
  const data = {
    name: world.scene.robot.id,
    file: loaded.file,
    sidecar: loaded.sidecar?.found ? loaded.sidecar.file : null,
    joints: k ? [...k.jointNames] : [],
    reachM: k ? Math.round(k.reach * 1000) / 1000 : 0,
    warnings,
  };
  const lines = [
    `robot: ${data.name} from ${data.file} (${data.joints.length} arm joints, reach ${data.reachM} m)${data.sidecar ? `, sidecar ${data.sidecar}` : ', no sidecar (defaults)'}`,
    ...warnings.map((w) => `  warning: ${w}`),
  ];
  return { lines, data };
}

/** The --urdf options as typed, after a space: what a command printed to run it again takes. */
export function urdfFlagsText(flags: Parsed['flags']): string {
  const q = (v: string): string => (/^[\w./:@,=+-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);
  return (['urdf', 'robot-config', 'package-dir'] as const)
    .flatMap((f) => {
      const v = stringFlag(flags, f);
      return v === undefined ? [] : [` --${f} ${q(v)}`];
    })
    .join('');
}

/** One line naming the described robot before a scene is built (a command that builds many). */
export function describeLoaded(loaded: LoadedRobot): string {
  const warnings = loaded.problems.filter((p) => p.severity === 'warning').length;
  return `robot: ${loaded.description?.name ?? '(unnamed)'} from ${loaded.file} in place of each scene's own${warnings ? ` (${warnings} warning${warnings > 1 ? 's' : ''}: skillbridge robots check ${loaded.file})` : ''}`;
}
