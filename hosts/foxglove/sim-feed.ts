// A simulated world as Foxglove sees it: the scene's metadata once, then pose
// frames in the app's packed layout (contract/frames.ts), the camera's pose and
// picture, and the ground-truth facts (the operator's view, not the robot's).
import { FRAME_HEADER, FLOATS_PER_POSE, frameLength, writeHeader } from '../../contract/frames';
import type { SceneMeta } from '../../contract/schemas';
import { encodePng } from '../../base/png';
import type { SimControl } from '../../robot/sources';
import { cameraView } from '../../sim/perception/camera';
import { renderCamera } from '../../sim/perception/render';
import { type StreamEntry, packPoses } from '../../sim/world/stream';
import { buildSceneMeta, writeJoints } from '../service/scene-meta';
import type { Robot } from '../../robot/robot';
import type { LiveWorld } from './live';
import type { ExtraFrame, Space } from './messages';

export class SimFeed {
  readonly meta: SceneMeta;
  private readonly entries: StreamEntry[];
  private seq = 0;

  constructor(
    readonly control: SimControl,
    private readonly generation = 1,
  ) {
    const built = buildSceneMeta(control.world, generation);
    this.meta = built.meta;
    this.entries = built.entries;
  }

  /** Every moving body's pose now, then the arm's joints and the gripper opening. */
  frame(): Float32Array {
    const sim = this.control.world;
    const joints = this.meta.robot.jointNames.length;
    const frame = new Float32Array(frameLength(this.entries.length, joints));
    packPoses(sim, this.entries, frame.subarray(FRAME_HEADER, FRAME_HEADER + this.entries.length * FLOATS_PER_POSE));
    writeJoints(sim, frame, FRAME_HEADER + this.entries.length * FLOATS_PER_POSE, joints);
    writeHeader(frame, this.generation, ++this.seq, sim.time, Date.now());
    return frame;
  }

  camera(): ExtraFrame {
    const p = cameraView(this.control.world).pose;
    return { frame: 'robot#camera', position: { x: p.p.x, y: p.p.y, z: p.p.z }, rotation: { x: p.q.x, y: p.q.y, z: p.q.z, w: p.q.w } };
  }

  /** The camera picture as base64 PNG (a flat-shaded ray-cast rendering; see sim/perception/render.ts). */
  picture(width = 160): string {
    const img = renderCamera(this.control.world, { width });
    return encodePng(img.width, img.height, img.rgb).toString('base64');
  }

  facts(): string[] {
    return this.control.facts();
  }
}

/** A simulated robot's world for the live server. */
export function liveWorld(feed: SimFeed, robot: Robot, space: Space): LiveWorld {
  return {
    space,
    meta: () => feed.meta,
    frame: () => feed.frame(),
    camera: () => feed.camera(),
    picture: () => feed.picture(),
    facts: () => ({ time: feed.control.time(), facts: feed.facts() }),
    onEvent: (listener) => robot.events.subscribe((e) => listener({ type: e.type, text: e.text })),
  };
}

/** Worlds side by side: each robot's frames under "NAME/", its floor 2 m past the previous one. */
export function spacesFor(feeds: ReadonlyArray<{ name: string; feed: SimFeed }>): Space[] {
  if (feeds.length === 1) return [{ prefix: '', offset: { x: 0, y: 0, z: 0 } }];
  let x = 0;
  return feeds.map(({ name, feed }) => {
    const [w] = feed.meta.floor.size;
    const space = { prefix: `${name}/`, offset: { x: x + w / 2, y: 0, z: 0 } };
    x += w + 2;
    return space;
  });
}
