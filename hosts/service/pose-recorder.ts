// Recording the poses of a run: the pose frames the service already streams to
// the view, kept at a lower rate beside the run's trace, so the run can be
// watched again in 3D (the replay's timeline drives them) and exported with its
// poses (MCAP). Nothing is re-simulated: a replay shows what was drawn, even
// where the run depended on wall-clock timing or on events a person injected.
// Generic: a recorder takes any packed frames of one scene (contract/frames.ts).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { decodeFrames, encodeFrames, readHeader } from '../../contract/frames';
import { SceneMeta } from '../../contract/schemas';
import type { PoseRecordingInfo } from '../../contract/teaching';

export interface PoseRecording {
  /** The scene the frames belong to (its stream order and joint names). */
  meta: SceneMeta;
  /** Frames per second kept (lowered when a long run reached the size cap). */
  hz: number;
  frameLength: number;
  /** Packed frames in time order; each header carries sim time and host wall time. */
  frames: Float32Array[];
}

export interface RecorderOptions {
  /** Frames per second to keep (default 15). */
  hz?: number;
  /** Bytes of frames at most (default 4 MiB: a replay travels to a page in one reply). */
  maxBytes?: number;
}

export const DEFAULT_RECORD_HZ = 15;
export const DEFAULT_RECORD_BYTES = 4 * 1024 * 1024;

export class PoseRecorder {
  private frames: Float32Array[] = [];
  private hz: number;
  private lastKept = -Infinity;
  private latest: Float32Array | undefined;
  private readonly maxFrames: number;
  private readonly frameLength: number;

  constructor(
    readonly meta: SceneMeta,
    frameLength: number,
    opts: RecorderOptions = {},
  ) {
    this.hz = opts.hz ?? DEFAULT_RECORD_HZ;
    this.frameLength = frameLength;
    this.maxFrames = Math.max(2, Math.floor((opts.maxBytes ?? DEFAULT_RECORD_BYTES) / (frameLength * 4)));
  }

  /** Offers a frame; it is kept when a period has passed since the last kept one. */
  add(frame: Float32Array): void {
    if (frame.length !== this.frameLength || readHeader(frame).generation !== this.meta.generation) return;
    this.latest = frame;
    const wall = readHeader(frame).wallMs;
    if (wall - this.lastKept < 1000 / this.hz - 1) return;
    this.frames.push(frame.slice());
    this.lastKept = wall;
    if (this.frames.length >= this.maxFrames) {
      // A long run: keep every other frame and halve the rate, so the whole run fits.
      this.frames = this.frames.filter((_, i) => i % 2 === 0);
      this.hz /= 2;
    }
  }

  get size(): number {
    return this.frames.length;
  }

  /** The recording so far, ending on the last frame seen (a run still going can be watched up to now). */
  snapshot(): PoseRecording {
    const frames = this.frames.slice();
    const last = frames[frames.length - 1];
    if (this.latest && (!last || readHeader(this.latest).seq !== readHeader(last).seq)) frames.push(this.latest.slice());
    return { meta: this.meta, hz: this.hz, frameLength: this.frameLength, frames };
  }

  /** The whole recording, ending on the run's final state. */
  finish(): PoseRecording {
    return this.snapshot();
  }
}

/** The recording as it travels to a page (frames base64-packed). */
export function recordingInfo(r: PoseRecording): PoseRecordingInfo {
  return { meta: r.meta, hz: r.hz, frameLength: r.frameLength, count: r.frames.length, frames: encodeFrames(r.frames, r.frameLength) };
}

const RecordingFile = z.object({
  format: z.literal('skillbridge-poses/1'),
  runId: z.string(),
  meta: SceneMeta,
  hz: z.number(),
  frameLength: z.number().int().positive(),
  count: z.number().int().nonnegative(),
  frames: z.string(),
});

/** Where a run's poses are stored beside its trace. */
export function posesPath(dir: string, runId: string): string {
  return join(dir, `${runId}.poses.json`);
}

/** Writes `<runId>.poses.json` beside `<runId>.jsonl` (JSON: the scene, the rate, the frames base64-packed). */
export async function writeRecording(dir: string, runId: string, r: PoseRecording): Promise<string> {
  const file = posesPath(dir, runId);
  await writeFile(file, JSON.stringify({ format: 'skillbridge-poses/1', runId, ...recordingInfo(r) }));
  return file;
}

/** Reads a recording written by writeRecording; undefined when there is none or it is damaged. */
export async function readRecording(dir: string, runId: string): Promise<PoseRecording | undefined> {
  try {
    const r = RecordingFile.safeParse(JSON.parse(await readFile(posesPath(dir, runId), 'utf8')));
    if (!r.success) return undefined;
    return { meta: r.data.meta, hz: r.data.hz, frameLength: r.data.frameLength, frames: decodeFrames(r.data.frames, r.data.frameLength) };
  } catch {
    return undefined;
  }
}
