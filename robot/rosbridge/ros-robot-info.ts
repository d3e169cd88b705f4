// What a rosbridge robot says about itself (RobotInfo), all of it from its
// mapping file: its capabilities from the skills it maps, its places and
// workspace turned from the ROS map frame into the seam's (./frames.ts), and
// whether it reports an e-stop.
import type { Capability, RobotInfo, Vec3Tuple } from '../robot';
import { type RosPoint, fromRos } from './frames';
import type { Mapping } from './mapping';

/** RobotInfo with the e-stop declaration of the seam's safety shape. */
export interface RosRobotInfo extends RobotInfo {
  /** 'not_reported' when the mapping declares the robot has no e-stop state to report. */
  estop?: 'reported' | 'not_reported';
}

/** The robot's info as its mapping declares it, reached at rosbridge `url`. */
export function rosRobotInfo(m: Mapping, url: string): RosRobotInfo {
  const names = Object.keys(m.skills);
  const caps: Capability[] = ['perception', 'events'];
  if (names.some((n) => n.startsWith('arm.'))) caps.push('arm');
  if (names.some((n) => n.startsWith('base.'))) caps.push('base');
  if (names.some((n) => n.startsWith('rover.'))) caps.push('rover');
  if (names.some((n) => n.startsWith('speech.'))) caps.push('speech');
  if (m.battery) caps.push('battery');
  const ws = m.workspace && [fromRos(xyz(m.workspace.min)), fromRos(xyz(m.workspace.max))];
  return {
    id: m.robot.id,
    name: m.robot.name,
    kind: m.robot.kind,
    description: m.robot.description,
    capabilities: caps,
    scene: { id: `rosbridge:${url}`, title: `${m.robot.name} over rosbridge`, notes: [], userInfo: [], toolSet: 'flat' },
    ...(caps.includes('arm') ? { arm: { reachM: 1, payloadKg: 1, gripperOpeningM: 0.1, postures: m.robot.postures } } : {}),
    places: m.places.map((p) => ({ id: p.id, kind: 'place', title: p.title, position: fromRos(p), yaw: p.yawDeg, serves: [] })),
    referencePositions: m.referencePositions.map((r) => ({ id: r.id, position: fromRos(xyz(r.position)), description: r.description })),
    batteryThresholds: { low: m.battery?.low ?? 20, critical: m.battery?.critical ?? 5 },
    estop: 'topic' in m.estop ? 'reported' : 'not_reported',
    ...(ws
      ? {
          workspace: {
            min: ws[0]!.map((v, i) => Math.min(v, ws[1]![i]!)) as Vec3Tuple,
            max: ws[0]!.map((v, i) => Math.max(v, ws[1]![i]!)) as Vec3Tuple,
          },
        }
      : {}),
  };
}

function xyz(p: [number, number, number]): RosPoint {
  return { x: p[0], y: p[1], z: p[2] };
}
