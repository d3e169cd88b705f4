// The host policy's grant of robot description files to the terminal, apart from
// hosts/service/host-policy.ts (which re-exports it) so that `call --urdf` loads
// only this: the policy module imports the suites, models and workers.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type {
  HostRef,
  RobotFileRule,
  RobotFiles,
  RobotPackageRule,
  RobotPackages,
  RobotUploadPath,
  RosbridgeUrl,
} from '../../base/host-refs';
import { type EvalInputCode, EvalInputError } from '../../eval/runner/errors';

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

/**
 * The robot description a page uploaded: its file in the session's upload folder, which is the only
 * folder it may read (package://PKG/… is the folder PKG in there, or PKG itself when the folder picked is it).
 */
export function uploadedRobotFiles(folder: string, file: RobotUploadPath): RobotFiles {
  const root = path.resolve(folder);
  const top = path.join(root, file.split('/')[0]!);
  return mint<RobotFileRule, 'RobotFiles'>({ file: path.join(root, file), folders: [root, ...(file.includes('/') ? [top] : [])] });
}

/** Why a path a page gave for a file of its robot folder cannot be one; undefined when it can. */
export function robotUploadProblem(given: string): string | undefined {
  const parts = given.split('/');
  if (given.startsWith('/') || /^[A-Za-z]:/.test(given)) return 'must be relative to the folder picked';
  if (parts.length > 16) return 'lies more than 16 folders deep';
  for (const p of parts) {
    if (p === '' || p === '.' || p === '..') return `has a "${p}" part: give the path inside the folder, as picked`;
    if (/[\\\0:*?"<>|]/.test(p) || p.length > 120) return `has a part "${p.slice(0, 40)}" that is not a plain file name`;
  }
  return undefined;
}

/** A path inside the uploaded robot folder, checked: relative, plain names, nothing above the folder. */
export function robotUploadPath(given: string, refuse: (message: string) => Error): RobotUploadPath {
  const why = robotUploadProblem(given);
  if (why) throw refuse(`"${given.slice(0, 80)}" ${why}`);
  return mint<string, 'RobotUploadPath'>(given);
}

/** A refusal of what the terminal named (the field first); the host policy refuses the same way. */
export const terminalRefuse = (field: string, message: string, code: EvalInputCode): EvalInputError =>
  new EvalInputError(code, `${field}: ${message}`);

/** Package folders named at the terminal (--package-dir) for a description that is no file: only those folders. */
export function terminalRobotPackages(packageDirs: readonly string[], sidecar?: string): RobotPackages {
  return mint<RobotPackageRule, 'RobotPackages'>({
    folders: [...new Set(packageDirs.map((d) => path.resolve(d)))],
    ...(sidecar !== undefined ? { sidecar: path.resolve(sidecar) } : {}),
  });
}

/**
 * A rosbridge server named at the terminal: a ws:// or wss:// URL with a host and nothing a WebSocket
 * cannot carry (credentials, a fragment). Any host the person types is theirs to reach.
 */
export function terminalRosbridgeUrl(given: string, field = '--robot'): RosbridgeUrl {
  const shown = JSON.stringify(given.length > 80 ? `${given.slice(0, 80)}…` : given);
  let u: URL;
  try {
    u = new URL(given);
  } catch {
    throw terminalRefuse(
      field,
      `${shown} is not a URL; give the rosbridge server as ws://HOST:PORT (e.g. ws://127.0.0.1:9090)`,
      'bad-option',
    );
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:')
    throw terminalRefuse(field, `${shown} is not a rosbridge URL: give ws://HOST:PORT (or wss://), e.g. ws://127.0.0.1:9090`, 'bad-option');
  if (!u.hostname) throw terminalRefuse(field, `${shown} names no host: give ws://HOST:PORT`, 'bad-option');
  if (u.username || u.password)
    throw terminalRefuse(field, `${shown} carries a user name or password; rosbridge takes none in its URL: leave them out`, 'bad-option');
  if (u.hash) throw terminalRefuse(field, `${shown} has a fragment (#…), which a WebSocket does not carry: leave it out`, 'bad-option');
  // As rosbridge URLs are written: ws://host:port without the root path's slash.
  return mint<string, 'RosbridgeUrl'>(u.pathname === '/' && !u.search ? `${u.protocol}//${u.host}` : u.href);
}
