// The frame rate the view draws at while something changes and the resolution
// it draws at (adaptive resolution lowers it on a slow machine), refreshed twice
// a second (a toggle in the view's toolbar, or the key P): what a teacher checks
// before blaming the model. The view draws only what changed: when nothing did
// for a second it says "idle", not a low rate that would read as a slow machine.
import { useEffect, useState } from 'react';
import { resolutionPercent } from './adaptive-scale';

export interface FrameRate {
  /** Frames per second while something changes; null: nothing changed in the last second. */
  fps: number | null;
  /** Hardware scaling level: pixels drawn per side = 1/level. */
  level: number;
  /** What draws the view (WebGL's renderer: a GPU, llvmpipe or SwiftShader). */
  renderer?: string;
}

export function FpsReadout({ fps }: { fps: () => FrameRate | undefined }) {
  const [value, setValue] = useState<FrameRate | undefined>(undefined);
  useEffect(() => {
    const t = setInterval(() => setValue(fps()), 500);
    return () => clearInterval(t);
  }, [fps]);
  return (
    <div className="view-fps" data-testid="fps-readout" aria-live="off" title={value?.renderer ? `Drawn by ${value.renderer}` : undefined}>
      {value === undefined ? '… fps' : `${readoutText(value)} · ${resolutionPercent(value.level)} % res`}
    </div>
  );
}

/** The rate part of the readout. */
export function readoutText(r: FrameRate): string {
  return r.fps === null ? 'idle' : `${Math.round(r.fps)} fps`;
}
