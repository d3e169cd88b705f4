// Where a file a description names is: `package://PKG/PATH` in a package folder
// the host allowed (a folder named PKG, or one holding PKG), `file://` and plain
// paths relative to the file that names them. Only paths inside the allowed
// folders are candidates; the others are reported with where they were looked for.
import path from 'node:path';

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

/** The package folder PKG among the allowed folders: one named PKG, or PKG inside one. */
export function packageFolders(pkg: string, folders: readonly string[]): string[] {
  if (!/^[\w.-]+$/.test(pkg) || pkg === '.' || pkg === '..') return [];
  return folders.flatMap((f) => (path.basename(f) === pkg ? [f] : [path.join(f, pkg)]));
}

/**
 * The files a reference may be, written in a description at `from` (a file path; null for a
 * description that is no file, where a relative path names nothing here).
 */
export function locate(ref: string, from: string | null, folders: readonly string[]): Located {
  let raw: string[];
  const pkg = /^package:\/\/([^/]+)\/(.+)$/.exec(ref);
  if (pkg) raw = packageFolders(pkg[1]!, folders).map((dir) => path.join(dir, pkg[2]!));
  else {
    const p = ref.replace(/^file:\/\//, '');
    raw = from !== null ? [path.resolve(path.dirname(from), p)] : path.isAbsolute(p) ? [p] : [];
  }
  const candidates = raw.filter((p) => folders.some((f) => inside(p, f)));
  return { candidates, outside: raw.filter((p) => !candidates.includes(p)) };
}
