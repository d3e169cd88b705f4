// The robots `bench robot` loads from URDF files: the test robots written from
// published parameters (test/fixtures/robots), each read as the command line
// reads a robot (its folder, its package, the package folders named), so their
// load time is the loader's on a URDF with meshes and on xacro with includes.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { terminalRobotFiles } from '../service/host-policy';
import { loadRobot } from '../../scenes/urdf/load';
import type { RobotDescription } from '../../scenes/urdf/model';

const FIXTURES = 'test/fixtures/robots';

/** One chain the robot benchmark solves: its description, and the links its chain runs between. */
export interface RobotBenchCase {
  label: string;
  base: string;
  tip: string;
  description: () => RobotDescription | Promise<RobotDescription>;
  /** True when description() reads a file (a URDF and its meshes): its time is then reported as load time. */
  loadsFile?: boolean;
}

/** The test robots' folder: above this module in the sources and in the command line's bundle (out/cli/<build>/). */
export function fixturesDir(from = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from, k = 0; k < 8; k++, dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, FIXTURES))) return path.join(dir, FIXTURES);
    if (path.dirname(dir) === dir) break;
  }
  return undefined;
}

/** A URDF as `robots check` loads it; a description with an error is not measured (the problem says which). */
function loader(file: string, packageDirs: string[]): () => RobotDescription {
  return () => {
    const root = fixturesDir();
    if (!root) throw new Error(`the test robots (${FIXTURES}) are not in this installation; run the benchmark from the repository`);
    const r = loadRobot(
      terminalRobotFiles(
        path.join(root, file),
        packageDirs.map((d) => path.join(root, d)),
      ),
    );
    const error = r.problems.find((p) => p.severity === 'error');
    if (error || !r.description) throw new Error(`${file}: ${error ? `${error.element}: ${error.problem}` : 'no description'}`);
    return r.description;
  };
}

export const URDF_CASES: RobotBenchCase[] = [
  {
    label: 'UR5e-class URDF, meshes',
    base: 'base_link',
    tip: 'tcp',
    description: loader('ur5e_like/urdf/ur5e_like.urdf', []),
    loadsFile: true,
  },
  { label: 'Panda-class URDF', base: 'link0', tip: 'tcp', description: loader('panda_like/panda_like.urdf', []), loadsFile: true },
  {
    label: 'mobile manip. xacro',
    base: 'arm_mount',
    tip: 'tcp',
    description: loader('mobile_manipulator/urdf/mobile_manipulator.urdf.xacro', ['mobile_manipulator']),
    loadsFile: true,
  },
];
