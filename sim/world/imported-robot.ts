// Puts a robot from a robot description in a scene, in place of the scene's
// own robot and where it stood: a fixed arm on the scene robot's base (its
// pedestal, at its arm mount), a mobile base when the description has a planar
// base joint or its sidecar says so. The scene's robot config keeps only what
// the skills read of an arm (speeds, payload, grip, the gripper's opening and
// finger length, the names of the postures); the arm itself — joints, limits,
// shapes, postures by value — is the description's, behind the kinematics seam.
// Every problem is on its element; nothing falls back to the scene's robot.
import type { ImportedDescription, ResolvedScene } from '../../scenes/resolve';
import type { ArmConfig, RobotConfig } from '../../scenes/schema';
import type { LoadedRobot } from '../../scenes/urdf/load';
import type { Problem } from '../../scenes/urdf/model';
import { deg } from '../math';
import { fromOrigin, identity, mul } from '../body/chain-math';
import { urdfToSim } from '../body/kinematics';
import { type ImportedArm, importArm } from '../body/imported-arm';

/** The description cannot be the scene's robot: every problem, each on its element. */
export class RobotImportError extends Error {
  override name = 'RobotImportError';
  constructor(
    readonly file: string,
    readonly problems: Problem[],
  ) {
    super(`${file}: ${problems.map((p) => `${p.element}: ${p.problem} (${p.fix})`).join('; ')}`);
  }
}

/** Lever of the grip (metres): the finger force times this is the torque it holds before the object twists. */
const GRIP_LEVER = 0.015;

/** The scene with the described robot in place of its own; throws RobotImportError. */
export function withImportedRobot(scene: ResolvedScene, loaded: LoadedRobot): ResolvedScene {
  const { imported, arm } = importable(loaded);
  const robot = robotConfig(scene.robot, arm, imported);
  return { ...scene, robot, imported };
}

/**
 * The description as a robot any scene can take (what does not depend on the scene: its
 * structure, its arm); throws RobotImportError naming every problem. A command that builds
 * many worlds checks this once, before the first.
 */
export function importable(loaded: LoadedRobot): { imported: ImportedDescription; arm: ImportedArm } {
  const errors = loaded.problems.filter((p) => p.severity === 'error');
  if (errors.length || !loaded.description || !loaded.extras) {
    throw new RobotImportError(
      loaded.file,
      errors.length
        ? errors
        : [
            {
              element: 'robot',
              problem: 'the description could not be read',
              fix: 'run "skillbridge robots check FILE"',
              severity: 'error',
            },
          ],
    );
  }
  const imported: ImportedDescription = { description: loaded.description, extras: loaded.extras, meshes: loaded.meshes };
  const r = importArm(imported.description, imported.extras, imported.meshes);
  if (!r.ok) throw new RobotImportError(loaded.file, r.problems);
  return { imported, arm: r.arm };
}

function robotConfig(own: RobotConfig, arm: ImportedArm, im: ImportedDescription): RobotConfig {
  const x = im.extras;
  const k = arm.kinematics;
  const reach = k.reach;
  const postures: ArmConfig['postures'] = {};
  // Postures by value live in the kinematics (one value per joint); here only their names.
  for (const name of Object.keys(k.postures)) postures[name] = [NaN, NaN, NaN, NaN, NaN];
  const limit = (i: number): [number, number] => {
    const l = k.limits[i];
    return l ? [Math.max(-360, deg(l[0])), Math.min(360, deg(l[1]))] : [0, 0];
  };
  const planar = im.description.joints.find((j) => j.parent === im.description.root && (j.kind === 'planar' || j.kind === 'floating'));
  const baseLink = im.description.links.find((l) => l.name === arm.base);
  const box = baseLink?.collisions.find((c) => c.geometry.kind === 'box')?.geometry;
  const config: ArmConfig = {
    // A planar base joint stands the arm's base where the joint's origin is; a fixed arm stands on the scene robot's mount.
    mount: planar ? [planar.origin.xyz[0], planar.origin.xyz[2], -planar.origin.xyz[1]] : (own.arm?.mount ?? [0, own.base.size[1], 0]),
    shoulderHeight: k.shoulder.y,
    // The built-in arm's segment lengths do not exist for a chain: they add up to its reach.
    upperArm: reach * 0.4,
    forearm: reach * 0.4,
    hand: reach * 0.2,
    linkRadius: 0.03,
    limits: { yaw: limit(0), shoulder: limit(1), elbow: limit(2), wristPitch: limit(3), wristRoll: limit(4) },
    maxJointSpeed: deg(x.speed.jointRadPerS),
    maxToolSpeed: x.speed.toolMPerS,
    payloadKg: x.payloadKg,
    gripTorqueNm: x.gripForceN * GRIP_LEVER,
    gripperMaxOpening: arm.maxOpening,
    fingerLength: arm.fingerLength,
    postures,
    color: own.arm?.color ?? '#c8c8c8',
  };
  const mobile = x.base === 'planar' || (x.base === 'from-config' && own.kind !== 'fixed_arm');
  return {
    id: im.description.name,
    title: im.description.name,
    kind: mobile ? 'mobile_manipulator' : 'fixed_arm',
    description: `${im.description.name}, from its robot description (${k.jointNames.length} arm joints, about ${reach.toFixed(2)} m reach).`,
    // A planar base's footprint from its base link's box ([length, height, width], the sim's axes).
    base: {
      ...own.base,
      maxSpeed: x.speed.baseMPerS,
      ...(planar && box?.kind === 'box' ? { size: [box.size[0], box.size[2], box.size[1]] as [number, number, number] } : {}),
    },
    arm: config,
    camera: cameraOf(own, im, arm.base, config.mount),
    // No battery in the sidecar: one that never runs down.
    battery: x.battery
      ? { ...x.battery, scanWh: own.battery.scanWh }
      : { capacityWh: own.battery.capacityWh, idleW: 0, driveWhPerM: 0, armW: 0, scanWh: 0, chargeW: own.battery.chargeW },
  };
}

/**
 * The sidecar's camera link, when fixed joints join it to the arm's base: a head
 * camera there (its field of view and range the scene robot's). A camera on the
 * moving arm, or none named, leaves the scene robot's camera.
 */
function cameraOf(own: RobotConfig, im: ImportedDescription, base: string, mount: readonly number[]): RobotConfig['camera'] {
  const link = im.extras.cameraLink;
  if (!link) return own.camera;
  const byChild = new Map(im.description.joints.map((j) => [j.child, j]));
  const path = [];
  for (let at = link; at !== base;) {
    const j = byChild.get(at);
    if (!j || j.kind !== 'fixed') return own.camera;
    path.unshift(j);
    at = j.parent;
  }
  let t = identity();
  let pitch = 0;
  for (const j of path) {
    t = mul(t, fromOrigin(j.origin), new Float64Array(12));
    pitch += j.origin.rpy[1];
  }
  const p = urdfToSim([t[3]!, t[7]!, t[11]!]);
  return {
    ...own.camera,
    mount: 'head',
    position: [mount[0]! + p.x, mount[1]! + p.y, mount[2]! + p.z],
    // URDF's pitch turns +X toward -Z (down) for a positive angle; the config's pitch is negative looking down.
    pitch: -deg(pitch),
  };
}
