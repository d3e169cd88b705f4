// Where a relative motion ends. A base step or a nudge of the tool is checked
// against the workspace at the pose it leads to — where the robot is now (its
// base pose, its tool position) plus the move — so repeated small moves cannot
// walk out of the declared area one allowed move at a time. When the robot
// cannot say where it is, where the move ends is unknown, and it is refused.
import type { Robot, RobotInfo, Vec3Tuple } from '../../../robot/robot';
import type { SkillCall } from '../../../robot/skills';

const round = (x: number) => Math.round(x * 1000) / 1000;
const why = (e: unknown) => (e instanceof Error ? e.message : String(e));

type Workspace = NonNullable<RobotInfo['workspace']>;

/** Metres beyond the workspace's footprint, and whether the height is outside it. */
function beyond(end: Vec3Tuple, ws: Workspace, margin: number): { side: number; height: boolean } {
  const lo = ws.min.map((v) => v - margin);
  const hi = ws.max.map((v) => v + margin);
  const out = (i: 0 | 2) => Math.max(lo[i]! - end[i], end[i] - hi[i]!, 0);
  return { side: Math.hypot(out(0), out(2)), height: end[1] < lo[1]! || end[1] > hi[1]! };
}

/** A move in the base frame (forward, left, up) as a world-frame offset: world y is up (robot/sim's step and nudge). */
function worldOffset(yawDeg: number, forward: number, left: number, up: number): Vec3Tuple {
  const yaw = (yawDeg * Math.PI) / 180;
  return [forward * Math.cos(yaw) - left * Math.sin(yaw), up, -forward * Math.sin(yaw) - left * Math.cos(yaw)];
}

async function stepEnd(call: Extract<SkillCall, { skill: 'base.step' }>, robot: Robot, ws: Workspace, margin: number) {
  const { forward, left } = call.args;
  if (forward === 0 && left === 0) return undefined;
  let pose;
  try {
    pose = await robot.perception.basePose();
  } catch (e) {
    return `the robot did not report where it is (${why(e)}), so where the step ends is unknown`;
  }
  const d = worldOffset(pose.yawDeg, forward, left, 0);
  const end: Vec3Tuple = [pose.position[0] + d[0], pose.position[1], pose.position[2] + d[2]];
  const { side } = beyond(end, ws, margin);
  if (side === 0) return undefined;
  return `the step would end at (${round(end[0])}, ${round(end[2])}), ${round(side)} m beyond the edge of the area the robot works in`;
}

async function nudgeEnd(call: Extract<SkillCall, { skill: 'arm.nudge' }>, robot: Robot, ws: Workspace, margin: number) {
  const { forward, left, up } = call.args;
  if (forward === 0 && left === 0 && up === 0) return undefined;
  if (!robot.perception.toolPosition) return 'the robot does not report where its gripper is, so where the nudge ends is unknown';
  let tool: Vec3Tuple | undefined;
  let pose;
  try {
    tool = await robot.perception.toolPosition();
    pose = await robot.perception.basePose();
  } catch (e) {
    return `the robot did not report where its gripper is (${why(e)}), so where the nudge ends is unknown`;
  }
  if (!tool) return 'the robot did not report where its gripper is, so where the nudge ends is unknown';
  const d = worldOffset(pose.yawDeg, forward, left, up);
  const end: Vec3Tuple = [tool[0] + d[0], tool[1] + d[1], tool[2] + d[2]];
  const { side, height } = beyond(end, ws, margin);
  if (side === 0 && !height) return undefined;
  const at = `the nudge would end with the gripper at (${end.map(round).join(', ')})`;
  if (side > 0) return `${at}, ${round(side)} m beyond the edge of the area the robot works in`;
  return `${at}, ${round(end[1])} m above the floor; the robot works between ${round(ws.min[1] - margin)} and ${round(ws.max[1] + margin)} m above the floor`;
}

/** Why the motion would end outside the robot's workspace (or cannot be known not to); undefined when it ends inside. */
export async function motionEndOutside(call: SkillCall, robot: Robot, marginM: number): Promise<string | undefined> {
  const ws = robot.info.workspace;
  if (!ws) return undefined;
  if (call.skill === 'base.step') return stepEnd(call, robot, ws, marginM);
  if (call.skill === 'arm.nudge') return nudgeEnd(call, robot, ws, marginM);
  return undefined;
}
