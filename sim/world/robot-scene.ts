// The robot in the physical scene: its body (base, arm links, fingers), the
// controllers that drive it, its battery and the grasp that binds a held object
// to the fingers. SimWorld adds time, events and the belief on top.
import type { ResolvedScene } from '../../scenes/resolve';
import type { Battery } from '../body/battery';
import type { Grasp, SlipReport } from '../body/grasp';
import type { Kinematics } from '../body/kinematics';
import type { BodyLinks, LinkPoses } from '../body/links';
import type { ArmMotion, BaseMotion, ScalarTrack } from '../body/motion';
import { GROUPS } from '../groups';
import type { Pose } from '../math';
import type { Rapier } from '../rapier';
import { Controllers } from './controllers';
import { PhysicsScene } from './physics-scene';
import { buildRobot } from './robot-body';
import type { BodyState } from './types';

export class RobotScene extends PhysicsScene {
  readonly bodyLinks: BodyLinks;
  readonly body: BodyState;
  readonly battery: Battery;
  /** The arm's kinematics (the built-in 5-DoF arm or a chain from a robot description); undefined without an arm. */
  readonly kinematics: Kinematics | undefined;
  grasp: Grasp | undefined;
  /** The last slip, so the skill that was running can report it. */
  lastSlip: SlipReport | undefined;
  protected readonly ctl: Controllers;

  protected constructor(R: Rapier, scene: ResolvedScene, dt: number) {
    super(R, scene, dt);
    const arm = scene.robot.arm;
    this.ctl = new Controllers(arm ? (arm.maxJointSpeed * Math.PI) / 180 : Infinity);
    const robot = buildRobot(R, this.world, scene);
    this.bodyLinks = robot.links;
    this.body = robot.body;
    this.battery = robot.battery;
    this.kinematics = robot.kinematics;
  }

  isHeld(id: string): boolean {
    return this.grasp?.objectId === id;
  }

  /** The held object's id (a method, so callers re-read it after awaiting motion). */
  heldId(): string | undefined {
    return this.grasp?.objectId;
  }

  /** Tool centre point and finger poses now. */
  links(): LinkPoses | undefined {
    if (!this.body.q) return undefined;
    return this.bodyLinks.partPoses(this.body.basePose, this.body.q, this.body.opening);
  }

  tcp(): Pose | undefined {
    if (!this.body.q) return undefined;
    return this.bodyLinks.tcpPose(this.body.basePose, this.body.q);
  }

  // ---------------------------------------------------------------- control

  setArmMotion(m: ArmMotion | undefined): void {
    this.ctl.arm = m;
  }

  setBaseMotion(m: BaseMotion | undefined): void {
    this.ctl.base = m;
  }

  setGripperMotion(m: ScalarTrack | undefined): void {
    this.ctl.gripper = m;
  }

  setDoorMotion(id: string, m: ScalarTrack): void {
    this.ctl.doors.set(id, m);
  }

  get armBusy(): boolean {
    return this.ctl.armBusy;
  }

  get baseBusy(): boolean {
    return this.ctl.baseBusy;
  }

  get gripperBusy(): boolean {
    return this.ctl.gripperBusy;
  }

  doorBusy(id: string): boolean {
    return this.ctl.doorBusy(id);
  }

  /** Stops every controller where it is (after an interrupt). */
  halt(): void {
    this.ctl.halt();
  }

  releaseGrasp(): string | undefined {
    const g = this.grasp;
    if (!g) return undefined;
    this.grasp = undefined;
    this.version++;
    const e = this.entities.get(g.objectId);
    if (e) for (const c of e.colliders) this.world.getCollider(c).setCollisionGroups(GROUPS.object);
    return g.objectId;
  }

  attachGrasp(g: Grasp): void {
    this.grasp = g;
    this.version++;
    this.lastSlip = undefined;
    const e = this.entity(g.objectId);
    for (const c of e.colliders) this.world.getCollider(c).setCollisionGroups(GROUPS.held);
  }
}
