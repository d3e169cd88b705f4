// Skills that change object states: open and close (the hand follows the door
// handle along its arc; if the arc leaves the arm's reach the door stops there),
// switch on and off (the hand presses the appliance's button), and slice (a
// knife in the hand cuts down onto the food). Preconditions follow RAIDER's
// action model (paper 001, Table B.3) and are checked against the world.
import { type Aabb, type Vec3, aabbCenter, add, dist, normalize, poseApply, qYaw, rotate, round, scale, v3 } from '../math';
import { QUINTIC_PEAK, SampledMotion, SampledScalar, smooth } from '../body/motion';
import type { JointValues } from '../body/kinematics';
import { doorPose } from '../world/build';
import { type Entity, primitiveAabb, unionAll } from '../world/entity';
import { SkillInterrupt, type SimWorld } from '../world/sim-world';
import { MotionFailure, describeIk, moveJoints, moveLine, movePosture, shoulderWorld, solve } from './arm';
import { armPreconditions, displayName, interruptOutcome, observationProblem } from './common';
import { type SkillOptions, type SkillOutcome, claims, failure, success } from './outcome';
import { believedGeo, believedGeos } from '../perception/believed';
import { look } from '../perception/observe';
import { containerOf } from '../perception/relations';
import { tracked } from './incidents';

const HORIZONTAL = Math.PI / 2;
/** A door opened more than this share of its travel is open (not shut). */
const OPEN_GAP = 0.05;

/** Grip points on the door (door-body frame): near its free edge, one on each face. */
function handleFaces(e: Entity): Vec3[] {
  const door = e.door!;
  const b = door.localAabb;
  const faces: Vec3[] = [];
  const cy = (b.min.y + b.max.y) / 2;
  if (door.kind === 'hinge') {
    // Free edge: the end of the door farthest from the hinge (origin).
    const farX = Math.abs(b.min.x) > Math.abs(b.max.x) ? b.min.x * 0.85 : b.max.x * 0.85;
    const farZ = Math.abs(b.min.z) > Math.abs(b.max.z) ? b.min.z * 0.85 : b.max.z * 0.85;
    const thinX = b.max.x - b.min.x < b.max.z - b.min.z;
    if (thinX) faces.push(v3(b.min.x - 0.02, cy, farZ), v3(b.max.x + 0.02, cy, farZ));
    else faces.push(v3(farX, cy, b.min.z - 0.02), v3(farX, cy, b.max.z + 0.02));
  } else {
    const c = aabbCenter(b);
    faces.push(v3(b.min.x - 0.02, c.y, c.z), v3(b.max.x + 0.02, c.y, c.z), v3(c.x, c.y, b.min.z - 0.02), v3(c.x, c.y, b.max.z + 0.02));
  }
  return faces;
}

/** The face of the door toward the robot at this opening. */
function nearestFace(sim: SimWorld, e: Entity, value: number): number {
  const pose = doorPose(sim.pose(e.id), e.door!, value);
  const robot = sim.body.basePose.p;
  const faces = handleFaces(e);
  let best = 0;
  for (let i = 1; i < faces.length; i++) {
    if (dist(poseApply(pose, faces[i]!), robot) < dist(poseApply(pose, faces[best]!), robot)) best = i;
  }
  return best;
}

/**
 * The point of the door the hand grips at an opening value, on one face. The
 * hand keeps the face it took at the start for the whole swing: switching to
 * whichever face is nearer as the door turns would pass the hand through it.
 */
function handlePoint(sim: SimWorld, e: Entity, value: number, face: number): Vec3 {
  return poseApply(doorPose(sim.pose(e.id), e.door!, value), handleFaces(e)[face]!);
}

/** Direction from a point back toward the robot, on the floor plane. */
function towardRobot(sim: SimWorld, p: Vec3): Vec3 {
  const s = shoulderWorld(sim);
  return normalize(v3(s.x - p.x, 0, s.z - p.z));
}

function stateProblem(sim: SimWorld, e: Entity, want: 'open' | 'closed'): SkillOutcome | undefined {
  const name = displayName(sim, e.id);
  if (!e.spec.properties.openable) return failure('not_openable', `${name} cannot be opened or closed`);
  if (want === 'open' && e.states.open) return failure('already_done', `${name} is already open`);
  if (want === 'closed' && !e.states.open) return failure('already_done', `${name} is already closed`);
  if (sim.grasp)
    return failure(
      'hand_full',
      `the hand holds ${sim.grasp.objectId}; it needs a free hand to ${want === 'open' ? 'open' : 'close'} ${name}`,
    );
  return undefined;
}

async function runSetOpen(sim: SimWorld, id: string, open: boolean, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  const e = sim.entity(id);
  const name = displayName(sim, id);
  const bad = stateProblem(sim, e, open ? 'open' : 'closed');
  if (bad) return bad;
  if (!e.door) {
    // Openable without a moving part (a laptop lid): a state change within reach of where the robot saw it.
    look(sim);
    const unseen = observationProblem(sim, id);
    if (unseen) return unseen;
    const reach = reachProblem(sim, aabbCenter(believedGeo(sim, id).box), name);
    if (reach) return reach;
    e.states.open = open;
    return success(`${open ? 'opened' : 'closed'} ${name}`, claims({ kind: 'state', object: id, state: 'open', value: open }));
  }
  const door = e.door;
  const from = door.value;
  const to = open ? door.openValue : 0;
  const face = nearestFace(sim, e, from);
  const grip = handlePoint(sim, e, from, face);
  const back = towardRobot(sim, grip);
  const approach = add(grip, scale(back, 0.1));
  const first = solve(sim, { position: grip, pitch: HORIZONTAL, roll: 0 });
  if (!first.ok)
    return failure('out_of_reach', `cannot reach the handle of ${name}: ${describeIk(first.failure, `the handle of ${name}`)}`);
  const before = solve(sim, { position: approach, pitch: HORIZONTAL, roll: 0 });
  if (!before.ok)
    return failure('out_of_reach', `cannot reach the handle of ${name}: ${describeIk(before.failure, `the handle of ${name}`)}`);
  // Follow the handle along the door's arc; stop where the arm cannot follow.
  const speed = door.kind === 'hinge' ? Math.PI / 3 : 0.25;
  const duration = Math.max(0.5, (Math.abs(to - from) / speed) * QUINTIC_PEAK);
  const n = Math.ceil(duration / sim.dt);
  const armSamples: JointValues[] = [];
  const doorSamples: number[] = [];
  for (let i = 1; i <= n; i++) {
    const v = from + (to - from) * smooth(i / n);
    const r = solve(sim, { position: handlePoint(sim, e, v, face), pitch: HORIZONTAL, roll: 0 });
    if (!r.ok) break;
    armSamples.push(r.joints);
    doorSamples.push(v);
  }
  try {
    await moveJoints(sim, before.joints, opts);
    await moveLine(sim, { position: grip, pitch: HORIZONTAL, roll: 0 }, `the handle of ${name}`, opts);
    if (armSamples.length) {
      const arm = new SampledMotion(armSamples);
      const doorMotion = new SampledScalar(doorSamples);
      sim.setArmMotion(arm);
      sim.setDoorMotion(id, doorMotion);
      await sim.runUntil(() => !sim.armBusy && doorMotion.done, opts);
    }
    const end = door.value;
    const fraction = door.openValue ? end / door.openValue : 0;
    // Open means not shut: a door ajar is open, though perhaps not enough to reach in.
    e.states.open = fraction > OPEN_GAP;
    const retreat = add(sim.tcp()!.p, scale(towardRobot(sim, sim.tcp()!.p), 0.12));
    try {
      await moveLine(sim, { position: retreat, pitch: HORIZONTAL, roll: 0 }, 'the retreat', opts);
    } catch (err) {
      if (!(err instanceof MotionFailure)) throw err;
    }
    await movePosture(sim, 'home', opts);
    const reached = Math.abs(end - to) < 1e-3;
    if (!reached) {
      return failure(
        'out_of_reach',
        `${name} ${open ? 'opened' : 'closed'} only part of the way: the handle left the arm's reach along the door's swing; it is ${round(fraction * 100, 0)}% open${e.states.open ? '' : ', which counts as closed'}`,
        { openFraction: round(fraction, 2) },
      );
    }
    return success(`${open ? 'opened' : 'closed'} ${name}`, {
      openFraction: round(fraction, 2),
      ...claims({ kind: 'state', object: id, state: 'open', value: open }),
    });
  } catch (err) {
    if (err instanceof SkillInterrupt) {
      const fraction = door.openValue ? door.value / door.openValue : 0;
      e.states.open = fraction > OPEN_GAP;
      return interruptOutcome(sim, err, `${open ? 'opening' : 'closing'} ${name} (now ${round(fraction * 100, 0)}% open)`);
    }
    if (err instanceof MotionFailure) return failure('out_of_reach', `cannot reach the handle of ${name}: ${err.message}`);
    throw err;
  }
}

function reachProblem(sim: SimWorld, p: Vec3, what: string): SkillOutcome | undefined {
  for (const pitch of [HORIZONTAL, (2 * Math.PI) / 3, (3 * Math.PI) / 4, Math.PI]) {
    if (solve(sim, { position: p, pitch }).ok) return undefined;
  }
  const r = solve(sim, { position: p, pitch: HORIZONTAL });
  return failure('out_of_reach', r.ok ? `cannot reach ${what}` : describeIk(r.failure, what));
}

/** The button: middle of the face toward the robot, three quarters up. */
function buttonPoint(sim: SimWorld, id: string): { press: Vec3; before: Vec3; pitch: number } {
  const box: Aabb = sim.aabb(id);
  const c = aabbCenter(box);
  const dir = towardRobot(sim, c);
  const half = v3((box.max.x - box.min.x) / 2, 0, (box.max.z - box.min.z) / 2);
  const reachOut = Math.abs(dir.x) * half.x + Math.abs(dir.z) * half.z;
  const y = box.min.y + (box.max.y - box.min.y) * 0.75;
  const face = add(v3(c.x, y, c.z), scale(dir, reachOut));
  return { press: add(face, scale(dir, -0.01)), before: add(face, scale(dir, 0.06)), pitch: HORIZONTAL };
}

async function runSetSwitch(sim: SimWorld, id: string, on: boolean, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  const e = sim.entity(id);
  const name = displayName(sim, id);
  if (!e.spec.properties.toggleable) return failure('not_toggleable', `${name} cannot be switched on or off`);
  if (e.states.on === on) return failure('already_done', `${name} is already ${on ? 'on' : 'off'}`);
  if (sim.grasp) return failure('hand_full', `the hand holds ${sim.grasp.objectId}; it needs a free hand to press the switch of ${name}`);
  if (on && e.door && e.spec.receptacle?.enclosed && e.states.open) {
    return failure('blocked', `${name} is open; close its door before switching it on`);
  }
  const b = buttonPoint(sim, id);
  let pitch = b.pitch;
  let ok = solve(sim, { position: b.before, pitch, roll: 0 });
  if (!ok.ok) {
    for (const p of [(2 * Math.PI) / 3, (3 * Math.PI) / 4]) {
      const r = solve(sim, { position: b.before, pitch: p, roll: 0 });
      if (r.ok && solve(sim, { position: b.press, pitch: p, roll: 0 }).ok) {
        ok = r;
        pitch = p;
        break;
      }
    }
  }
  if (!ok.ok) return failure('out_of_reach', `cannot reach the switch of ${name}: ${describeIk(ok.failure, `the switch of ${name}`)}`);
  try {
    await moveJoints(sim, ok.joints, opts);
    await moveLine(sim, { position: b.press, pitch, roll: 0 }, `the switch of ${name}`, opts);
    e.states.on = on;
    await moveLine(sim, { position: b.before, pitch, roll: 0 }, `the switch of ${name}`, opts);
    await movePosture(sim, 'home', opts);
  } catch (err) {
    if (err instanceof SkillInterrupt) return interruptOutcome(sim, err, `switching ${name} ${on ? 'on' : 'off'}`);
    if (err instanceof MotionFailure) return failure('out_of_reach', `cannot reach the switch of ${name}: ${err.message}`);
    throw err;
  }
  return success(`switched ${name} ${on ? 'on' : 'off'}`, claims({ kind: 'state', object: id, state: 'on', value: on }));
}

/** Where the held tool cuts: the middle of its part named "blade", else the middle of the tool. */
function bladePoint(sim: SimWorld, tool: Entity): Vec3 {
  const blade = tool.prims.filter((p) => p.name === 'blade');
  const local = blade.length ? aabbCenter(unionAll(blade.map(primitiveAabb))) : aabbCenter(tool.localAabb);
  return poseApply(sim.pose(tool.id), local);
}

async function runSlice(sim: SimWorld, id: string, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  const e = sim.entity(id);
  const name = displayName(sim, id);
  if (!e.spec.properties.sliceable) return failure('not_sliceable', `${name} cannot be sliced`);
  if (e.states.sliced) return failure('already_done', `${name} is already sliced`);
  const tool = sim.grasp ? sim.entity(sim.grasp.objectId) : undefined;
  if (!tool?.spec.properties.canSlice) {
    return failure('needs_tool', `slicing needs a knife in the hand; the hand ${tool ? `holds ${tool.id}` : 'is empty'}`);
  }
  if (sim.isHeld(id)) return failure('invalid_argument', `${name} is in the hand; put it down to slice it`);
  look(sim);
  const unseen = observationProblem(sim, id);
  if (unseen) return unseen;
  // Aimed where the robot believes the food is.
  const all = believedGeos(sim);
  const food = all.find((g) => g.id === id)!;
  const c = containerOf(food, all);
  if (c && sim.entity(c.id).door && !sim.entity(c.id).states.open) {
    return failure('inside_closed_receptacle', `${name} is inside ${c.id}, which is closed`);
  }
  const box = food.box;
  const centre = aabbCenter(box);
  const q = sim.body.q!;
  const pitch = q[1]! + q[2]! + q[3]!;
  const roll = q[4]!;
  const tcp = sim.tcp()!.p;
  // The blade hangs below the hand: keep the held knife's bottom just above the food.
  const knifeBottom = sim.aabb(tool.id).min.y;
  const drop = tcp.y - knifeBottom;
  const aboveY = box.max.y + drop + 0.06;
  const cutY = box.max.y + drop + 0.005;
  // The blade, not the hand, goes over the food: the knife is held by its handle,
  // so the hand aims off the food's centre by the blade's offset. The held knife
  // turns with the arm's yaw, so the offset is turned to the yaw the arm takes there.
  const blade = bladePoint(sim, tool);
  const offset = v3(blade.x - tcp.x, 0, blade.z - tcp.z);
  const aimAt = (yaw: number): Vec3 => {
    const o = rotate(qYaw(yaw - q[0]!), offset);
    return v3(centre.x - o.x, 0, centre.z - o.z);
  };
  let aim = aimAt(q[0]!);
  let r = solve(sim, { position: v3(aim.x, aboveY, aim.z), pitch, roll });
  for (let i = 0; i < 3 && r.ok; i++) {
    aim = aimAt(r.joints[0]!);
    r = solve(sim, { position: v3(aim.x, aboveY, aim.z), pitch, roll });
  }
  const above = v3(aim.x, aboveY, aim.z);
  const cut = v3(aim.x, cutY, aim.z);
  if (!r.ok) return failure('out_of_reach', describeIk(r.failure, name));
  if (!solve(sim, { position: cut, pitch, roll }).ok) return failure('out_of_reach', `cannot bring the knife down onto ${name}`);
  try {
    await moveJoints(sim, r.joints, opts);
    await moveLine(sim, { position: cut, pitch, roll }, name, opts);
    // The blade cuts only what is under it now: the food where it really is.
    const edge = bladePoint(sim, tool);
    const real = sim.aabb(id);
    const met = edge.x >= real.min.x - 0.01 && edge.x <= real.max.x + 0.01 && edge.z >= real.min.z - 0.01 && edge.z <= real.max.z + 0.01;
    if (met) e.states.sliced = true;
    await moveLine(sim, { position: above, pitch, roll }, name, opts);
    if (!met) {
      sim.belief.forget(id);
      return failure('skill_failure', `the knife came down where ${name} was last seen, but it was not there any more`);
    }
  } catch (err) {
    if (err instanceof SkillInterrupt) return interruptOutcome(sim, err, `slicing ${name}`);
    if (err instanceof MotionFailure) return failure('out_of_reach', err.message);
    throw err;
  }
  return success(`sliced ${name} with ${tool.id}`, claims({ kind: 'state', object: id, state: 'sliced', value: true }));
}

/** setOpen, answering for everything that happened while it ran (see incidents.ts). */
export const setOpen = tracked(runSetOpen, () => []);

/** setSwitch, answering for everything that happened while it ran (see incidents.ts). */
export const setSwitch = tracked(runSetSwitch, () => []);

/** slice, answering for everything that happened while it ran (see incidents.ts). */
export const slice = tracked(runSlice, () => []);
