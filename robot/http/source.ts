// The `http` robot source: a robot that speaks the robot HTTP API
// (skillbridge-robot/1), at a URL on this machine, with a token.
import { z } from 'zod';
import type { SkillPredictor } from '../skills';
import { type OpenedRobot, RobotSourceError, type RobotSourceFactory, ShadowForm } from '../source';
import { RobotConnectionError } from './client';
import { HttpRobot } from './http-robot';

export const HttpForm = z.strictObject({
  kind: z.literal('http'),
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http:// URL such as http://127.0.0.1:8765' })
    .describe('the robot API, e.g. http://127.0.0.1:8765'),
  token: z.string().min(1, 'is empty: set SKILLBRIDGE_ROBOT_TOKEN to the token robot-api printed'),
  /** Per request; a skill's long-polls add their own wait. */
  timeoutMs: z.int().min(100).max(600_000).default(10_000),
  /** The longest a skill may run before it is cancelled and reported failed (waits and questions: their own seconds); a grace of 10 s is added. */
  skillTimeoutS: z.number().min(0.1).max(86_400).default(300),
  shadow: ShadowForm.optional(),
});
export type HttpForm = z.infer<typeof HttpForm>;

export interface OpenedHttpRobot extends OpenedRobot {
  readonly kind: 'http';
  readonly robot: HttpRobot;
  /** No simulator: the world is the robot's. */
  readonly sim: undefined;
  /** Shadow mode's simulator beside the robot, when the form asked for one. */
  readonly shadow?: SkillPredictor;
}

export const httpSource: RobotSourceFactory<typeof HttpForm, OpenedHttpRobot> = {
  kind: 'http',
  title: 'Robot HTTP API',
  description: 'A robot served over the skillbridge-robot/1 HTTP API (skillbridge robot-api, or your own server).',
  form: HttpForm,
  async open(form) {
    try {
      const robot = await HttpRobot.open({
        url: form.url,
        token: form.token,
        timeoutMs: form.timeoutMs,
        skillTimeoutS: form.skillTimeoutS,
      });
      return { kind: 'http', robot, sim: undefined, close: async () => robot.close() };
    } catch (e) {
      if (e instanceof RobotConnectionError) throw new RobotSourceError(e.message);
      throw e;
    }
  },
};
