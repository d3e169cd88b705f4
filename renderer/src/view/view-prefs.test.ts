// The rendering quality levels: each sets resolution, shadows and antialiasing,
// and a level chosen is read back from storage as it was kept.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFS, loadPrefs, qualitySettings } from './view-prefs';

function store(v: unknown): Storage {
  const m = new Map<string, string>([['skillbridge.view', JSON.stringify(v)]]);
  return { getItem: (k: string) => m.get(k) ?? null } as unknown as Storage;
}

describe('rendering quality', () => {
  it('antialiasing is part of the level: on at high, off at low, on at medium only with a GPU', () => {
    for (const software of [true, false]) {
      expect(qualitySettings('high', software).antialias).toBe(true);
      expect(qualitySettings('low', software).antialias).toBe(false);
    }
    expect(qualitySettings('medium', false).antialias).toBe(true);
    expect(qualitySettings('medium', true).antialias).toBe(false);
  });

  it('a lower level never draws more pixels or more passes than a higher one', () => {
    for (const software of [true, false]) {
      const [low, medium, high] = (['low', 'medium', 'high'] as const).map((q) => qualitySettings(q, software, 2));
      expect(low!.scaling).toBeGreaterThanOrEqual(medium!.scaling);
      expect(medium!.scaling).toBeGreaterThanOrEqual(high!.scaling);
      expect(Number(low!.antialias) + Number(low!.shadows)).toBeLessThanOrEqual(Number(medium!.antialias) + Number(medium!.shadows));
      expect(Number(medium!.antialias) + Number(medium!.shadows)).toBeLessThanOrEqual(Number(high!.antialias) + Number(high!.shadows));
    }
  });

  it('the level kept in storage is read back; an unknown one falls back to the default', () => {
    expect(loadPrefs(store({ quality: 'high', fps: true }))).toEqual({ quality: 'high', fps: true });
    expect(loadPrefs(store({ quality: 'ultra' })).quality).toBe(DEFAULT_PREFS.quality);
  });
});
