// The pose stream: the world's streamed bodies and the robot's joints packed
// into one Float32Array per frame (contract/frames.ts), handed to every
// listener, latest wins. Unchanged poses are not resent, except a heartbeat.
import type { PoseListener, Unsubscribe } from '../../contract/api';
import { FLOATS_PER_POSE, FRAME_HEADER, frameLength, writeHeader } from '../../contract/frames';
import type { SceneMeta } from '../../contract/schemas';
import type { SimControl } from '../../robot/sim/control';
import { packPoses, type StreamEntry } from '../../sim/stream';

export interface StreamedWorld {
  control: SimControl;
  meta: SceneMeta;
  entries: StreamEntry[];
}

/** A frame goes out at least this often while nothing moves, so a new viewer sees the scene. */
const HEARTBEAT_MS = 1000;

export class PoseStream {
  private readonly listeners = new Set<PoseListener>();
  private latest: Float32Array | undefined;
  private seq = 0;
  private lastSentAt = 0;

  subscribe(listener: PoseListener): Unsubscribe {
    this.listeners.add(listener);
    if (this.latest) listener(this.latest.slice());
    return () => this.listeners.delete(listener);
  }

  /** A new scene: the last frame belongs to the old one. */
  reset(): void {
    this.latest = undefined;
  }

  clear(): void {
    this.listeners.clear();
  }

  /** Packs the poses now and hands them out unless nothing moved; returns the frame sent, if any. */
  publish(w: StreamedWorld, generation: number, force: boolean): Float32Array | undefined {
    const sim = w.control.world;
    const joints = w.meta.robot.jointNames.length;
    const frame = new Float32Array(frameLength(w.entries.length, joints));
    packPoses(sim, w.entries, frame.subarray(FRAME_HEADER, FRAME_HEADER + w.entries.length * FLOATS_PER_POSE));
    if (joints) {
      const q = sim.body.q ?? [0, 0, 0, 0, 0];
      const o = FRAME_HEADER + w.entries.length * FLOATS_PER_POSE;
      for (let i = 0; i < 5; i++) frame[o + i] = q[i] ?? 0;
      frame[o + 5] = sim.body.opening;
    }
    const now = Date.now();
    if (!force && this.latest && now - this.lastSentAt < HEARTBEAT_MS && samePoses(this.latest, frame)) return undefined;
    writeHeader(frame, generation, ++this.seq, sim.time, now);
    this.latest = frame;
    this.lastSentAt = now;
    for (const l of this.listeners) l(frame.slice());
    return frame;
  }
}

function samePoses(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = FRAME_HEADER; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
