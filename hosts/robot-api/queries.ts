// Each query of the robot HTTP API answered from the Robot seam. A capability
// group the robot lacks is UNSUPPORTED (the server answers 501), not a throw.
import type { QueryName } from '../../robot/http/protocol';
import type { NameKind, Robot } from '../../robot/robot';

export const UNSUPPORTED = Symbol('unsupported');

type Args = Record<string, unknown>;
const s = (a: Args, k: string) => a[k] as string;

export async function runQuery(robot: Robot, name: QueryName, a: Args): Promise<unknown> {
  const p = robot.perception;
  const people = robot.people;
  const wm = robot.worldModel;
  switch (name) {
    case 'perception.resolve':
      return p.resolve(s(a, 'name'), {
        ...(a['kinds'] ? { kinds: a['kinds'] as NameKind[] } : {}),
        ...(a['pool'] ? { pool: a['pool'] as 'all' | 'visible' | 'known' } : {}),
      });
    case 'perception.detect':
      return p.detect();
    case 'perception.distanceTo':
      return p.distanceTo(s(a, 'id'));
    case 'perception.distanceBetween':
      return p.distanceBetween(s(a, 'a'), s(a, 'b'));
    case 'perception.objectState':
      return p.objectState(s(a, 'id'));
    case 'perception.objectProperties':
      return p.objectProperties(s(a, 'id'));
    case 'perception.holding':
      return (await p.holding()) ?? null;
    case 'perception.related':
      return p.related(s(a, 'relation'), s(a, 'id'));
    case 'perception.snapshot':
      return p.snapshot();
    case 'perception.pose':
      return (await p.pose(s(a, 'id'))) ?? null;
    case 'perception.basePose':
      return p.basePose();
    case 'perception.referencePoint':
      return (await p.referencePoint(s(a, 'name'))) ?? null;
    case 'people.around':
      return people ? people.around() : UNSUPPORTED;
    case 'people.recognize':
      return people ? people.recognize() : UNSUPPORTED;
    case 'people.distanceTo':
      return people ? people.distanceTo(s(a, 'person')) : UNSUPPORTED;
    case 'people.handsFree':
      return people ? people.handsFree(s(a, 'person')) : UNSUPPORTED;
    case 'people.gazeAtRobot':
      return people ? people.gazeAtRobot(s(a, 'person')) : UNSUPPORTED;
    case 'people.freePath':
      return people ? people.freePath(s(a, 'target')) : UNSUPPORTED;
    case 'arm.graspPose':
      return robot.arm ? robot.arm.graspPose(s(a, 'object')) : UNSUPPORTED;
    case 'worldModel.nodes':
      return wm ? wm.nodes() : UNSUPPORTED;
    case 'worldModel.node':
      return wm ? ((await wm.node(s(a, 'id'))) ?? null) : UNSUPPORTED;
    case 'worldModel.addNode':
      return wm
        ? wm.addNode({
            id: s(a, 'id'),
            type: s(a, 'type'),
            parent: s(a, 'parent'),
            ...(a['relation'] ? { relation: a['relation'] as 'on' | 'in' } : {}),
          })
        : UNSUPPORTED;
    case 'worldModel.setAttribute':
      return wm ? wm.setAttribute(s(a, 'id'), s(a, 'key'), a['value'] as string | number | boolean) : UNSUPPORTED;
    case 'robot.battery':
      return robot.battery();
    case 'robot.time':
      return robot.time();
    case 'robot.safety': {
      const st = await robot.safety();
      return {
        estop: {
          state: st.estop.state,
          ...(st.estop.ageS !== undefined ? { ageS: st.estop.ageS } : {}),
          ...(st.estop.detail ? { detail: st.estop.detail } : {}),
        },
        ...(st.battery
          ? {
              battery: {
                ...(st.battery.percent !== undefined ? { percent: st.battery.percent } : {}),
                ...(st.battery.ageS !== undefined ? { ageS: st.battery.ageS } : {}),
              },
            }
          : {}),
        maxAgeS: st.maxAgeS,
      };
    }
    case 'camera.picture':
      return robot.camera ? robot.camera.picture(a['width'] !== undefined ? { width: a['width'] as number } : {}) : UNSUPPORTED;
    case 'events.since':
      return robot.events.since(a['lastId'] as number);
    case 'events.lastId':
      return robot.events.lastId();
  }
}
