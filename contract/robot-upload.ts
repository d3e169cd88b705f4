// A robot folder a page uploads (a page cannot name the host's files): its
// files in base64 chunks, each under the request limit, then the choice to use
// it in place of the scene's robot, or to go back to the scene's own. The host
// keeps the files in a folder of the session's and loads the robot only from
// there (hosts/service/robot-choice.ts).
import { z } from 'zod';
import { hostField } from './host-fields';
import { SceneMeta } from './schemas';

/** Decoded bytes one chunk may carry: as base64 in JSON it stays well under the 1 MiB request limit. */
export const MAX_ROBOT_CHUNK_BYTES = 512 * 1024;
/** Bytes one file of a robot folder may have (a mesh). */
export const MAX_ROBOT_FILE_BYTES = 64 * 1024 * 1024;
/** Bytes and files a robot folder may have in all. */
export const MAX_ROBOT_FOLDER_BYTES = 256 * 1024 * 1024;
export const MAX_ROBOT_FILES = 500;

/** A file's path in the folder as the page picked it ("ur5e_like/urdf/ur5e_like.urdf"): the host policy checks it. */
const RobotFilePath = hostField(z.string().min(1).max(300), 'robot-upload');

export const RobotProblem = z.object({
  element: z.string(),
  problem: z.string(),
  fix: z.string(),
  severity: z.enum(['error', 'warning']),
});
export type RobotProblem = z.infer<typeof RobotProblem>;

/** What choosing a robot did: the robot now in the scene, or why the choice was refused (the robot before stays). */
export const RobotChoice = z.object({
  ok: z.boolean(),
  /** The described robot now in the scene; null: the scene's own robot. */
  robot: z.string().nullable(),
  /** Why the robot was refused; null when it was taken. */
  reason: z.string().nullable(),
  /** Every problem of the description, each on its element (warnings of a robot taken too). */
  problems: z.array(RobotProblem),
  /** The scene rebuilt with the robot; null when refused. */
  meta: SceneMeta.nullable(),
});
export type RobotChoice = z.infer<typeof RobotChoice>;

export const ROBOT_METHODS = {
  /** A chunk of one file of a robot folder, at its byte offset; `start` on the folder's first chunk drops an earlier upload. */
  putRobotFile: {
    request: z
      .object({
        path: RobotFilePath,
        offset: z.number().int().min(0).max(MAX_ROBOT_FILE_BYTES),
        data: z.base64().max(Math.ceil(MAX_ROBOT_CHUNK_BYTES / 3) * 4, 'a chunk is over 512 KiB'),
        start: z.boolean().optional(),
      })
      .strict(),
    response: z.object({ path: z.string(), bytes: z.number().int() }),
  },
  /** The uploaded folder's robot in place of the scene's (the scene is rebuilt), or the scene's own robot again. */
  useRobot: { request: z.object({ robot: z.enum(['uploaded', 'own']) }).strict(), response: RobotChoice },
} as const;
