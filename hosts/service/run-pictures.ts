// A picture of a run, for the page: named by the run (a session's run id, or an
// evaluated case) and the picture's file name (both from the host policy), looked
// up in that run's own trace records, and read only where its trace keeps
// pictures — the session's memory trace, or `<trace name>.files/` beside the
// trace file. Nothing the page sends is joined into a path, and a picture whose
// bytes are not what its record says is refused with why.
import { join } from 'node:path';
import { AppApiError } from '../../contract/api';
import { MAX_REPLY_BYTES } from '../../contract/limits';
import type { RunImage } from '../../contract/pictures';
import type { TraceImageId } from '../../base/host-refs';
import { UserFileError, readUserBytes } from '../../base/user-file';
import type { MemorySink, TraceRecord } from '../../agents/runtime/trace';

/** Largest picture sent: its base64 and the envelope fit in one reply. */
const MAX_PICTURE_BYTES = Math.floor((MAX_REPLY_BYTES * 3) / 4) - 4096;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

export interface PictureSources {
  /** The run's trace in memory (the session's last runs). */
  memory: MemorySink | undefined;
  /** The trace file's folder and its name without `.jsonl`, if it was written to a file. */
  file: { dir: string; name: string } | undefined;
  /** The run's trace records read from its file, when it is no longer in memory. */
  readRecords: () => Promise<readonly TraceRecord[]>;
}

const unavailable = (why: string): AppApiError => new AppApiError('invalid_request', why);

/** `run` names the run in messages ("run X", "case Y trial 1"). */
export async function runPicture(run: string, image: TraceImageId, from: PictureSources): Promise<RunImage> {
  const records = from.memory?.records ?? (await from.readRecords());
  let found: { mimeType: string; width?: number | undefined; height?: number | undefined; ref: string } | undefined;
  for (const r of records) {
    if (r.type !== 'tool_result') continue;
    const i = r.images?.find((x) => x.ref?.split('/').at(-1) === image);
    if (i?.ref) found = { ...i, ref: i.ref };
  }
  if (!found) throw unavailable(`${run} has no picture named ${image}`);
  const mimeType = found.mimeType === 'image/png' || found.mimeType === 'image/jpeg' ? found.mimeType : undefined;
  if (!mimeType) throw unavailable(`the picture is a ${found.mimeType.slice(0, 40)}, not a PNG or JPEG`);
  const bytes = await readPicture(image, found.ref, from);
  const magic = mimeType === 'image/png' ? PNG : JPEG;
  if (!bytes.subarray(0, magic.length).equals(magic))
    throw unavailable(`the file kept for it is not a ${mimeType === 'image/png' ? 'PNG' : 'JPEG'} image (changed or damaged)`);
  const size = (n: number | undefined) => (n !== undefined && Number.isInteger(n) && n > 0 ? n : null);
  return { mimeType, width: size(found.width), height: size(found.height), data: bytes.toString('base64') };
}

async function readPicture(image: TraceImageId, ref: string, from: PictureSources): Promise<Buffer> {
  if (ref === `memory/${image}`) {
    const b = from.memory?.files.get(ref);
    if (!b) throw unavailable('the picture was kept in memory only, and that memory is gone');
    return b;
  }
  // Only the folder the trace writer makes beside the trace; a record naming anything else is not followed.
  if (!from.file || ref !== `${from.file.name}.files/${image}`) throw unavailable('the picture was not kept beside its trace');
  try {
    return await readUserBytes(join(from.file.dir, ref), { maxBytes: MAX_PICTURE_BYTES });
  } catch (e) {
    if (e instanceof UserFileError) throw unavailable(`the picture file beside the trace: ${e.reason}`);
    throw e;
  }
}
