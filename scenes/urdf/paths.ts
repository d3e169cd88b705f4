// Where a file a description names is: `package://PKG/PATH` in a package folder
// the host allowed (a folder named PKG, one holding PKG, or one whose package.xml
// names PKG, up to two levels below: a workspace's src, a repository of
// packages), `file://` and plain paths relative to the file that names them. Only
// paths inside the allowed folders are candidates; the others are reported with
// where they were looked for.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { readUserTextSync } from '../../base/user-file';

export interface Located {
  /** Candidates inside the allowed folders, in the order tried. */
  candidates: string[];
  /** Paths the reference names that lie outside every allowed folder (not read). */
  outside: string[];
}

/** Whether `p` is `dir` or inside it (by path; the folders are the host's grant). */
export function inside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Folders looked into for a package.xml below one allowed folder: at most this many (a large tree is not walked). */
const MAX_MANIFEST_FOLDERS = 400;

/** The folder and the folders one and two levels below it that hold a package.xml. */
function manifestFolders(dir: string): string[] {
  const found: string[] = [];
  let seen = 0;
  const walk = (d: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((e) => e.name === 'package.xml' && e.isFile())) found.push(d);
    if (depth === 2) return;
    for (const e of entries) {
      if (!e.isDirectory() || e.name.startsWith('.') || ++seen > MAX_MANIFEST_FOLDERS) continue;
      walk(path.join(d, e.name), depth + 1);
    }
  };
  walk(dir, 0);
  return found;
}

/** A package.xml's `<name>`, or undefined (unreadable, or none). */
export function manifestName(dir: string): string | undefined {
  try {
    return /<name>\s*([\w.-]+)\s*<\/name>/.exec(readUserTextSync(path.join(dir, 'package.xml'), { maxBytes: 1 << 20 }))?.[1];
  } catch {
    return undefined;
  }
}

/** The folders a package PKG may be, in the order tried. */
export type PackageFinder = (pkg: string) => string[];

/**
 * The package folder PKG among the allowed folders: one named PKG, PKG inside one, or one whose
 * package.xml names PKG. The folders' manifests are read once per finder (one per description
 * loaded), not once per mesh.
 */
export function packageFinder(folders: readonly string[]): PackageFinder {
  let manifests: Array<{ dir: string; name: string | undefined }> | undefined;
  return (pkg) => {
    if (!/^[\w.-]+$/.test(pkg) || pkg === '.' || pkg === '..') return [];
    manifests ??= folders.flatMap((f) => manifestFolders(f).map((dir) => ({ dir, name: manifestName(dir) })));
    const named = folders.filter((f) => path.basename(f) === pkg);
    // ROS finds a package by its manifest's name, not its folder's: a repository checked out as
    // Universal_Robots_ROS2_Description holds the package ur_description.
    const byManifest = manifests.filter((m) => m.name === pkg).map((m) => m.dir);
    const within = folders.filter((f) => path.basename(f) !== pkg).map((f) => path.join(f, pkg));
    return [...new Set([...named, ...byManifest, ...within])];
  };
}

/**
 * The files a reference may be, written in a description at `from` (a file path; null for a
 * description that is no file, where a relative path names nothing here).
 */
export function locate(ref: string, from: string | null, folders: readonly string[], find = packageFinder(folders)): Located {
  let raw: string[];
  const pkg = /^package:\/\/([^/]+)\/(.+)$/.exec(ref);
  if (pkg) raw = find(pkg[1]!).map((dir) => path.join(dir, pkg[2]!));
  else {
    const p = ref.replace(/^file:\/\//, '');
    raw = from !== null ? [path.resolve(path.dirname(from), p)] : path.isAbsolute(p) ? [p] : [];
  }
  const candidates = raw.filter((p) => folders.some((f) => inside(p, f)));
  return { candidates, outside: raw.filter((p) => !candidates.includes(p)) };
}
