// The pictures a trace's tool results name, in an MCAP export: each one a
// foxglove.CompressedImage on /camera/<tool>/image (the tool that took it, so
// the robot's camera and an MCP server's images stay apart) at its result's
// time, with the bytes the trace keeps beside it. A picture that cannot be read
// is said on /log, never left out unsaid.
import { dirname, join } from 'node:path';
import { UserFileError, readUserBytesSync } from '../../base/user-file';
import type { TraceRecord } from '../../agents/runtime/trace';
import { LOG, logMessage, timeOf } from './messages';

export type ToolResultRecord = Extract<TraceRecord, { type: 'tool_result' }>;

/** Publishes one tool result's pictures at `at` (ns); `trace` is which of the exported traces it is in. */
export type PublishPictures = (trace: number, r: ToolResultRecord, at: bigint) => Promise<void>;

/** Writes a message on any topic (the MCAP recorder's). */
export type WriteMessage = (topic: string, schema: string, at: bigint, value: unknown) => Promise<void>;

export interface PictureCounts {
  written: number;
  missing: Array<{ ref: string; why: string }>;
}

/** The topic of the pictures a tool gave. */
export function pictureTopic(tool: string): string {
  return `/camera/${tool.replace(/[^\w-]/g, '_') || 'camera'}/image`;
}

/** A ref the trace writer makes: `<trace name>.files/<file>`, nothing that leaves the trace's folder. */
const REF = /^[\w.-]+\.files\/[\w-][\w.-]*$/;

/** Pictures read from beside the trace files at `paths` (in the order the traces are exported). */
export function picturesBeside(paths: readonly string[], write: WriteMessage): { publish: PublishPictures; counts: PictureCounts } {
  const counts: PictureCounts = { written: 0, missing: [] };
  const missing = async (ref: string, why: string, at: bigint) => {
    counts.missing.push({ ref, why });
    await write('/log', 'foxglove.Log', at, logMessage(LOG.WARNING, 'export', `picture ${ref} left out: ${why}`, timeOf(at)));
  };
  const publish: PublishPictures = async (trace, r, at) => {
    for (const image of r.images ?? []) {
      const ref = image.ref;
      if (!ref) {
        await missing('(none)', 'the trace kept this picture nowhere (written without files)', at);
        continue;
      }
      if (!REF.test(ref) || ref.includes('..')) {
        await missing(ref, 'not a file beside the trace', at);
        continue;
      }
      let bytes: Buffer;
      try {
        bytes = readUserBytesSync(join(dirname(paths[trace]!), ref));
      } catch (e) {
        if (!(e instanceof UserFileError)) throw e;
        await missing(ref, e.reason, at);
        continue;
      }
      const format = image.mimeType === 'image/jpeg' ? 'jpeg' : 'png';
      await write(pictureTopic(r.name), 'foxglove.CompressedImage', at, {
        timestamp: timeOf(at),
        frame_id: 'robot#camera',
        data: bytes.toString('base64'),
        format,
      });
      counts.written++;
    }
  };
  return { publish, counts };
}
