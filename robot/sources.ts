// Every robot source by kind, and one call that validates a connection form and
// opens it. Hosts and the conversation service use this; tools never do.
import { z } from 'zod';
import { SceneDataError } from '../scenes/validation';
import { type OpenedSimRobot, SimForm, simSource } from './sim/source';
import { RobotSourceError } from './source';
import { HttpForm, type OpenedHttpRobot, httpSource } from './http/source';
import { type OpenedRosRobot, RosbridgeForm, rosbridgeSource } from './rosbridge/source';

export const RobotForm = z.discriminatedUnion('kind', [SimForm, HttpForm, RosbridgeForm]);
export type RobotForm = z.input<typeof RobotForm>;

export type AnyOpenedRobot = OpenedSimRobot | OpenedHttpRobot | OpenedRosRobot;
export type { SimControl } from './sim/control';

export const ROBOT_SOURCES = [simSource, httpSource, rosbridgeSource] as const;

/** Opens a robot from its connection form; bad settings throw RobotSourceError naming the field. */
export async function openRobot(form: z.input<typeof SimForm>, opts?: { signal?: AbortSignal }): Promise<OpenedSimRobot>;
export async function openRobot(form: RobotForm, opts?: { signal?: AbortSignal }): Promise<AnyOpenedRobot>;
export async function openRobot(form: RobotForm, opts: { signal?: AbortSignal } = {}): Promise<AnyOpenedRobot> {
  const parsed = RobotForm.safeParse(form);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length ? issue.path.join('.') : '(robot)';
    throw new RobotSourceError(`robot ${field}: ${issue.message}; sources: ${ROBOT_SOURCES.map((s) => s.kind).join(', ')}`);
  }
  const f = parsed.data;
  try {
    switch (f.kind) {
      case 'sim':
        return await simSource.open(f, opts);
      case 'http':
        return await httpSource.open(f, opts);
      case 'rosbridge':
        return await rosbridgeSource.open(f, opts);
    }
  } catch (e) {
    if (e instanceof SceneDataError) throw new RobotSourceError(e.message);
    throw e;
  }
}
