// The robot's camera as a tool, for models that see. The picture goes to the
// model as an image (runtime/flow/pictures.ts puts it in a user message after
// the tool messages); the tool message itself says what was taken, and what the
// robot's perception reports in view, so a model that drops the image still
// reads something true. The pixel labels of the simulated camera are ground
// truth and stay out of it.
import { z } from 'zod';
import type { Robot } from '../../robot/robot';
import { defineTool, type Tool } from './tool';

export const CAMERA_TOOL = 'get_camera_image';

/** What the robot's perception reports seeing, in one line. */
export async function perceivedLine(robot: Robot): Promise<string> {
  if (!robot.has('perception')) return 'this robot reports no detections';
  const seen = await robot.perception.detect();
  return seen.length
    ? `perception reports ${seen.map((d) => `${d.id} (${d.name}, ${d.distanceM.toFixed(2)} m)`).join(', ')}`
    : 'perception reports no objects in view';
}

/** An information tool: the camera picture now (as an image for the model), and what perception reports seeing. */
export function cameraTool(): Tool {
  return defineTool({
    name: CAMERA_TOOL,
    description: "Takes a picture with the robot's camera and shows it to you, with the objects perception reports in view.",
    category: 'information',
    params: z.strictObject({
      width: z.number().int().min(16).max(640).default(640).describe('image width in pixels (height is 3/4 of it)'),
    }),
    card: {
      outputs: 'a PNG image (shown to you after the tool results), and the objects perception reports in view',
      whenToUse: 'to look at the scene as the camera sees it: before acting, to check a result, to answer a question about what is there',
      constraints: 'a simulated robot gives a rendering of the scene, not a photograph',
      dimension: 'perception',
      requires: ['camera'],
      tags: ['camera', 'image', 'look', 'see', 'picture', 'vision'],
    },
    execute: async ({ width }, ctx) => {
      const camera = ctx.robot.camera;
      if (!camera) return { ok: false, content: `${ctx.robot.info.name} has no camera this tool can read.` };
      const p = await camera.picture({ width });
      return {
        ok: true,
        content: `Camera picture taken (${p.width}×${p.height} PNG, t=${p.time.toFixed(1)} s); ${await perceivedLine(ctx.robot)}.`,
        data: { picture: { mimeType: p.mimeType, width: p.width, height: p.height, time: p.time } },
        images: [{ mimeType: p.mimeType, data: p.data, width: p.width, height: p.height }],
      };
    },
  });
}
