// Work that can wait until the scene has been drawn once: panels that start
// hidden (their requests and rendering would otherwise sit between opening the
// page and its first frame).
import { useEffect, useState } from 'react';

/** A hidden tab draws no frames: past this, the waiting work starts anyway. */
const AT_MOST_MS = 1500;

/**
 * False until `ready` (the scene's metadata is there) and two animation frames
 * later (the view draws its first in the first of them), then true for good.
 */
export function useAfterFirstFrame(ready: boolean): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (done || !ready) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => setDone(true));
    });
    const t = setTimeout(() => setDone(true), AT_MOST_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(t);
    };
  }, [done, ready]);
  return done;
}
