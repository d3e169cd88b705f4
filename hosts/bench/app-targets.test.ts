import { describe, expect, it } from 'vitest';
import { appTargets, fpsTarget } from './app-targets';

const scene = (id: string, fps: number) => ({
  id,
  fps,
  poseLatencyMs: null,
  poseLatencyP95Ms: null,
  framesMeasured: 0,
  drawCalls: null,
  activeMeshes: null,
  activeIndices: null,
  cpuMsPerFrame: null,
});

describe('app targets', () => {
  it('holds tabletop scenes to 45 fps and the kitchen and farm to 30', () => {
    expect(fpsTarget('tabletop/fruits')).toBe(45);
    expect(fpsTarget('kitchen')).toBe(30);
    expect(fpsTarget('farm')).toBe(30);
  });

  it('marks each figure met or missed', () => {
    const t = appTargets({ firstFrameMs: 2400, scenes: [scene('tabletop/fruits', 46), scene('farm', 29.5)] });
    expect(t.map((x) => [x.what, x.met])).toEqual([
      ['first frame (page opened → scene drawn)', false],
      ['tabletop/fruits fps', true],
      ['farm fps', false],
    ]);
  });
});
