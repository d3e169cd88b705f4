// The frame rate the view draws at, refreshed twice a second (a toggle in the
// view's toolbar, or the key P): what a teacher checks before blaming the model.
import { useEffect, useState } from 'react';

export function FpsReadout({ fps }: { fps: () => number | undefined }) {
  const [value, setValue] = useState<number | undefined>(undefined);
  useEffect(() => {
    const t = setInterval(() => setValue(fps()), 500);
    return () => clearInterval(t);
  }, [fps]);
  return (
    <div className="view-fps" data-testid="fps-readout" aria-live="off">
      {value === undefined ? '… fps' : `${Math.round(value)} fps`}
    </div>
  );
}
