// The headless camera: pixels come from rays through the physics world, so what
// the picture shows follows the world (an object moved away leaves the picture;
// one in front hides what is behind it).
import { describe, expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import { renderCamera } from './render';

const share = (labels: string[], id: string) => labels.filter((l) => l === id).length / labels.length;

describe('renderCamera', () => {
  it("draws what is in front of the robot's camera in its colours, and follows the world", async () => {
    const sim = await sceneWorld('tabletop/fruits');
    const img = renderCamera(sim, { width: 96 });
    expect([img.width, img.height, img.rgb.length]).toEqual([96, 72, 96 * 72 * 3]);
    expect(share(img.labels, 'table_1')).toBeGreaterThan(0.2);
    expect(share(img.labels, 'lemon_1')).toBeGreaterThan(0);
    // A lemon pixel is yellow: red and green well above blue.
    const i = img.labels.indexOf('lemon_1');
    const [r, g, b] = [img.rgb[i * 3]!, img.rgb[i * 3 + 1]!, img.rgb[i * 3 + 2]!];
    expect(r).toBeGreaterThan(b + 40);
    expect(g).toBeGreaterThan(b + 40);

    sim.inject({ type: 'object_moved', object: 'lemon_1', to: [2.5, 0.1, 2.5] });
    for (let k = 0; k < 60; k++) sim.step();
    const after = renderCamera(sim, { width: 96 });
    expect(after.labels).not.toContain('lemon_1');
    expect(share(after.labels, 'table_1')).toBeGreaterThan(0.2);
    sim.dispose();
  });

  it('clamps the size to 16–640 pixels wide', async () => {
    const sim = await sceneWorld('tabletop/fruits');
    expect(renderCamera(sim, { width: 2 }).width).toBe(16);
    expect(renderCamera(sim, { width: 5000, height: 10 }).height).toBe(12);
    sim.dispose();
  });
});
