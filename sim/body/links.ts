// The robot's physical body: a kinematic base and, when it has one, an arm of
// kinematic links (turret, upper arm, forearm, hand, two fingers). Links are
// driven by our own kinematics each step, so they push objects they sweep
// through and report where they are; they never drift.
import type { RobotConfig } from '../../scenes/schema';
import { type Pose, type Quat, type Vec3, add, poseApply, poseMul, qMul, rotate, v3 } from '../math';
import type { Rapier, RAPIER } from '../rapier';
import { GROUPS } from '../groups';
import { type ArmFk, type ArmGeometry, type Joints, armGeometry, forwardKinematics } from './arm-kinematics';
import { FRAME, fingerFrames, frameAt, frameScratch, linkFrames } from './link-frames';
import { ChainLinks, type PartPoses } from './chain-links';
import type { ImportedArm } from './imported-arm';
import type { JointValues } from './kinematics';

export const FINGER_THICKNESS = 0.012;

/** The same parts for the built-in arm and an imported chain. */
export type LinkPoses = PartPoses;

export interface ArmBodies {
  turret: number;
  upper: number;
  fore: number;
  hand: number;
  fingerA: number;
  fingerB: number;
}

export class BodyLinks {
  readonly geometry: ArmGeometry | undefined;
  readonly base: number;
  readonly arm: ArmBodies | undefined;
  /** Collider handles that belong to the robot (queries exclude them). */
  readonly colliders = new Set<number>();
  readonly mount: Pose;
  /** The links of an arm from a robot description (then `geometry` is undefined). */
  readonly chain: ChainLinks | undefined;
  /** Bodies of an imported arm's links beyond the built-in arm's parts (wrists, flange): arm, not base. */
  readonly armExtras = new Set<number>();

  constructor(
    R: Rapier,
    public world: RAPIER.World,
    readonly config: RobotConfig,
    basePose: Pose,
    imported?: ImportedArm,
  ) {
    const [bx, by, bz] = config.base.size;
    const base = world.createRigidBody(
      R.RigidBodyDesc.kinematicPositionBased().setTranslation(basePose.p.x, basePose.p.y, basePose.p.z).setRotation(basePose.q),
    );
    this.base = base.handle;
    this.addCollider(R.ColliderDesc.cuboid(bx / 2, by / 2, bz / 2).setTranslation(0, by / 2, 0), base, GROUPS.base);
    const arm = config.arm;
    this.mount = { p: arm ? v3(...arm.mount) : v3(), q: { x: 0, y: 0, z: 0, w: 1 } };
    if (!arm) return;
    if (imported) {
      const c = new ChainLinks(R, world, imported, basePose, (d, b) => this.addCollider(d, b, GROUPS.arm));
      this.chain = c;
      const part = (name: string) => c.bodies.get(name)!;
      this.arm = {
        turret: part(imported.parts.turret),
        upper: part(imported.parts.upper),
        fore: part(imported.parts.fore),
        hand: part(imported.gripperLink),
        fingerA: c.fingerBodies[0],
        fingerB: c.fingerBodies[1],
      };
      const named = new Set(Object.values(this.arm));
      for (const b of c.bodies.values()) if (!named.has(b)) this.armExtras.add(b);
      return;
    }
    this.geometry = armGeometry(arm);
    const g = this.geometry;
    const r = arm.linkRadius;
    const kin = (): RAPIER.RigidBody =>
      world.createRigidBody(R.RigidBodyDesc.kinematicPositionBased().setTranslation(basePose.p.x, basePose.p.y, basePose.p.z));
    const turret = kin();
    this.addCollider(R.ColliderDesc.cylinder(g.shoulderHeight / 2, r * 1.4).setTranslation(0, g.shoulderHeight / 2, 0), turret, GROUPS.arm);
    const upper = kin();
    this.addCollider(R.ColliderDesc.capsule(g.upperArm / 2, r).setTranslation(0, g.upperArm / 2, 0), upper, GROUPS.arm);
    const fore = kin();
    this.addCollider(R.ColliderDesc.capsule(g.forearm / 2, r * 0.85).setTranslation(0, g.forearm / 2, 0), fore, GROUPS.arm);
    const hand = kin();
    const palmY = this.palmOffset();
    this.addCollider(R.ColliderDesc.capsule(palmY / 2, r * 0.7).setTranslation(0, palmY / 2, 0), hand, GROUPS.arm);
    this.addCollider(
      R.ColliderDesc.cuboid(0.025, 0.012, arm.gripperMaxOpening / 2 + FINGER_THICKNESS).setTranslation(0, palmY, 0),
      hand,
      GROUPS.arm,
    );
    const fl = arm.fingerLength;
    const finger = (): RAPIER.RigidBody => {
      const b = kin();
      this.addCollider(R.ColliderDesc.cuboid(0.01, fl / 2, FINGER_THICKNESS / 2), b, GROUPS.arm);
      return b;
    };
    this.arm = {
      turret: turret.handle,
      upper: upper.handle,
      fore: fore.handle,
      hand: hand.handle,
      fingerA: finger().handle,
      fingerB: finger().handle,
    };
  }

  private addCollider(desc: RAPIER.ColliderDesc, body: RAPIER.RigidBody, group: number): void {
    const c = this.world.createCollider(desc.setCollisionGroups(group).setFriction(1.0), body);
    this.colliders.add(c.handle);
  }

  /** Distance from the wrist axis to the palm face, along the hand. */
  palmOffset(): number {
    const arm = this.config.arm!;
    return Math.max(0.02, arm.hand - arm.fingerLength * 0.75);
  }

  /** Poses of every arm link in the world, for a base pose, joints and finger opening. */
  linkPoses(basePose: Pose, q: Joints, opening: number): { links: LinkPoses; fk: ArmFk } {
    const g = this.geometry!;
    const arm = this.config.arm!;
    const fk = forwardKinematics(g, q);
    const mountW = poseMul(basePose, this.mount);
    const w = (p: Vec3, rot: Quat): Pose => ({ p: poseApply(mountW, p), q: qMul(mountW.q, rot) });
    const hand = w(fk.wrist, fk.toolQ);
    // Fingers span from 75% of their length behind the TCP to 25% past it.
    const fingerCentre = arm.hand - arm.fingerLength * 0.25;
    const side = opening / 2 + FINGER_THICKNESS / 2;
    const fingerAt = (s: number): Pose => ({
      p: add(hand.p, rotate(hand.q, v3(0, fingerCentre, s))),
      q: hand.q,
    });
    return {
      fk,
      links: {
        turret: w(v3(0, 0, 0), fk.yawQ),
        upper: w(fk.shoulder, fk.upperQ),
        fore: w(fk.elbow, fk.foreQ),
        hand,
        fingerA: fingerAt(side),
        fingerB: fingerAt(-side),
        tcp: w(fk.tcp, fk.toolQ),
      },
    };
  }

  /** Every part's world pose for a base pose, joints and opening: the built-in arm's linkPoses, or the chain's. */
  partPoses(basePose: Pose, q: JointValues, opening: number): LinkPoses {
    if (this.chain) return this.chain.poses(this.mountPose(basePose), q, opening).parts;
    return this.linkPoses(basePose, q as Joints, opening).links;
  }

  /** Scratch for the link poses of one step (link-frames.ts). */
  private readonly frames = frameScratch();

  /**
   * The base pose and joints `frames` holds the arm's links for (their objects: a
   * move makes new ones). A held object's grasp asks for the tool centre point
   * every step, moving or not, and a step that moves only the fingers keeps the
   * rest: while these are the same, so are those frames.
   */
  private framesBase: Pose | undefined;
  private framesQ: JointValues | undefined;

  /** The tool centre point's pose for a base pose and joints (linkPoses(...).links.tcp, bit for bit); a new object. */
  tcpPose(basePose: Pose, q: JointValues): Pose {
    if (this.chain) return poseMul(this.mountPose(basePose), this.chain.arm.kinematics.tool(q));
    if (this.framesBase !== basePose || this.framesQ !== q) this.fillFrames(basePose, q, 0);
    return frameAt(this.frames, 'tcp');
  }

  private fillFrames(basePose: Pose, q: JointValues, opening: number): void {
    linkFrames(this.frames, this.geometry!, this.config.arm!, FINGER_THICKNESS, basePose, this.mount, q as Joints, opening);
    this.framesBase = basePose;
    this.framesQ = q;
  }

  /**
   * Moves every link to its pose: next-step targets while simulating, or a
   * teleport. Called every step the robot moves, so it allocates nothing; the
   * tool centre point it placed is tcpPose's for the same base pose and joints.
   */
  apply(basePose: Pose, q: JointValues | undefined, opening: number, teleport = false): void {
    const { p, q: r } = basePose;
    this.put(this.base, p.x, p.y, p.z, r.x, r.y, r.z, r.w, teleport);
    if (!this.arm || !q) return;
    if (this.chain) {
      for (const [h, w] of this.chain.poses(this.mountPose(basePose), q, opening).bodies)
        this.put(h, w.p.x, w.p.y, w.p.z, w.q.x, w.q.y, w.q.z, w.q.w, teleport);
      return;
    }
    const f = this.frames;
    if (this.framesBase === basePose && this.framesQ === q) fingerFrames(f, this.config.arm!, FINGER_THICKNESS, opening);
    else this.fillFrames(basePose, q, opening);
    const arm = this.arm;
    this.putFrame(arm.turret, FRAME.turret, teleport);
    this.putFrame(arm.upper, FRAME.upper, teleport);
    this.putFrame(arm.fore, FRAME.fore, teleport);
    this.putFrame(arm.hand, FRAME.hand, teleport);
    this.putFrame(arm.fingerA, FRAME.fingerA, teleport);
    this.putFrame(arm.fingerB, FRAME.fingerB, teleport);
  }

  private putFrame(handle: number, i: number, teleport: boolean): void {
    const f = this.frames;
    this.put(handle, f[i]!, f[i + 1]!, f[i + 2]!, f[i + 3]!, f[i + 4]!, f[i + 5]!, f[i + 6]!, teleport);
  }

  /** One body's pose: its next kinematic target (what RigidBody.setNextKinematic* call), or set at once. */
  private put(handle: number, x: number, y: number, z: number, qx: number, qy: number, qz: number, qw: number, teleport: boolean): void {
    if (teleport) {
      const b = this.world.getRigidBody(handle);
      b.setTranslation({ x, y, z }, true);
      b.setRotation({ x: qx, y: qy, z: qz, w: qw }, true);
      return;
    }
    const raw = this.world.bodies.raw;
    raw.rbSetNextKinematicTranslation(handle, x, y, z);
    raw.rbSetNextKinematicRotation(handle, qx, qy, qz, qw);
  }

  /** Mount frame in the world for a base pose (IK targets are expressed in it). */
  mountPose(basePose: Pose): Pose {
    return poseMul(basePose, this.mount);
  }
}

export { armGeometry };
