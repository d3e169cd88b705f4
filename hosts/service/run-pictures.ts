// A picture of a session's run, for the page: named by the run's id and the
// picture's file name (both from the host policy), looked up in that run's own
// trace records, and read only where this session keeps pictures — its memory
// trace, or `<runId>.files/` in its traces folder. Nothing the page sends is
// joined into a path, and a picture whose bytes are not what its record says
// is refused with why.
import { join } from 'node:path';
import { AppApiError } from '../../contract/api';
import { MAX_REPLY_BYTES } from '../../contract/limits';
import type { RunImage } from '../../contract/pictures';
import type { TraceImageId, TraceRef } from '../../base/host-refs';
import { UserFileError, readUserBytes } from '../../base/user-file';
import type { MemorySink, TraceRecord } from '../../agents/runtime/trace';

/** Largest picture sent: its base64 and the envelope fit in one reply. */
const MAX_PICTURE_BYTES = Math.floor((MAX_REPLY_BYTES * 3) / 4) - 4096;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

export interface PictureSources {
  /** The run's trace in memory (the session's last runs). */
  memory: MemorySink | undefined;
  /** The session's traces folder, if it writes traces. */
  traceDir: string | undefined;
  /** The run's trace records read from its file, when it is no longer in memory. */
  readRecords: () => Promise<readonly TraceRecord[]>;
}

const unavailable = (why: string): AppApiError => new AppApiError('invalid_request', why);

export async function runPicture(runId: TraceRef, image: TraceImageId, from: PictureSources): Promise<RunImage> {
  const records = from.memory?.records ?? (await from.readRecords());
  let found: { mimeType: string; width?: number | undefined; height?: number | undefined; ref: string } | undefined;
  for (const r of records) {
    if (r.type !== 'tool_result') continue;
    const i = r.images?.find((x) => x.ref?.split('/').at(-1) === image);
    if (i?.ref) found = { ...i, ref: i.ref };
  }
  if (!found) throw unavailable(`run ${runId} has no picture named ${image}`);
  const mimeType = found.mimeType === 'image/png' || found.mimeType === 'image/jpeg' ? found.mimeType : undefined;
  if (!mimeType) throw unavailable(`the picture is a ${found.mimeType.slice(0, 40)}, not a PNG or JPEG`);
  const bytes = await readPicture(runId, image, found.ref, from);
  const magic = mimeType === 'image/png' ? PNG : JPEG;
  if (!bytes.subarray(0, magic.length).equals(magic))
    throw unavailable(`the file kept for it is not a ${mimeType === 'image/png' ? 'PNG' : 'JPEG'} image (changed or damaged)`);
  const size = (n: number | undefined) => (n !== undefined && Number.isInteger(n) && n > 0 ? n : null);
  return { mimeType, width: size(found.width), height: size(found.height), data: bytes.toString('base64') };
}

async function readPicture(runId: TraceRef, image: TraceImageId, ref: string, from: PictureSources): Promise<Buffer> {
  if (ref === `memory/${image}`) {
    const b = from.memory?.files.get(ref);
    if (!b) throw unavailable('the picture was kept in memory only, and that memory is gone');
    return b;
  }
  // Only the folder this session's own trace writer makes for the run; a record naming anything else is not followed.
  if (!from.traceDir || ref !== `${runId}.files/${image}`) throw unavailable('the picture was not kept where this session keeps pictures');
  try {
    return await readUserBytes(join(from.traceDir, ref), { maxBytes: MAX_PICTURE_BYTES });
  } catch (e) {
    if (e instanceof UserFileError) throw unavailable(`the picture file beside the trace: ${e.reason}`);
    throw e;
  }
}
