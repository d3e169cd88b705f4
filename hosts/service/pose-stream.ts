// The pose stream of the loaded world: a ticker at the frame rate steps a paced
// world (PacedClock in SimControl) and hands every listener one packed frame
// (contract/frames.ts), unless nothing moved — then a heartbeat once a second.
// With no listener and no recording wanting frames, nothing is packed.
import type { PoseListener, Unsubscribe } from '../../contract/api';
import { FLOATS_PER_POSE, FRAME_HEADER, frameLength, writeHeader } from '../../contract/frames';
import type { SimControl } from '../../robot/sim/control';
import { PosePacker, type StreamEntry } from '../../sim/world/stream';
import { writeJoints } from './scene-meta';

/** What the stream reads each frame. */
export interface StreamedWorld {
  control: SimControl;
  entries: readonly StreamEntry[];
  /** Joint values appended after the bodies (0 for robots without an arm). */
  joints: number;
  generation: number;
}

/** Who records the frames sent (the run archive). */
export interface FrameRecorder {
  onFrame(frame: Float32Array): void;
  /** Whether anything is being recorded now. */
  recording(): boolean;
}

export class PoseStream {
  private readonly listeners = new Set<PoseListener>();
  private world: StreamedWorld | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private latest: Float32Array | undefined;
  private packer: PosePacker | undefined;
  private lastSentAt = 0;
  private seq = 0;

  /** `recorder` sees every frame sent (the run archive records them); while it records nothing and no one listens, nothing is packed. */
  constructor(
    private readonly frameMs: number,
    private readonly recorder?: FrameRecorder,
  ) {}

  onPoses(listener: PoseListener): Unsubscribe {
    this.listeners.add(listener);
    // Frames skipped while no one listened: the newcomer gets the world as it is now.
    if (!this.latest) this.publish(true);
    else listener(this.latest.slice());
    return () => this.listeners.delete(listener);
  }

  /** Streams this world from now on (a fresh scene starts with a full frame). */
  attach(world: StreamedWorld): void {
    this.world = world;
    this.latest = undefined;
    this.packer = new PosePacker(world.entries);
    this.publish(true);
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.frameMs);
    // Headless hosts must be able to exit with a session open.
    this.timer.unref?.();
  }

  detach(): void {
    this.world = undefined;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.world = undefined;
    this.listeners.clear();
  }

  private tick(): void {
    const w = this.world;
    if (!w) return;
    w.control.tick(performance.now());
    this.publish(false);
  }

  /** Packs the poses now and hands them to every listener, unless nothing moved. */
  publish(force: boolean): void {
    const w = this.world;
    if (!w || !this.packer) return;
    if (!force && !this.listeners.size && !this.recorder?.recording()) {
      this.latest = undefined;
      return;
    }
    const sim = w.control.world;
    const frame = new Float32Array(frameLength(w.entries.length, w.joints));
    this.packer.pack(sim, frame.subarray(FRAME_HEADER, FRAME_HEADER + w.entries.length * FLOATS_PER_POSE));
    writeJoints(sim, frame, FRAME_HEADER + w.entries.length * FLOATS_PER_POSE, w.joints);
    const now = Date.now();
    if (!force && this.latest && now - this.lastSentAt < 1000 && samePoses(this.latest, frame)) return;
    writeHeader(frame, w.generation, ++this.seq, sim.time, now);
    this.latest = frame;
    this.lastSentAt = now;
    this.recorder?.onFrame(frame);
    for (const l of this.listeners) l(frame.slice());
  }
}

function samePoses(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = FRAME_HEADER; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
