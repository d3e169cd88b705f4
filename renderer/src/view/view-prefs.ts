// How the 3D view draws, as a person chose it on this machine (kept in the
// browser's storage): the rendering quality and whether the fps readout shows.
import { useCallback, useEffect, useState } from 'react';

export type Quality = 'low' | 'medium' | 'high';
export const QUALITIES: readonly Quality[] = ['low', 'medium', 'high'];

export interface ViewPrefs {
  quality: Quality;
  fps: boolean;
}

const KEY = 'skillbridge.view';
export const DEFAULT_PREFS: ViewPrefs = { quality: 'medium', fps: false };

/** What a quality level sets in the renderer. */
export interface QualitySettings {
  /** Hardware scaling level: pixels drawn per side = 1/level. */
  scaling: number;
  /** The highest level adaptive resolution may go to when frames come slowly (equal to `scaling`: it stays fixed). */
  floor: number;
  shadows: boolean;
  /** An antialiasing pass over the image (FXAA: smooth edges for one cheap full-screen pass). */
  antialias: boolean;
}

/**
 * What a quality level means for the renderer: the resolution, shadows and
 * antialiasing. Medium is the default: full resolution, shadows and antialiasing
 * on a GPU; on software GL (no GPU) a quarter of the pixels, no shadows and no
 * antialiasing pass, which keeps a class's laptops fluid. High turns everything
 * on; low turns everything off. At low and medium a slow machine draws fewer
 * pixels, down to the floor (adaptive-scale.ts); high keeps its resolution.
 */
export function qualitySettings(q: Quality, software: boolean, dpr = 1): QualitySettings {
  switch (q) {
    case 'low':
      return { scaling: software ? 2.5 : 2, floor: software ? 3.5 : 3, shadows: false, antialias: false };
    case 'medium':
      return { scaling: software ? 2 : 1, floor: software ? 3 : 1.5, shadows: !software, antialias: !software };
    case 'high': {
      // Sharp on a high-density screen; software GL draws 70 % of the pixels per side. Never lowered.
      const scaling = software ? 1.4 : 1 / Math.min(2, Math.max(1, dpr));
      return { scaling, floor: scaling, shadows: true, antialias: true };
    }
  }
}

export function loadPrefs(store: Storage | undefined = globalThis.localStorage): ViewPrefs {
  try {
    const v = JSON.parse(store?.getItem(KEY) ?? 'null') as Partial<ViewPrefs> | null;
    if (!v || typeof v !== 'object') return DEFAULT_PREFS;
    return {
      quality: QUALITIES.includes(v.quality as Quality) ? (v.quality as Quality) : DEFAULT_PREFS.quality,
      fps: typeof v.fps === 'boolean' ? v.fps : DEFAULT_PREFS.fps,
    };
  } catch {
    return DEFAULT_PREFS;
  }
}

export function useViewPrefs(): [ViewPrefs, (patch: Partial<ViewPrefs>) => void] {
  const [p, setP] = useState<ViewPrefs>(() => loadPrefs());
  useEffect(() => {
    try {
      globalThis.localStorage?.setItem(KEY, JSON.stringify(p));
    } catch {
      // storage off: the choice lasts for this page
    }
  }, [p]);
  const patch = useCallback((x: Partial<ViewPrefs>) => setP((cur) => ({ ...cur, ...x })), []);
  return [p, patch];
}
