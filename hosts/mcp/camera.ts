// The robot's camera for MCP clients: a PNG rendered headless from the simulated
// camera (sim/perception/render.ts), with what the robot's perception reports
// beside it (through the Robot seam: the picture's pixel labels are ground truth
// and stay out of what an agent reads). A tool returns it as image content and a resource link, because
// some clients drop images or never read resources (ros-mcp-server #208, #132).
import { z } from 'zod';
import { encodePng } from '../../base/png';
import { defineTool, type Tool } from '../../agents/tools/tool';
import type { Robot } from '../../robot/robot';
import type { SimControl } from '../../robot/sources';
import { renderCamera } from '../../sim/perception/render';

export interface CameraPicture {
  mimeType: 'image/png';
  /** Base64 PNG. */
  data: string;
  width: number;
  height: number;
  /** Sim seconds when the picture was taken. */
  time: number;
}

export const PictureData = z.object({
  picture: z.object({
    mimeType: z.literal('image/png'),
    data: z.string(),
    width: z.number(),
    height: z.number(),
    time: z.number(),
  }),
});

export function takePicture(sim: SimControl, size: { width?: number } = {}): CameraPicture {
  const img = renderCamera(sim.world, size);
  return {
    mimeType: 'image/png',
    data: encodePng(img.width, img.height, img.rgb).toString('base64'),
    width: img.width,
    height: img.height,
    time: img.time,
  };
}

/** What the robot's perception reports seeing, in one line. */
export async function perceivedLine(robot: Robot): Promise<string> {
  if (!robot.has('perception')) return 'this robot reports no detections';
  const seen = await robot.perception.detect();
  return seen.length
    ? `perception reports ${seen.map((d) => `${d.id} (${d.name}, ${d.distanceM.toFixed(2)} m)`).join(', ')}`
    : 'perception reports no objects in view';
}

/** An information tool: the camera picture now, and what perception reports seeing. */
export function cameraTool(sim: SimControl, robot: Robot): Tool {
  return defineTool({
    name: 'get_camera_image',
    description: "Returns a picture from the robot's camera (a flat-shaded rendering of the simulated scene) and the objects it shows.",
    category: 'information',
    params: z.strictObject({
      width: z.number().int().min(16).max(640).default(320).describe('image width in pixels (height is 3/4 of it)'),
    }),
    card: {
      outputs: 'a PNG image, and the objects perception reports in view',
      whenToUse: 'to look at the scene as the camera sees it, e.g. before and after an action',
      constraints: 'simulated robots only; a rendering, not a photograph',
      dimension: 'perception',
      tags: ['camera', 'image', 'look', 'see', 'picture'],
    },
    execute: async ({ width }) => {
      const picture = takePicture(sim, { width });
      return {
        ok: true,
        content: `Camera picture (${picture.width}×${picture.height}, t=${picture.time.toFixed(1)} s); ${await perceivedLine(robot)}.`,
        data: { picture },
      };
    },
  });
}
