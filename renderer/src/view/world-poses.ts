// Pose application: the newest pose frame is kept and applied just before the
// next render (a slow page sees fewer frames, never a backlog), and the time from
// the host packing a frame to it being drawn is sampled for the probe.
import { FRAME_HEADER, poseOffset, readHeader } from '../../../contract/frames';
import type { SceneMeta } from '../../../contract/schemas';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { type LatencyStats, stats } from './probe';
import type { SceneGraph } from './world-build';

const LATENCY_SAMPLES = 240;

export class PoseApplier {
  private pending: Float32Array | undefined;
  private appliedSeq = -1;
  private appliedWall = 0;
  private latencyDue = false;
  private latencies: number[] = [];
  /** The frame applied last (its poses are what is drawn). */
  private last: Float32Array | undefined;

  /** `skip` keeps a node where it is (an object a person is dragging). */
  constructor(
    private readonly graph: SceneGraph,
    private readonly meta: SceneMeta,
    private readonly skip: (node: TransformNode) => boolean = () => false,
  ) {}

  /**
   * Keeps only the newest frame; it is applied just before the next render.
   * True when it may move something: not a repeat of the poses last received
   * (the host's once-a-second heartbeat), which needs no frame of its own.
   */
  accept(frame: Float32Array): boolean {
    const before = this.pending ?? this.last;
    this.pending = frame;
    return !before || !samePoses(before, frame);
  }

  /**
   * Applies the pending frame if it belongs to this scene and is newer than the
   * last one drawn; true when it moved anything (the host's once-a-second
   * heartbeat repeats the poses as they are).
   */
  applyPending(): boolean {
    const f = this.pending;
    if (!f) return false;
    this.pending = undefined;
    const h = readHeader(f);
    if (h.generation !== this.meta.generation || h.seq <= this.appliedSeq) return false;
    const moved = !this.last || !samePoses(this.last, f);
    this.apply(f);
    this.appliedSeq = h.seq;
    this.appliedWall = h.wallMs;
    this.latencyDue = true;
    return moved;
  }

  /** Moves every streamed node to its pose in `f`. */
  apply(f: Float32Array): void {
    this.last = f;
    const streamed = this.graph.streamed;
    for (let i = 0; i < streamed.length; i++) {
      const n = streamed[i];
      if (!n || this.skip(n)) continue;
      const o = poseOffset(i);
      n.position.set(f[o]!, f[o + 1]!, f[o + 2]!);
      n.rotationQuaternion!.set(f[o + 3]!, f[o + 4]!, f[o + 5]!, f[o + 6]!);
    }
  }

  /** After a render: records how long the frame drawn took from the host. */
  afterRender(): void {
    if (!this.latencyDue) return;
    this.latencyDue = false;
    this.latencies.push(Date.now() - this.appliedWall);
    if (this.latencies.length > LATENCY_SAMPLES) this.latencies.shift();
  }

  get seq(): number {
    return this.appliedSeq;
  }

  latency(): LatencyStats {
    return stats(this.latencies);
  }

  resetStats(): void {
    this.latencies = [];
  }
}

/** Whether two frames hold the same poses and joint values (their headers aside). */
export function samePoses(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = FRAME_HEADER; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
