// The host policy's grant of robot description files to the terminal, apart from
// hosts/service/host-policy.ts (which re-exports it) so that `call --urdf` loads
// only this: the policy module imports the suites, models and workers.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { HostRef, RobotFileRule, RobotFiles } from '../../base/host-refs';

function mint<T, K extends string>(value: T): HostRef<T, K> {
  return value as HostRef<T, K>;
}

/** How far above a URDF's folder its ROS package (the folder with package.xml) is looked for. */
const PACKAGE_LEVELS = 3;

/**
 * A robot description named at the terminal: the file, and the folders it may read meshes and includes
 * from — its own folder, the ROS package it lies in (the nearest folder above with a package.xml), and
 * the package folders the person named (--package-dir).
 */
export function terminalRobotFiles(file: string, packageDirs: readonly string[] = [], sidecar?: string): RobotFiles {
  const abs = path.resolve(file);
  const folders = [path.dirname(abs)];
  for (let dir = path.dirname(abs), k = 0; k < PACKAGE_LEVELS; k++, dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.xml'))) {
      folders.push(dir);
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  for (const d of packageDirs) folders.push(path.resolve(d));
  return mint<RobotFileRule, 'RobotFiles'>({
    file: abs,
    folders: [...new Set(folders)],
    ...(sidecar !== undefined ? { sidecar: path.resolve(sidecar) } : {}),
  });
}
