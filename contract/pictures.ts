// Pictures a run's tools gave (the robot's camera), as the app shows them: a
// run event or a trace record names each by a file name in the run's own trace
// (never a path), and the page asks the host for its bytes by the run's id and
// that name. What a record does not say (size, time) is null, never a guess.
import { z } from 'zod';
import { EvalRunId } from './eval';
import { hostField } from './host-fields';

/** A picture's name beside its run's trace: a file name, never a path (no folder, no leading dot). */
export const PICTURE_NAME = /^[\w-][\w.-]{0,119}\.(png|jpg)$/;

/** One picture a tool call gave, as a run event or a trace record names it. */
export const RunPicture = z
  .object({
    /** Its file name beside the run's trace (what getRunImage takes). */
    id: z.string().regex(PICTURE_NAME),
    mimeType: z.string(),
    width: z.number().int().positive().nullable(),
    height: z.number().int().positive().nullable(),
    /** Simulated seconds when it was taken, when the tool said. */
    simTime: z.number().nullable(),
  })
  .strict();
export type RunPicture = z.infer<typeof RunPicture>;

/** A picture's bytes, base64. */
export const RunImage = z.object({
  mimeType: z.enum(['image/png', 'image/jpeg']),
  width: z.number().int().positive().nullable(),
  height: z.number().int().positive().nullable(),
  data: z.string().min(1),
});
export type RunImage = z.infer<typeof RunImage>;

export const PICTURE_METHODS = {
  /** A picture a tool of this session's run gave, by the run's id and the picture's name in its trace. */
  getRunImage: {
    request: z
      .object({
        runId: hostField(z.string().regex(/^[\w-]{1,100}$/), 'trace'),
        image: hostField(z.string().regex(PICTURE_NAME, 'a picture name from the run (e.g. call_1-1.png)'), 'trace-image'),
      })
      .strict(),
    response: RunImage,
  },
  /** A picture a tool gave in an evaluated case, by the evaluation run, the case and trial, and the picture's name in its trace. */
  getCaseImage: {
    request: z
      .object({
        runId: EvalRunId,
        caseId: z.string().min(1).max(300),
        trial: z.number().int().min(1).max(1000),
        image: hostField(z.string().regex(PICTURE_NAME, 'a picture name from the case (e.g. call_1-1.png)'), 'trace-image'),
      })
      .strict(),
    response: RunImage,
  },
} as const;

const Images = z.array(
  z.object({ mimeType: z.string(), width: z.number().optional(), height: z.number().optional(), ref: z.string().optional() }),
);
const PictureData = z.object({ picture: z.object({ time: z.number() }) });

/**
 * The pictures a trace's `tool_result` record names (its `images` and the tool's `data`).
 * A picture kept nowhere (a trace written without files) has no name and is left out.
 */
export function picturesOfRecord(images: unknown, data: unknown): RunPicture[] {
  const list = Images.safeParse(images);
  if (!list.success) return [];
  const simTime = PictureData.safeParse(data).data?.picture.time ?? null;
  return list.data.flatMap((i) => {
    const id = i.ref?.split('/').at(-1);
    const size = (n: number | undefined) => (n !== undefined && Number.isInteger(n) && n > 0 ? n : null);
    if (!id || !PICTURE_NAME.test(id)) return [];
    return [{ id, mimeType: i.mimeType, width: size(i.width), height: size(i.height), simTime }];
  });
}

/** What a picture is, in words (its alt text): the tool that took it, its size and its time. */
export function pictureAlt(tool: string, p: RunPicture): string {
  const camera = tool === 'get_camera_image' ? 'camera picture' : `picture from ${tool}`;
  const size = p.width !== null && p.height !== null ? `${p.width}×${p.height}` : 'size not recorded';
  const kind = p.mimeType === 'image/png' ? 'PNG' : p.mimeType === 'image/jpeg' ? 'JPEG' : p.mimeType;
  return `Robot ${camera}, ${size} ${kind}, ${p.simTime !== null ? `t=${p.simTime.toFixed(1)} s` : 'time not recorded'}`;
}
