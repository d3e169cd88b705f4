// Holds the latest pose frame (latest wins) for whoever needs a current pose
// outside the render loop, such as the event injector's "move object" form.
import type { SceneMeta } from '../../contract/schemas';
import { readHeader, poseOffset } from '../../contract/frames';
import { type BasePose, basePoseIn } from './panels/robot-frame';

export class PoseStore {
  frame: Float32Array | undefined;

  accept(frame: Float32Array): void {
    this.frame = frame;
  }

  /** Current position of a streamed body, or its static pose when it never moves. */
  position(meta: SceneMeta, id: string): [number, number, number] | undefined {
    const obj = meta.objects.find((o) => o.id === id);
    const body = obj?.body ?? meta.people.find((p) => p.id === id)?.body;
    if (!body) return undefined;
    const f = this.frame;
    if (body.stream !== null && f && readHeader(f).generation === meta.generation) {
      const o = poseOffset(body.stream);
      return [f[o] ?? 0, f[o + 1] ?? 0, f[o + 2] ?? 0];
    }
    return [...body.position];
  }

  /** The robot base's current pose: the frame the tools' positions are in. */
  basePose(meta: SceneMeta): BasePose | undefined {
    return basePoseIn(meta, this.frame);
  }
}
