// The app's performance targets: first frame within 2 s; every scene at the
// display's 60 fps in software GL at 1440×860 and the default quality (adaptive
// resolution may draw fewer pixels to keep it). The benchmark prints each
// against what it measured.
import type { AppBenchResult } from './app-bench';
import { CLASSROOM_FPS_TARGET, type ClassroomBench } from './classroom-bench';

export interface AppTarget {
  what: string;
  target: string;
  measured: string;
  met: boolean;
}

/**
 * The first frame's goal: from opening the page to the scene's first frame, with
 * the host started at the same moment as the browser (the desktop app starts its
 * window and host together). Chromium's own launch is printed beside it, not in it.
 */
export const FIRST_FRAME_TARGET_MS = 2000;

/** The frame rate every scene aims at: the display's refresh. */
export const FPS_TARGET = 60;

/** The frame rate a scene must reach: one frame a second below the display's refresh is timing, not a missed frame. */
export function fpsTarget(_sceneId: string): number {
  return FPS_TARGET - 1;
}

export function appTargets(r: Pick<AppBenchResult, 'firstFrameMs' | 'scenes'>, classroom: ClassroomBench | null = null): AppTarget[] {
  return [
    {
      what: 'first frame (page opened → scene drawn)',
      target: `≤ ${FIRST_FRAME_TARGET_MS} ms`,
      measured: `${r.firstFrameMs} ms`,
      met: r.firstFrameMs <= FIRST_FRAME_TARGET_MS,
    },
    // A rate measured on a view that was not kept changing counts only the frames something needed: never met.
    ...r.scenes.map((s) => ({
      what: `${s.id} fps while the view changes`,
      target: `≥ ${fpsTarget(s.id)}`,
      measured: s.viewTurned ? String(s.fps) : `${s.fps} (the view was not turned)`,
      met: s.viewTurned && s.fps >= fpsTarget(s.id),
    })),
    ...(classroom
      ? [
          {
            what: 'classroom: the slowest of a teacher and three groups on one machine, fps while every view changes',
            target: `≥ ${CLASSROOM_FPS_TARGET}`,
            measured: String(classroom.minFps),
            met: classroom.minFps >= CLASSROOM_FPS_TARGET,
          },
        ]
      : []),
  ];
}
