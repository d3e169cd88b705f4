// The frame rate the view draws at and the resolution it draws at (adaptive
// resolution lowers it on a slow machine), refreshed twice a second (a toggle
// in the view's toolbar, or the key P): what a teacher checks before blaming
// the model.
import { useEffect, useState } from 'react';
import { resolutionPercent } from './adaptive-scale';

export interface FrameRate {
  fps: number;
  /** Hardware scaling level: pixels drawn per side = 1/level. */
  level: number;
}

export function FpsReadout({ fps }: { fps: () => FrameRate | undefined }) {
  const [value, setValue] = useState<FrameRate | undefined>(undefined);
  useEffect(() => {
    const t = setInterval(() => setValue(fps()), 500);
    return () => clearInterval(t);
  }, [fps]);
  return (
    <div className="view-fps" data-testid="fps-readout" aria-live="off">
      {value === undefined ? '… fps' : `${Math.round(value.fps)} fps · ${resolutionPercent(value.level)} % res`}
    </div>
  );
}
