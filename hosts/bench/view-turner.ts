// Keeps a page's 3D view changing as a person dragging it would: the view
// draws only what changed, so a frame rate measured on a still view would
// count the frames nothing needed. The mouse is pressed on the canvas and swung
// left and right until stopped: with the left button away from the objects it
// turns the view (pressed on a movable object it would drag that instead);
// where objects cover the spots tried, with the right button, which pans it
// (and never drags). Either way the view changes at every display frame.
import type { Page } from 'playwright-core';

interface TurnProbe {
  labels?(): Array<{ id: string }>;
  screenBox?(id: string): [number, number, number, number] | null;
}

/** How the view is kept changing. */
export type Motion = 'turn' | 'pan';

/** A canvas point (CSS pixels) in the lower middle of the view that none of `avoid` covers (all labelled things when not given). */
async function clearPoint(page: Page, avoid: readonly string[] | undefined): Promise<[number, number] | null> {
  const box = await page.locator('[data-testid="scene-canvas"]').boundingBox();
  if (!box) return null;
  const boxes = await page.evaluate((ids) => {
    const p = (globalThis as unknown as { __skillbridge?: TurnProbe }).__skillbridge;
    return (ids ?? (p?.labels?.() ?? []).map((l) => l.id)).map((id) => p?.screenBox?.(id) ?? null).filter((b) => b !== null);
  }, avoid ?? null);
  const margin = 12;
  // Rows low in the view (the toolbar and the robot camera's image sit at the top), across its middle.
  for (const fy of [0.86, 0.78, 0.7, 0.62])
    for (const fx of [0.5, 0.35, 0.65, 0.25, 0.75]) {
      const x = box.width * fx;
      const y = box.height * fy;
      const covered = boxes.some((b) => x > b[0] - margin && x < b[2] + margin && y > b[1] - margin && y < b[3] + margin);
      if (!covered) return [box.x + x, box.y + y];
    }
  return null;
}

/**
 * Starts moving the view (`avoid`: the movable objects' ids, when known);
 * resolves with how, and a function that stops it (and releases the mouse).
 * Null when the page has no canvas.
 */
export async function keepTurning(
  page: Page,
  avoid?: readonly string[],
  swingPx = 140,
): Promise<{ motion: Motion; stop: () => Promise<void> } | null> {
  const canvas = await page.locator('[data-testid="scene-canvas"]').boundingBox();
  if (!canvas) return null;
  const clear = await clearPoint(page, avoid);
  const motion: Motion = clear ? 'turn' : 'pan';
  const [x, y] = clear ?? [canvas.x + canvas.width / 2, canvas.y + canvas.height * 0.8];
  const button = motion === 'turn' ? 'left' : 'right';
  await page.mouse.move(x, y);
  await page.mouse.down({ button });
  let running = true;
  const loop = (async () => {
    for (let t = 0; running; t++) {
      await page.mouse.move(x + Math.sin(t / 25) * swingPx, y);
      await new Promise((r) => setTimeout(r, 16));
    }
    await page.mouse.up({ button });
  })();
  return {
    motion,
    stop: async () => {
      running = false;
      await loop.catch(() => undefined);
    },
  };
}

/**
 * Waits while the views keep changing until adaptive resolution has found its
 * level on every page (no change for `stableMs`, two of its 1.5 s judgements), at most `maxMs`; resolves with
 * the milliseconds waited. From the quality's base a view steps down a level per
 * 1.5 s, so a rate counted from the first turn would be mostly the search, not
 * the rate a person turning the view gets.
 */
export async function settleResolution(pages: readonly Page[], stableMs = 3500, maxMs = 15_000): Promise<number> {
  const start = Date.now();
  const level = (p: Page) =>
    p.evaluate(() => (globalThis as unknown as { __skillbridge?: { scaling?(): number } }).__skillbridge?.scaling?.() ?? null);
  let last = await Promise.all(pages.map(level));
  let since = Date.now();
  while (Date.now() - start < maxMs && Date.now() - since < stableMs) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await Promise.all(pages.map(level));
    if (now.some((l, i) => l !== last[i])) since = Date.now();
    last = now;
  }
  return Date.now() - start;
}
