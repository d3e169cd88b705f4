// A picture in a conversation or a tool result (the robot's camera): base64 bytes
// in memory, sent as an image content part to a model that reads images. `ref`
// is where a trace keeps it, as a file beside the trace.
import { z } from 'zod';

export const ImagePartSchema = z.object({
  mimeType: z.enum(['image/png', 'image/jpeg']),
  data: z.string(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  ref: z.string().optional(),
});
export type ImagePart = z.infer<typeof ImagePartSchema>;
