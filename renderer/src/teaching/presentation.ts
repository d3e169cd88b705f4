// Presentation settings for a projector: text scale, labels on every object,
// the camera following the robot, and which side panels are open. Kept in the
// browser's storage so a teacher's room setup survives a reload.
import { useCallback, useEffect, useState } from 'react';

export interface Presentation {
  /** Presentation mode: the settings below at projector values. */
  on: boolean;
  /** Text scale, 0.8-2. */
  scale: number;
  labels: boolean;
  follow: boolean;
  left: boolean;
  right: boolean;
}

const KEY = 'skillbridge.presentation';
export const SCALES = [0.85, 1, 1.15, 1.3, 1.5, 1.75, 2] as const;

/** Narrow windows (a laptop at 150 % zoom) start with the tool console folded away, so the view keeps its room. */
export function defaults(width: number): Presentation {
  return { on: false, scale: 1, labels: false, follow: false, left: width >= 1100, right: true };
}

export function loadPresentation(width: number, store: Storage | undefined = globalThis.localStorage): Presentation {
  const d = defaults(width);
  try {
    const v = JSON.parse(store?.getItem(KEY) ?? 'null') as Partial<Presentation> | null;
    if (!v || typeof v !== 'object') return d;
    const scale = typeof v.scale === 'number' && v.scale >= 0.8 && v.scale <= 2 ? v.scale : d.scale;
    const b = (x: unknown, dflt: boolean): boolean => (typeof x === 'boolean' ? x : dflt);
    // The panel layout follows the window, not an earlier visit on a bigger screen.
    return { on: b(v.on, d.on), scale, labels: b(v.labels, d.labels), follow: b(v.follow, d.follow), left: d.left, right: d.right };
  } catch {
    return d;
  }
}

export function stepScale(scale: number, dir: 1 | -1): number {
  const i = SCALES.findIndex((s) => s >= scale - 1e-6);
  const at = i < 0 ? SCALES.length - 1 : i;
  return SCALES[Math.max(0, Math.min(SCALES.length - 1, at + dir))]!;
}

export function usePresentation(): [Presentation, (patch: Partial<Presentation>) => void, () => void] {
  const [p, setP] = useState<Presentation>(() => loadPresentation(globalThis.innerWidth ?? 1440));
  useEffect(() => {
    try {
      globalThis.localStorage?.setItem(KEY, JSON.stringify(p));
    } catch {
      // storage off: the settings last for this page
    }
    document.documentElement.style.setProperty('--scale', String(p.scale));
  }, [p]);
  const patch = useCallback((x: Partial<Presentation>) => setP((cur) => ({ ...cur, ...x })), []);
  const toggle = useCallback(
    () =>
      setP((cur) =>
        // On: the side panels fold so the view gets the screen (the rails open them again); off: back to the window's layout.
        cur.on
          ? { ...cur, on: false, scale: 1, labels: false, follow: false, left: defaults(globalThis.innerWidth ?? 1440).left, right: true }
          : { ...cur, on: true, scale: Math.max(cur.scale, 1.3), labels: true, follow: true, left: false, right: false },
      ),
    [],
  );
  return [p, patch, toggle];
}
