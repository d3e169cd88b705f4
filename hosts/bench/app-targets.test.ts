import { describe, expect, it } from 'vitest';
import { appTargets, fpsTarget } from './app-targets';

const scene = (id: string, fps: number, viewTurned = true) => ({
  id,
  fps,
  viewTurned,
  motion: viewTurned ? ('turn' as const) : null,
  poseLatencyMs: null,
  poseLatencyP95Ms: null,
  framesMeasured: 0,
  drawCalls: null,
  activeMeshes: null,
  activeIndices: null,
  cpuMsPerFrame: null,
  resolutionPercent: null,
  settleMs: 0,
});

describe('app targets', () => {
  it('holds every scene to the display’s 60 fps (one frame a second of timing allowed)', () => {
    expect(fpsTarget('tabletop/fruits')).toBe(59);
    expect(fpsTarget('kitchen')).toBe(59);
    expect(fpsTarget('farm')).toBe(59);
  });

  it('marks each figure met or missed', () => {
    const t = appTargets({ firstFrameMs: 2400, scenes: [scene('tabletop/fruits', 59.4), scene('farm', 52)] });
    expect(t.map((x) => [x.what, x.met])).toEqual([
      ['first frame (page opened → scene drawn)', false],
      ['tabletop/fruits fps while the view changes', true],
      ['farm fps while the view changes', false],
    ]);
  });

  it('a rate measured on a view that was not kept changing is never met: it counts only the frames something needed', () => {
    const [, t] = appTargets({ firstFrameMs: 900, scenes: [scene('kitchen', 60, false)] });
    expect(t).toMatchObject({ met: false, measured: '60 (the view was not turned)' });
  });
});
