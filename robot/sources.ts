// Every robot source by kind, and one call that validates a connection form and
// opens it. Hosts and the conversation service use this; tools never do.
import { z } from 'zod';
import { SceneDataError } from '../scenes/validation';
import { type OpenedSimRobot, SimForm, simSource } from './sim/source';
import { RobotSourceError, type ShadowForm } from './source';
import { HttpForm, type OpenedHttpRobot, httpSource } from './http/source';
import { type OpenedRosRobot, RosbridgeForm, rosbridgeSource } from './rosbridge/source';
import { openShadow } from './shadow/open';
import type { Shadow } from './shadow/shadow';

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
        return await withShadow(await httpSource.open(f, opts), f.shadow);
      case 'rosbridge':
        return await withShadow(await rosbridgeSource.open(f, opts), f.shadow);
    }
  } catch (e) {
    if (e instanceof SceneDataError) throw new RobotSourceError(e.message);
    throw e;
  }
}

/** Shadow mode: the scene's simulator beside the real robot, as the predictor the safety chain consults. */
async function withShadow<O extends OpenedHttpRobot | OpenedRosRobot>(
  opened: O,
  form: z.output<typeof ShadowForm> | undefined,
): Promise<O> {
  if (!form) return opened;
  let shadow: Shadow;
  try {
    shadow = await openShadow(opened.robot, form);
  } catch (e) {
    await opened.close();
    if (e instanceof SceneDataError) throw new RobotSourceError(`robot shadow.scene: ${e.message}`);
    throw e;
  }
  return {
    ...opened,
    shadow,
    close: async () => {
      shadow.dispose();
      await opened.close();
    },
  };
}
