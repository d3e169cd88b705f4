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

/** The robot --urdf names, or undefined without --urdf. */
export function urdfRobot(flags: Parsed['flags']): LoadedRobot | undefined {
  const file = stringFlag(flags, 'urdf');
  if (file === undefined) return undefined;
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
