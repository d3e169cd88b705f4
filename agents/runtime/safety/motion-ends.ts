// Where a relative motion ends. A base step is checked against the workspace at
// the pose it leads to — the robot's believed pose now plus the step — so
// repeated small steps cannot walk out of the declared area one allowed step at
// a time. When the robot cannot say where it is, where the step ends is
// unknown, and the step is refused.
import type { Robot } from '../../../robot/robot';
import type { SkillCall } from '../../../robot/skills';

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Why the motion would end outside the robot's workspace (or cannot be known not to); undefined when it ends inside. */
export async function motionEndOutside(call: SkillCall, robot: Robot, marginM: number): Promise<string | undefined> {
  const ws = robot.info.workspace;
  if (!ws || call.skill !== 'base.step') return undefined;
  const { forward, left } = call.args;
  if (forward === 0 && left === 0) return undefined;
  let pose;
  try {
    pose = await robot.perception.basePose();
  } catch (e) {
    return `the robot did not report where it is (${e instanceof Error ? e.message : String(e)}), so where the step ends is unknown`;
  }
  // The base frame: forward along the heading, left to its left; world y is up (robot/sim's step).
  const yaw = (pose.yawDeg * Math.PI) / 180;
  const dx = forward * Math.cos(yaw) - left * Math.sin(yaw);
  const dz = -forward * Math.sin(yaw) - left * Math.cos(yaw);
  const end = [pose.position[0] + dx, pose.position[2] + dz] as const;
  const lo = [ws.min[0] - marginM, ws.min[2] - marginM];
  const hi = [ws.max[0] + marginM, ws.max[2] + marginM];
  const beyond = Math.hypot(Math.max(lo[0]! - end[0], end[0] - hi[0]!, 0), Math.max(lo[1]! - end[1], end[1] - hi[1]!, 0));
  if (beyond === 0) return undefined;
  return `the step would end at (${round(end[0])}, ${round(end[1])}), ${round(beyond)} m beyond the edge of the area the robot works in`;
}
