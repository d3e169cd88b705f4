// Mesh objects in the physics: a concave bowl decomposed into convex parts
// holds a ball dropped into it, where its convex hull (a solid lid over the
// hollow) keeps the ball on top; a failed hull is a one-line scene error.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScene } from '../../scenes/load';
import { SceneDataError } from '../../scenes/validation';
import { binaryStl } from '../../test/fixtures/meshes/encode';
import { bowl } from '../../test/fixtures/meshes/shapes';
import { renderCamera } from '../perception/render';
import { renderCameraRays } from '../perception/render-rays';
import { SimWorld } from './sim-world';

const BOWL = { r: 0.12, h: 0.07 };
const AT: [number, number, number] = [1, BOWL.h / 2, 1];

function sceneFile(collision: 'hull' | 'decomposed', extra: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-meshobj-'));
  writeFileSync(join(dir, 'bowl.stl'), binaryStl(bowl(BOWL.r, BOWL.h)));
  // Corners of a tetrahedron, but its only face names one vertex three times: nothing to decompose.
  writeFileSync(join(dir, 'degenerate.obj'), 'v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 1 1\n');
  const scene = {
    id: 'test/mesh-bowl',
    title: 'a bowl from a mesh',
    description: 'a ball dropped over a mesh bowl',
    robot: { config: 'tabletop_arm', pose: { position: [-1, 0.75, -1], yaw: 0 } },
    types: [{ type: 'stl_bowl', name: 'bowl', category: 'container', mesh: 'bowl.stl', collision, mass: 0.3, fixed: true, ...extra }],
    objects: [
      { id: 'bowl_1', type: 'stl_bowl', position: AT },
      { id: 'ball_1', type: 'plum', position: [AT[0], 0.3, AT[2]] },
    ],
    toolSet: 'alrm',
  };
  const file = join(dir, 'scene.json');
  writeFileSync(file, JSON.stringify(scene));
  return file;
}

async function dropped(collision: 'hull' | 'decomposed'): Promise<{ y: number; off: number }> {
  const sim = await SimWorld.create(await loadScene(sceneFile(collision)));
  await sim.idle(2);
  const p = sim.pose('ball_1').p;
  sim.dispose();
  return { y: p.y, off: Math.hypot(p.x - AT[0], p.z - AT[2]) };
}

describe('mesh object colliders', () => {
  it('a decomposed bowl holds a ball dropped into it: below the rim, inside the wall', async () => {
    const { y, off } = await dropped('decomposed');
    expect(y).toBeLessThan(BOWL.h);
    expect(off).toBeLessThan(BOWL.r);
  }, 30_000);

  it("the bowl's convex hull keeps the ball out: it lands on the lid the hull puts over the hollow or rolls off", async () => {
    const { y, off } = await dropped('hull');
    expect(y > BOWL.h || off > BOWL.r).toBe(true);
  }, 30_000);

  it('a decomposition that makes no part is one line naming the field and the file, when the world is built', async () => {
    const scene = await loadScene(sceneFile('decomposed', { mesh: 'degenerate.obj' }));
    const e = await SimWorld.create(scene).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SceneDataError);
    expect((e as Error).message).toMatch(/^types\[0\]\.mesh \(degenerate\.obj\): the convex decomposition made no convex part/);
  });

  it('a mesh whose file is missing is one line naming the field and the file', async () => {
    const file = sceneFile('hull', { mesh: 'nothing.glb' });
    const e = await loadScene(file).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SceneDataError);
    expect((e as SceneDataError).problems).toEqual([expect.stringMatching(/^types\[0\]\.mesh \(nothing\.glb\): no such file/)]);
  });

  it('the ray-cast camera and the picture given to models both see mesh objects by their colliders', async () => {
    const sim = await SimWorld.create(await loadScene(join(import.meta.dirname, '../../test/fixtures/meshes/mesh-scene.json')));
    const rays = renderCameraRays(sim, { width: 160 }).labels;
    // The picture models are given (rasterised) draws each convex part, where the rays meet them.
    const picture = renderCamera(sim, { width: 160 }).labels;
    sim.dispose();
    for (const id of ['bowl_1', 'block_1']) {
      const byRays = rays.filter((l) => l === id).length;
      const drawn = picture.filter((l) => l === id).length;
      expect({ id, byRays: byRays > 20 }).toEqual({ id, byRays: true });
      expect(Math.abs(drawn - byRays) / byRays, `${id}: ${drawn} pixels drawn, ${byRays} by rays`).toBeLessThan(0.15);
    }
  }, 30_000);
});
