// The robot a session's scenes are built with: the session's own (serve --urdf,
// or none: each scene's robot), or a robot folder the page uploaded. Uploaded
// files go into a folder this session makes (one per upload; the one in use is
// kept, the others removed), within the size limits; the description is loaded
// from there only, through the robot-file policy, and checked as `serve --urdf`
// checks it. A robot that cannot be the scene's is refused with the reason and
// every problem on its element, and the robot before stays.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppApiError } from '../../contract/api';
import type { SceneMeta } from '../../contract/schemas';
import {
  MAX_ROBOT_FILE_BYTES,
  MAX_ROBOT_FILES,
  MAX_ROBOT_FOLDER_BYTES,
  type RobotChoice,
  type RobotProblem,
} from '../../contract/robot-upload';
import type { RobotUploadPath } from '../../base/host-refs';
import { type LoadedRobot, RobotFileError, loadRobot } from '../../scenes/urdf/load';
import { RobotImportError, importable } from '../../sim/world/imported-robot';
import { uploadedRobotFiles } from './robot-file-policy';

interface Upload {
  dir: string;
  sizes: Map<RobotUploadPath, number>;
  total: number;
}

/** The description files of an upload: `.urdf` and `.urdf.xacro`, else `.xacro` (included xacro files are `.xacro` too). */
function descriptionOf(paths: readonly RobotUploadPath[]): RobotUploadPath | string {
  const urdf = paths.filter((p) => /\.urdf(\.xacro)?$/i.test(p));
  const found = urdf.length ? urdf : paths.filter((p) => /\.xacro$/i.test(p));
  if (found.length === 1) return found[0]!;
  return found.length
    ? `the folder has ${found.length} robot descriptions (${found.slice(0, 5).join(', ')}): pick a folder with one`
    : 'the folder has no .urdf or .urdf.xacro file: pick the folder of a robot description';
}

export class RobotChooser {
  private upload: Upload | undefined;
  /** The folder of the uploaded robot in use. */
  private inUse: string | undefined;
  private robot: LoadedRobot | undefined;

  constructor(private readonly own: LoadedRobot | undefined) {
    this.robot = own;
  }

  /** The robot the next scene is built with (undefined: the scene's own). */
  get current(): LoadedRobot | undefined {
    return this.robot;
  }

  /** Writes a chunk of an uploaded file at its offset; the first chunk of a folder (`start`) begins a new upload. */
  put(file: RobotUploadPath, offset: number, data: string, start = false): { path: string; bytes: number } {
    if (start || !this.upload) this.fresh();
    const up = this.upload!;
    const bytes = Buffer.from(data, 'base64');
    const had = up.sizes.get(file);
    if (had === undefined && offset !== 0) throw bad(`path: "${file}" starts at byte 0, not ${offset}`);
    if (had !== undefined && offset !== had && offset !== 0)
      throw bad(`offset: ${had} bytes of "${file}" have arrived, not ${offset}: send the file again from 0`);
    if (had === undefined && up.sizes.size >= MAX_ROBOT_FILES) throw bad(`path: a robot folder may have at most ${MAX_ROBOT_FILES} files`);
    const size = offset + bytes.length;
    if (size > MAX_ROBOT_FILE_BYTES) throw bad(`data: "${file}" is over ${MAX_ROBOT_FILE_BYTES / 1024 / 1024} MiB`);
    const total = up.total - (had ?? 0) + size;
    if (total > MAX_ROBOT_FOLDER_BYTES) throw bad(`data: the robot folder is over ${MAX_ROBOT_FOLDER_BYTES / 1024 / 1024} MiB`);
    const to = path.join(up.dir, file);
    mkdirSync(path.dirname(to), { recursive: true });
    if (offset === 0) writeFileSync(to, bytes);
    else appendFileSync(to, bytes);
    up.sizes.set(file, size);
    up.total = total;
    return { path: file, bytes: size };
  }

  /**
   * Uses the uploaded folder's robot (or the session's own again) and rebuilds the scene with it by
   * `reload`; on any refusal the robot before stays, and the scene is as it was.
   */
  async use(which: 'uploaded' | 'own', reload: () => Promise<SceneMeta>): Promise<RobotChoice> {
    if (which === 'own') {
      const before = this.robot;
      this.robot = this.own;
      try {
        const meta = await reload();
        this.drop(this.inUse);
        this.inUse = undefined;
        return { ok: true, robot: this.own?.description?.name ?? null, reason: null, problems: [], meta };
      } catch (e) {
        this.robot = before;
        throw e;
      }
    }
    const up = this.upload;
    if (!up?.sizes.size) throw bad('robot: no robot folder was uploaded: upload its files first (putRobotFile)');
    this.upload = undefined;
    const file = descriptionOf([...up.sizes.keys()]);
    const refuse = (reason: string, problems: RobotProblem[] = []): RobotChoice => {
      this.drop(up.dir);
      return { ok: false, robot: this.robot?.description?.name ?? null, reason, problems, meta: null };
    };
    if (!up.sizes.has(file as RobotUploadPath)) return refuse(file);
    let loaded: LoadedRobot;
    try {
      loaded = loadRobot(uploadedRobotFiles(up.dir, file as RobotUploadPath));
    } catch (e) {
      if (e instanceof RobotFileError) return refuse(e.message.replaceAll(up.dir + path.sep, ''));
      throw e;
    }
    const problems = loaded.problems.map((p) => ({ ...p, problem: p.problem.replaceAll(up.dir + path.sep, '') }));
    try {
      importable(loaded);
    } catch (e) {
      if (e instanceof RobotImportError)
        return refuse(e.problems.map((p) => `${p.element}: ${p.problem}`.replaceAll(up.dir + path.sep, '')).join('; '), problems);
      throw e;
    }
    const before = this.robot;
    this.robot = loaded;
    let meta: SceneMeta;
    try {
      meta = await reload();
    } catch (e) {
      this.robot = before;
      if (e instanceof AppApiError) return refuse(e.message.replaceAll(up.dir + path.sep, ''), problems);
      throw e;
    }
    this.drop(this.inUse);
    this.inUse = up.dir;
    return { ok: true, robot: loaded.description?.name ?? null, reason: null, problems, meta };
  }

  dispose(): void {
    this.drop(this.upload?.dir);
    this.drop(this.inUse);
    this.upload = undefined;
    this.inUse = undefined;
  }

  private fresh(): void {
    this.drop(this.upload?.dir);
    this.upload = { dir: mkdtempSync(path.join(tmpdir(), 'skillbridge-robot-')), sizes: new Map(), total: 0 };
  }

  private drop(dir: string | undefined): void {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

const bad = (message: string): AppApiError => new AppApiError('invalid_request', message);
