import { describe, expect, it } from 'vitest';
import { COARSE, FINE, facets } from './world-build';

describe('facets of round shapes', () => {
  it('a field cuts its plants and posts coarser (fewer vertices), never a large shape such as a crown', () => {
    const post = facets(COARSE, 0.05);
    expect(post.sphere).toBeLessThan(FINE.sphere);
    expect(post.cylinder).toBeLessThan(FINE.cylinder);
    expect(post.capsule).toBeLessThan(FINE.capsule);
    expect(facets(COARSE, 2)).toEqual(FINE);
  });

  it('other scenes keep every shape fine', () => {
    for (const r of [0.01, 0.2, 2]) expect(facets(FINE, r)).toEqual(FINE);
  });
});
