// Keeps a page's 3D view changing as a person dragging it would: the view
// draws only what changed, so a frame rate measured on a still view would
// count the frames nothing needed. The mouse is pressed on the canvas away from
// every object (pressing on a movable one would drag it instead) and swung left
// and right until stopped; the camera turns at every display frame.
import type { Page } from 'playwright-core';

interface TurnProbe {
  labels?(): Array<{ id: string }>;
  screenBox?(id: string): [number, number, number, number] | null;
}

/** A canvas point (CSS pixels) in the lower middle of the view that no labelled thing covers. */
async function clearPoint(page: Page): Promise<[number, number] | null> {
  const box = await page.locator('[data-testid="scene-canvas"]').boundingBox();
  if (!box) return null;
  const boxes = await page.evaluate(() => {
    const p = (globalThis as unknown as { __skillbridge?: TurnProbe }).__skillbridge;
    return (p?.labels?.() ?? []).map((l) => p?.screenBox?.(l.id) ?? null).filter((b) => b !== null);
  });
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

/** Starts turning the view; resolves with a function that stops it (and releases the mouse). Null when no clear point was found. */
export async function keepTurning(page: Page, swingPx = 140): Promise<(() => Promise<void>) | null> {
  const at = await clearPoint(page);
  if (!at) return null;
  const [x, y] = at;
  await page.mouse.move(x, y);
  await page.mouse.down();
  let running = true;
  const loop = (async () => {
    for (let t = 0; running; t++) {
      await page.mouse.move(x + Math.sin(t / 25) * swingPx, y);
      await new Promise((r) => setTimeout(r, 16));
    }
    await page.mouse.up();
  })();
  return async () => {
    running = false;
    await loop.catch(() => undefined);
  };
}
