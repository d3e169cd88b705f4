// The robot's camera for MCP clients: a PNG rendered headless from the simulated
// camera (sim/perception/render.ts), read as a resource. The tool is the agents'
// get_camera_image (agents/tools/camera.ts); the server returns its picture as image
// content and a resource link, because some clients drop images or never read
// resources (ros-mcp-server #208, #132).
import { z } from 'zod';
import { encodePng } from '../../base/png';
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

export { perceivedLine } from '../../agents/tools/camera';
