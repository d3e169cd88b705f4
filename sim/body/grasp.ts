// A grasp is a force-limited spring between the tool centre point and the point
// of the object the fingers closed on. The fingers can only push so hard
// (payload) and resist so much twist (grip torque): an object that is too heavy,
// or whose weight pulls round the grasp point once the hand tilts, slips out by
// itself in the physics. No rule decides that; the numbers do.
import { type Pose, type Quat, type Vec3, add, cross, length, qConj, qError, qMul, rotate, scale, sub } from '../math';
import type { RAPIER } from '../rapier';

const G = 9.81;

export interface GraspLimits {
  payloadKg: number;
  gripTorqueNm: number;
}

export interface SlipReport {
  object: string;
  kind: 'force' | 'torque';
  /** Force (N) or torque (Nm) the grasp needed when it gave way. */
  needed: number;
  limit: number;
  massKg: number;
}

export interface GraspState {
  objectId: string;
  body: number;
  pointLocal: Vec3;
  relQ: Quat;
  limits: GraspLimits;
  width: number;
}

export class Grasp {
  private readonly maxForce: number;
  private readonly maxTorque: number;
  private peakForce = 0;
  private peakTorque = 0;
  /** Consecutive steps spent beyond a limit. */
  private strained = 0;

  /** Closes on an object: remembers where on the object the fingers are. */
  static close(objectId: string, body: number, tcp: Pose, objectPose: Pose, limits: GraspLimits, width: number): Grasp {
    return new Grasp({
      objectId,
      body,
      pointLocal: rotate(qConj(objectPose.q), sub(tcp.p, objectPose.p)),
      relQ: qMul(qConj(tcp.q), objectPose.q),
      limits,
      width,
    });
  }

  constructor(readonly state: GraspState) {
    // The fingers hold the rated payload with headroom for the arm's accelerations.
    this.maxForce = state.limits.payloadKg * G * 1.15;
    this.maxTorque = state.limits.gripTorqueNm;
  }

  get objectId(): string {
    return this.state.objectId;
  }

  get body(): number {
    return this.state.body;
  }

  private get pointLocal(): Vec3 {
    return this.state.pointLocal;
  }

  private get relQ(): Quat {
    return this.state.relQ;
  }

  /**
   * Pulls the object toward the hand for one step. Returns a slip report when the
   * object has broken free (the grasp is then over).
   */
  apply(world: RAPIER.World, tcp: Pose, tcpVel: Vec3, dt: number): SlipReport | undefined {
    const b = world.getRigidBody(this.body);
    const p = b.translation();
    const q = b.rotation();
    const m = b.mass();
    const point = add(p, rotate(q, this.pointLocal));
    const com = b.worldCom();
    const v = b.linvel();
    const w = b.angvel();
    const pointVel = add(v, cross(w, sub(point, com)));
    const err = sub(tcp.p, point);
    // Critically damped spring, stiff enough to track the hand within millimetres.
    const k = 2500 * m;
    const c = 2 * Math.sqrt(k * m) * 0.8;
    const wanted = add(scale(err, k), scale(sub(tcpVel, pointVel), c));
    const need = length(wanted);
    const force = need > this.maxForce ? scale(wanted, this.maxForce / need) : wanted;
    const targetQ = qMul(tcp.q, this.relQ);
    const angErr = qError(targetQ, q);
    const inertia = Math.max(m * 0.004, 1e-5);
    // Stiff enough that a grip holding its rated torque twists only ~0.1 rad:
    // the torque limit, not the spring's softness, decides when it slips.
    const kr = Math.max(400 * inertia, 10 * this.maxTorque);
    const cr = 2 * Math.sqrt(kr * inertia) * 0.8;
    // Per principal axis, the gains are capped so one explicit step stays stable:
    // a slender spoon has a tiny inertia about its long axis, and uncapped gains
    // would flick it out of the fingers.
    const frame = b.principalInertiaLocalFrame();
    const toPrincipal = qConj(qMul(q, frame));
    const moments = b.principalInertia();
    const e = rotate(toPrincipal, angErr);
    const wl = rotate(toPrincipal, w);
    const axis = (ei: number, wi: number, Ii: number): number => {
      const I = Math.max(Ii, 1e-9);
      return ei * Math.min(kr, (0.25 * I) / (dt * dt)) - wi * Math.min(cr, (0.5 * I) / dt);
    };
    const torqueWanted = rotate(qMul(q, frame), {
      x: axis(e.x, wl.x, moments.x),
      y: axis(e.y, wl.y, moments.y),
      z: axis(e.z, wl.z, moments.z),
    });
    // Holding the weight away from the grasp point needs torque too: the spring
    // force acts at the grasp point, so gravity about it shows up as angle error.
    const tNeed = length(torqueWanted);
    const torque = tNeed > this.maxTorque ? scale(torqueWanted, this.maxTorque / tNeed) : torqueWanted;
    b.applyImpulseAtPoint(scale(force, dt), point, true);
    b.applyTorqueImpulse(scale(torque, dt), true);
    this.peakForce = Math.max(this.peakForce * 0.98, need);
    this.peakTorque = Math.max(this.peakTorque * 0.98, tNeed);
    const drift = length(err);
    const twist = length(angErr);
    if (drift > 0.025 || twist > 0.5) this.strained++;
    else this.strained = 0;
    // A few steps beyond the limits: the object has left the fingers.
    if (this.strained > 6) {
      const byTorque = twist > 0.5 && drift <= 0.025;
      return {
        object: this.objectId,
        kind: byTorque ? 'torque' : 'force',
        needed: byTorque ? this.peakTorque : this.peakForce,
        limit: byTorque ? this.maxTorque : this.maxForce,
        massKg: m,
      };
    }
    return undefined;
  }

  /** How far the held object sits from where the fingers should hold it. */
  drift(world: RAPIER.World, tcp: Pose): number {
    const b = world.getRigidBody(this.body);
    const point = add(b.translation(), rotate(b.rotation(), this.pointLocal));
    return length(sub(tcp.p, point));
  }
}

/**
 * A slip in words, with numbers that agree with its kind: the force or torque
 * the grasp needed against what the fingers hold, and the weight for scale. A
 * slip whose peak stayed under the limit was pulled out (something held the
 * object back), and says so rather than quote numbers that contradict it.
 */
export function slipReason(s: SlipReport): string {
  if (s.kind === 'torque') {
    return s.needed > s.limit
      ? `it twisted out of the fingers: holding it needed about ${s.needed.toFixed(2)} Nm but the grip holds ${s.limit.toFixed(2)} Nm`
      : 'it twisted out of the fingers: something turned it against the grip';
  }
  return s.needed > s.limit
    ? `it slipped from the fingers: holding it took about ${s.needed.toFixed(1)} N (it weighs ${(s.massKg * 9.81).toFixed(1)} N) but the fingers hold ${s.limit.toFixed(1)} N`
    : 'it was pulled out of the fingers: something held it back as the arm moved';
}
