// Layout of one pose frame: a Float32Array with a small header, 7 floats per
// streamed body (x, y, z, qx, qy, qz, qw, in SceneMeta.stream order) and then the
// robot's joint values (SceneMeta.robot.jointNames order).
export const FRAME_HEADER = 5;
export const FLOATS_PER_POSE = 7;

/** Header slots. Wall time is split in two floats: float32 cannot hold epoch milliseconds. */
export const H_GENERATION = 0;
export const H_SEQ = 1;
export const H_SIM_TIME = 2;
export const H_WALL_HI = 3;
export const H_WALL_LO = 4;

const SPLIT = 1e6;

export function frameLength(bodies: number, joints: number): number {
  return FRAME_HEADER + bodies * FLOATS_PER_POSE + joints;
}

export function writeHeader(frame: Float32Array, generation: number, seq: number, simTime: number, wallMs: number): void {
  const hi = Math.floor(wallMs / SPLIT);
  frame[H_GENERATION] = generation;
  frame[H_SEQ] = seq;
  frame[H_SIM_TIME] = simTime;
  frame[H_WALL_HI] = hi;
  frame[H_WALL_LO] = wallMs - hi * SPLIT;
}

export interface FrameHeader {
  generation: number;
  seq: number;
  simTime: number;
  /** Date.now() on the host when the frame was packed (sub-millisecond precision lost). */
  wallMs: number;
}

export function readHeader(frame: Float32Array): FrameHeader {
  return {
    generation: frame[H_GENERATION] ?? -1,
    seq: frame[H_SEQ] ?? -1,
    simTime: frame[H_SIM_TIME] ?? 0,
    wallMs: (frame[H_WALL_HI] ?? 0) * SPLIT + (frame[H_WALL_LO] ?? 0),
  };
}

/** Offset of body `index`'s pose in a frame. */
export function poseOffset(index: number): number {
  return FRAME_HEADER + index * FLOATS_PER_POSE;
}

/** Frames back to back as base64 (little-endian float32, as every platform we run on stores them). */
export function encodeFrames(frames: readonly Float32Array[], frameLength: number): string {
  const all = new Float32Array(frames.length * frameLength);
  frames.forEach((f, i) => all.set(f.subarray(0, frameLength), i * frameLength));
  const bytes = new Uint8Array(all.buffer);
  let bin = '';
  // In chunks: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** The frames `encodeFrames` packed; a length that is not whole frames is an error. */
export function decodeFrames(b64: string, frameLength: number): Float32Array[] {
  const bin = atob(b64);
  if (bin.length % (frameLength * 4) !== 0)
    throw new Error(`pose frames: ${bin.length} bytes is not a whole number of ${frameLength}-float frames`);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const all = new Float32Array(bytes.buffer);
  const out: Float32Array[] = [];
  for (let o = 0; o < all.length; o += frameLength) out.push(all.subarray(o, o + frameLength));
  return out;
}
