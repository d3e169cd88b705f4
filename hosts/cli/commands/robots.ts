// skillbridge robots check FILE: what a URDF (or xacro) describes and what is
// wrong with it — joints, chains, the arm's reach, meshes, the sidecar's values
// and every problem per element. `robots check rosbridge --robot ws://…` reports
// the same for the real robot's own robot_description (read through rosapi),
// its meshes only from the --package-dir folders named. Exit 0 when nothing is
// an error, 1 when something is (the report says what); a file that is no robot
// description, or a robot that gives none, is bad input (one line, exit 2).
import path from 'node:path';
import { terminalRobotFiles, terminalRobotPackages, terminalRosbridgeUrl } from '../../service/robot-file-policy';
import { type LoadedRobot, RobotFileError, loadRobot, loadRobotText } from '../../../scenes/urdf/load';
import type { Joint, RobotDescription } from '../../../scenes/urdf/model';
import { type Chain, chainTo, chains, reach } from '../../../scenes/urdf/structure';
import { type Parsed, UsageError, stringFlag } from '../args';
import { fkReach } from '../arm-reach';
import { packageDirs } from '../urdf-flag';
import { type Output, json } from '../output';

const round = (n: number, k = 4): number => Math.round(n * 10 ** k) / 10 ** k;

function limitText(j: Joint): string {
  if (j.kind === 'fixed' || j.kind === 'planar' || j.kind === 'floating') return '';
  if (!j.limit) return j.kind === 'continuous' ? 'unbounded' : 'NO LIMITS';
  const unit = j.kind === 'prismatic' ? 'm' : 'rad';
  const extra = [j.limit.effort !== null ? `effort ${j.limit.effort}` : '', j.limit.velocity !== null ? `velocity ${j.limit.velocity}` : '']
    .filter(Boolean)
    .join(' ');
  return `[${round(j.limit.lower)}, ${round(j.limit.upper)}] ${unit}${extra ? `  ${extra}` : ''}`;
}

interface Report {
  /** The file, or where the robot's description came from. */
  file: string;
  /** The real robot it was read from (robots check rosbridge); null for a file. */
  robot: { url: string; ros: 1 | 2; param: string } | null;
  name: string | null;
  root: string | null;
  links: string[];
  joints: Joint[];
  chains: Chain[];
  /**
   * The chain to the end effector. reachM: how far the end effector gets from the first arm joint by
   * forward kinematics (null, with reachUnknown saying why, when the chain cannot be cut); reachBoundM:
   * the sum of the offsets, an upper bound.
   */
  arm: {
    endEffector: string;
    joints: string[];
    movingJoints: number;
    reachM: number | null;
    reachBoundM: number;
    reachFrom: string | null;
    reachSamples: number;
    reachUnknown: string | null;
  } | null;
  extras: LoadedRobot['extras'];
  meshes: Array<{ ref: string; file: string; format: string; triangles: number; sizeM: [number, number, number] }>;
  sidecar: LoadedRobot['sidecar'];
  problems: LoadedRobot['problems'];
  notes: LoadedRobot['notes'];
  errors: number;
  warnings: number;
}

function armOf(d: RobotDescription, endEffector: string): Report['arm'] {
  const c = chainTo(d, endEffector);
  if (!c) return null;
  const fk = fkReach(d, endEffector);
  const kinds = new Map(d.joints.map((j) => [j.name, j.kind]));
  return {
    endEffector,
    joints: c.joints,
    movingJoints: c.joints.filter((n) => ['revolute', 'continuous', 'prismatic'].includes(kinds.get(n) ?? 'fixed')).length,
    reachM: fk.ok ? round(fk.reachM, 3) : null,
    reachBoundM: round(reach(d, c), 3),
    reachFrom: fk.ok ? fk.from : null,
    reachSamples: fk.ok ? fk.samples : 0,
    reachUnknown: fk.ok ? null : fk.why,
  };
}

function report(r: LoadedRobot, robot: Report['robot'] = null): Report {
  const d = r.description;
  return {
    file: r.file,
    robot,
    name: d?.name ?? null,
    root: d?.root ?? null,
    links: d?.links.map((l) => l.name) ?? [],
    joints: d?.joints ?? [],
    chains: d ? chains(d) : [],
    arm: d && r.extras ? armOf(d, r.extras.endEffector) : null,
    extras: r.extras,
    meshes: [...r.meshes.values()].map((m) => ({
      ref: m.ref,
      file: m.file,
      format: m.mesh.format,
      triangles: m.mesh.triangles,
      sizeM: m.mesh.max.map((v, k) => round(v - m.mesh.min[k]!)) as [number, number, number],
    })),
    sidecar: r.sidecar,
    problems: r.problems,
    notes: r.notes,
    errors: r.problems.filter((p) => p.severity === 'error').length,
    warnings: r.problems.filter((p) => p.severity === 'warning').length,
  };
}

function print(o: Output, rep: Report): void {
  const kinds = new Map<string, number>();
  for (const j of rep.joints) kinds.set(j.kind, (kinds.get(j.kind) ?? 0) + 1);
  o.out(`${rep.name ?? '(no robot)'}  ${rep.file}`);
  o.out(
    `root ${rep.root ?? '(none)'}; ${rep.links.length} links, ${rep.joints.length} joints (${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ') || 'none'})`,
  );
  if (rep.joints.length) {
    o.out('\nJoints:');
    const w = Math.max(...rep.joints.map((j) => j.name.length));
    for (const j of rep.joints)
      o.out(
        `  ${j.name.padEnd(w)}  ${j.kind.padEnd(10)}  ${j.parent} -> ${j.child}  ${limitText(j)}${j.mimic ? `  mimics ${j.mimic.joint} ×${j.mimic.multiplier}${j.mimic.offset ? ` +${j.mimic.offset}` : ''}` : ''}`,
      );
  }
  if (rep.chains.length) {
    o.out('\nChains (root to each leaf):');
    for (const c of rep.chains) o.out(`  ${c.links.join(' > ')}`);
  }
  const arm = rep.arm;
  if (arm)
    o.out(
      `\nArm: ${arm.movingJoints} moving joints to "${arm.endEffector}"; ${
        arm.reachM !== null
          ? `reach ${arm.reachM} m from the first arm joint (${arm.reachFrom}), by forward kinematics over ${arm.reachSamples} joint samples within the limits; at most ${arm.reachBoundM} m by the sum of the offsets`
          : `reach unknown (${arm.reachUnknown}); at most ${arm.reachBoundM} m from the first arm joint by the sum of the offsets`
      }`,
    );
  if (rep.extras) {
    const g = rep.extras.gripper;
    o.out(
      `Gripper: ${g.kind}${g.kind === 'fingers' ? ` (${g.joints.join(', ')})` : g.kind === 'mimic' ? ` (${g.joint})` : ''}; payload ${rep.extras.payloadKg} kg, grip ${rep.extras.gripForceN} N; base ${rep.extras.base}; camera ${rep.extras.cameraLink ?? 'none'}; postures ${Object.keys(rep.extras.postures).join(', ')}`,
    );
  }
  if (rep.meshes.length) {
    o.out('\nMeshes:');
    for (const m of rep.meshes) o.out(`  ${m.ref}  ${m.format}, ${m.triangles} triangles, ${m.sizeM.join(' × ')} m`);
  }
  o.out(
    !rep.sidecar
      ? '\nSidecar: none (a description from the robot has none)'
      : rep.sidecar.found
        ? `\nSidecar: ${rep.sidecar.file}`
        : `\nSidecar: none (${path.basename(rep.sidecar.file)} would be read)`,
  );
  for (const n of rep.notes) o.out(`  default ${n.field}: ${n.note}`);
  o.out(rep.problems.length ? `\nProblems (${rep.errors} errors, ${rep.warnings} warnings):` : '\nNo problems.');
  for (const p of rep.problems) o.out(`  ${p.severity.padEnd(7)}  ${p.element}: ${p.problem}. Fix: ${p.fix}`);
}

export async function robotsCommand(p: Parsed, o: Output): Promise<number> {
  const [sub, file, ...rest] = p.positionals;
  if (sub !== 'check')
    throw new UsageError(
      `robots takes "check FILE" or "check rosbridge --robot ws://HOST:PORT"${sub ? `, not "${sub.slice(0, 40)}"` : ''}: skillbridge robots check robot.urdf`,
    );
  if (file === 'rosbridge') return checkRosbridge(p, o, rest);
  if (file === undefined || rest.length)
    throw new UsageError('robots check takes one URDF or xacro FILE (or "rosbridge --robot ws://HOST:PORT")');
  const dirs = packageDirs(p.flags);
  let loaded: LoadedRobot;
  try {
    loaded = loadRobot(terminalRobotFiles(file, dirs));
  } catch (e) {
    if (e instanceof RobotFileError) throw new UsageError(e.message);
    throw e;
  }
  return show(p, o, report(loaded));
}

function show(p: Parsed, o: Output, rep: Report): number {
  if (p.flags['json']) json(o, rep);
  else print(o, rep);
  return rep.errors ? 1 : 0;
}

/** robots check rosbridge --robot ws://HOST:PORT: the real robot's robot_description, through rosapi. */
async function checkRosbridge(p: Parsed, o: Output, rest: string[]): Promise<number> {
  const given = stringFlag(p.flags, 'robot');
  const dirs = packageDirs(p.flags);
  if (rest.length) throw new UsageError(`robots check rosbridge takes no more arguments, not "${rest[0]!.slice(0, 40)}"`);
  if (given === undefined)
    throw new UsageError(
      'robots check rosbridge needs --robot ws://HOST:PORT: the rosbridge server of the robot whose robot_description to read',
    );
  const url = terminalRosbridgeUrl(given);
  const { fetchRobotDescription, RobotDescriptionError } = await import('../../../robot/rosbridge/robot-description');
  let fetched;
  try {
    fetched = await fetchRobotDescription(url);
  } catch (e) {
    if (e instanceof RobotDescriptionError) throw new UsageError(`--robot: ${e.message}`);
    throw e;
  }
  let loaded: LoadedRobot;
  try {
    loaded = loadRobotText(fetched, terminalRobotPackages(dirs));
  } catch (e) {
    if (e instanceof RobotFileError) throw new UsageError(`--robot: ${e.message}`);
    throw e;
  }
  return show(p, o, report(loaded, { url, ros: fetched.ros, param: fetched.param }));
}
