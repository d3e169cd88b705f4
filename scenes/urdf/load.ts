// A robot from its URDF (or xacro) file, the meshes it names and the sidecar
// beside it, read only from the folders the host policy allowed (RobotFiles);
// or from URDF text that is no file (the robot's own robot_description), whose
// package:// meshes come only from the package folders the person named
// (RobotPackages) and which has no sidecar. Every problem is reported on its
// element; a description with an error is still reported in full, and nothing is
// ever replaced by another robot.
import path from 'node:path';
import type { RobotFiles, RobotPackages } from '../../base/host-refs';
import { UserFileError, readUserBytesSync, readUserTextSync } from '../../base/user-file';
import { type MeshData, MeshError, isFlat, meshFormat, readMesh } from './mesh';
import type { Geometry, Problem, RobotDescription } from './model';
import { type PackageFinder, locate, packageFinder } from './paths';
import { readUrdf } from './parse';
import { type Note, type RobotExtras, parseSidecar, resolveExtras } from './sidecar';
import { structure } from './structure';
import { drawRobot } from './visuals';
import { XacroError, expandXacro, usesXacro } from './xacro';
import { XmlError, type XmlElement, parseXml } from './xml';

/** The file itself cannot be read as a robot description (missing, not XML, not a <robot>): bad input, in one line. */
export class RobotFileError extends Error {
  override name = 'RobotFileError';
}

export interface LoadedMesh {
  /** As the URDF writes it. */
  ref: string;
  /** The file it was read from. */
  file: string;
  mesh: MeshData;
}

export interface LoadedRobot {
  /** The file it was read from, or where the text came from (e.g. "robot_description of ws://…"). */
  file: string;
  /** Null when the structure has no root (the problems say why). */
  description: RobotDescription | null;
  /** The sidecar's values and defaults; null without a description or with a sidecar that is not valid. */
  extras: RobotExtras | null;
  /** Meshes read, by their reference in the URDF. */
  meshes: Map<string, LoadedMesh>;
  /** Null for a description given as text: there is no folder for a sidecar to lie in. */
  sidecar: { file: string; found: boolean } | null;
  problems: Problem[];
  notes: Note[];
}

const MAX_URDF_BYTES = 32 * 1024 * 1024;
const MAX_MESH_BYTES = 128 * 1024 * 1024;

/** The sidecar of a description file: `arm.urdf`, `arm.urdf.xacro` and `arm.xacro` all have `arm.skillbridge.json`. */
export function sidecarPath(file: string): string {
  const base = path.basename(file).replace(/(\.urdf)?(\.xacro)?$/i, '');
  return path.join(path.dirname(file), `${base}.skillbridge.json`);
}

function readXml(file: string): XmlElement {
  let text: string;
  try {
    text = readUserTextSync(file, { maxBytes: MAX_URDF_BYTES });
  } catch (e) {
    if (e instanceof UserFileError) throw new RobotFileError(`cannot read ${file}: ${e.reason}`);
    throw e;
  }
  return xmlOf(text, file);
}

function xmlOf(text: string, what: string): XmlElement {
  try {
    return parseXml(text);
  } catch (e) {
    if (e instanceof XmlError) throw new RobotFileError(`${what} is not XML: ${e.message}`);
    throw e;
  }
}

/** Where a description was read from: its file (null for text), what to call it, and the folders it may read. */
interface Place {
  file: string | null;
  label: string;
  folders: readonly string[];
  /** The sidecar the person named (--robot-config); otherwise the one beside the file. */
  sidecar?: string;
}

/** Loads and checks a robot description; throws RobotFileError only when the file itself is not one. */
export function loadRobot(files: RobotFiles, args: Readonly<Record<string, string>> = {}): LoadedRobot {
  const { file, folders, sidecar } = files;
  return loadRoot(readXml(file), { file, label: file, folders, ...(sidecar !== undefined ? { sidecar } : {}) }, args);
}

/** URDF given as text, not a file: what it is and where it came from (for messages). */
export interface RobotText {
  text: string;
  /** E.g. `robot_description of ws://10.0.0.2:9090 (ROS 1 parameter server)`. */
  origin: string;
}

/**
 * Loads and checks a description given as text (the robot's own robot_description): its package://
 * meshes are read only from the package folders named; it has no sidecar, so every extra takes its
 * default. Throws RobotFileError only when the text is not a robot description at all.
 */
export function loadRobotText(source: RobotText, packages: RobotPackages, args: Readonly<Record<string, string>> = {}): LoadedRobot {
  if (Buffer.byteLength(source.text) > MAX_URDF_BYTES)
    throw new RobotFileError(
      `${source.origin} is ${Buffer.byteLength(source.text)} bytes, more than the ${MAX_URDF_BYTES} a description may have`,
    );
  return loadRoot(
    xmlOf(source.text, source.origin),
    {
      file: null,
      label: source.origin,
      folders: packages.folders,
      ...(packages.sidecar !== undefined ? { sidecar: packages.sidecar } : {}),
    },
    args,
  );
}

function loadRoot(parsed: XmlElement, place: Place, args: Readonly<Record<string, string>>): LoadedRobot {
  const { file, label, folders, sidecar } = place;
  const find = packageFinder(folders);
  const problems: Problem[] = [];
  let root = parsed;
  if (root.name !== 'robot') throw new RobotFileError(`${label} is not a URDF: its root element is <${root.name}>, not <robot>`);
  if ((file !== null && /\.xacro$/i.test(file)) || usesXacro(root)) {
    try {
      root = expandXacro(root, file ?? label, {
        args,
        findPackage: (pkg) => find(pkg)[0],
        include: (name, from) => {
          const { candidates, outside } = locate(name, file === null ? null : from, folders, find);
          if (!candidates.length)
            throw new XacroError(
              `xacro:include "${name}"`,
              file === null && !outside.length
                ? `${name} is not available from the robot`
                : `${outside[0] ?? name} is outside the folders this robot may read`,
              file === null
                ? 'name the package folder with --package-dir DIR, and include it as $(find PKG)/… or package://PKG/…'
                : "keep included files in the URDF's folder or a named package folder",
            );
          const f = candidates[0]!;
          try {
            return { root: readXml(f), file: f };
          } catch (e) {
            if (e instanceof RobotFileError)
              throw new XacroError(`xacro:include "${name}"`, e.message, 'give a file that exists and is XML');
            throw e;
          }
        },
      });
    } catch (e) {
      if (!(e instanceof XacroError)) throw e;
      problems.push({ element: e.element, problem: e.message, fix: e.fix, severity: 'error' });
      return {
        file: label,
        description: null,
        extras: null,
        meshes: new Map(),
        sidecar: file === null ? null : { file: sidecar ?? sidecarPath(file), found: false },
        problems,
        notes: [],
      };
    }
  }
  const read = readUrdf(root);
  problems.push(...read.problems);
  const built = structure(read);
  problems.push(...built.problems);
  const meshes = built.description ? loadMeshes(built.description, file, folders, find, problems) : new Map<string, LoadedMesh>();
  if (built.description) problems.push(...drawRobot(built.description, meshes).notes);
  // A description from the robot has no folder to find a sidecar beside; one the person named is read.
  const side =
    file !== null
      ? loadSidecar(built.description, file, problems, sidecar)
      : sidecar !== undefined
        ? loadSidecar(built.description, sidecar, problems, sidecar)
        : noSidecar(built.description, problems);
  return { file: label, description: built.description, meshes, problems, ...side };
}

/** A description given as text: every extra takes its default (a robot publishes no sidecar). */
function noSidecar(d: RobotDescription | null, problems: Problem[]): Pick<LoadedRobot, 'extras' | 'sidecar' | 'notes'> {
  const element = 'sidecar (none)';
  const parsed = parseSidecar({}, element);
  problems.push(...parsed.problems);
  if (!parsed.sidecar || !d) return { extras: null, sidecar: null, notes: [] };
  const r = resolveExtras(d, parsed.sidecar, element);
  problems.push(...r.problems);
  return {
    extras: r.extras,
    sidecar: null,
    notes: [{ field: '(file)', note: 'a description from the robot has no sidecar: every field takes its default' }, ...r.notes],
  };
}

function loadMeshes(
  d: RobotDescription,
  file: string | null,
  folders: readonly string[],
  find: PackageFinder,
  problems: Problem[],
): Map<string, LoadedMesh> {
  const meshes = new Map<string, LoadedMesh>();
  const reported = new Set<string>();
  for (const link of d.links)
    for (const g of [...link.collisions, ...link.visuals]
      .map((s) => s.geometry)
      .filter((g): g is Extract<Geometry, { kind: 'mesh' }> => g.kind === 'mesh')) {
      if (meshes.has(g.file) || reported.has(`${link.name} ${g.file}`)) continue;
      reported.add(`${link.name} ${g.file}`);
      const at = `link "${link.name}"`;
      const warn = (problem: string, fix: string) => problems.push({ element: at, problem, fix, severity: 'warning' });
      const format = meshFormat(g.file);
      // A visual of a format not read is said by ./visuals.ts (how the link is drawn instead); a collision shape here.
      const collides = link.collisions.some((c) => c.geometry.kind === 'mesh' && c.geometry.file === g.file);
      if (format === 'dae') {
        if (collides)
          warn(
            `mesh "${g.file}": COLLADA (.dae) is not supported; the collision shape is left out`,
            'convert it to STL or OBJ (e.g. with Blender or meshlab) and name that file',
          );
        continue;
      }
      if (format === 'other') {
        if (collides) warn(`mesh "${g.file}": not STL or OBJ; the collision shape is left out`, 'convert it to STL or OBJ');
        continue;
      }
      const { candidates, outside } = locate(g.file, file, folders, find);
      let found: LoadedMesh | undefined;
      let unreadable = false;
      for (const c of candidates) {
        try {
          found = { ref: g.file, file: c, mesh: readMesh(c, readUserBytesSync(c, { maxBytes: MAX_MESH_BYTES })) };
          break;
        } catch (e) {
          if (e instanceof UserFileError && e.problem === 'missing') continue;
          if (e instanceof UserFileError || e instanceof MeshError) {
            warn(`mesh "${g.file}" (${c}) cannot be read: ${e instanceof UserFileError ? e.reason : e.message}`, 'give an STL or OBJ file');
            unreadable = true;
            break;
          }
          throw e;
        }
      }
      if (found) {
        meshes.set(g.file, found);
        if (isFlat(found.mesh)) warn(`mesh "${g.file}" is flat: its points span no volume, so it has no convex hull`, 'give a solid mesh');
        continue;
      }
      if (unreadable) continue;
      // Text from the robot: its meshes lie on the robot's disk, reachable here only through a package folder named.
      if (file === null && !candidates.length && !outside.length) {
        const pkg = /^package:\/\/([^/]+)/.exec(g.file)?.[1];
        warn(
          `mesh "${g.file}" not available from the robot`,
          `give --package-dir DIR${pkg ? ` (the folder of the ROS package "${pkg}", or one holding it)` : ' (the ROS package holding it; name the mesh as package://PKG/…)'}`,
        );
        continue;
      }
      const looked = [...candidates, ...outside.map((o) => `${o} (outside the allowed folders)`)];
      warn(
        `mesh "${g.file}" not found${looked.length ? `; looked at ${looked.join(', ')}` : g.file.startsWith('package://') ? `; no package folder "${/^package:\/\/([^/]+)/.exec(g.file)?.[1]}" among ${folders.join(', ')}` : ''}`,
        'name the package folder with --package-dir DIR, or put the mesh there',
      );
    }
  return meshes;
}

function loadSidecar(
  d: RobotDescription | null,
  file: string,
  problems: Problem[],
  named?: string,
): Pick<LoadedRobot, 'extras' | 'sidecar' | 'notes'> {
  const at = named ?? sidecarPath(file);
  const element = `sidecar ${path.basename(at)}`;
  let data: unknown = {};
  let found = true;
  try {
    data = JSON.parse(readUserTextSync(at)) as unknown;
  } catch (e) {
    // A sidecar the person named must be there; the one beside the URDF may be left out.
    if (e instanceof UserFileError && e.problem === 'missing' && named === undefined) found = false;
    else {
      const why = e instanceof UserFileError ? e.reason : e instanceof SyntaxError ? `not JSON: ${e.message}` : String(e);
      problems.push({ element, problem: why, fix: 'give a JSON object (or remove the file to take every default)', severity: 'error' });
      return { extras: null, sidecar: { file: at, found: true }, notes: [] };
    }
  }
  const parsed = parseSidecar(data, element);
  problems.push(...parsed.problems);
  if (!parsed.sidecar || !d) return { extras: null, sidecar: { file: at, found }, notes: [] };
  const r = resolveExtras(d, parsed.sidecar, element);
  problems.push(...r.problems);
  const notes = found
    ? r.notes
    : [{ field: '(file)', note: `no ${path.basename(at)} beside the URDF: every field takes its default` }, ...r.notes];
  return { extras: r.extras, sidecar: { file: at, found }, notes };
}
