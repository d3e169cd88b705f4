import { describe, expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import { pick, place } from '../skills/manipulation';
import { PosePacker, packPoses, streamEntries } from './stream';
import type { SimWorld } from './sim-world';

/** Packs a frame every 4 steps (60 Hz at 240 Hz) while `steps` run, asserting each equals a full read. */
function framesAgree(sim: SimWorld, packer: PosePacker, frame: Float32Array, steps: number): number {
  let copied = 0;
  for (let i = 1; i <= steps; i++) {
    sim.step();
    if (i % 4) continue;
    packer.pack(sim, frame);
    expect(Array.from(frame)).toEqual(Array.from(packPoses(sim, packer.entries)));
    copied += packer.entries.filter((e) => e.kind === 'object').length - packer.lastReads;
  }
  return copied;
}

describe('PosePacker', () => {
  it('sends the same frames as reading every body, while skipping objects that slept since the last frame', async () => {
    const sim = await sceneWorld('tabletop/fruits');
    const packer = new PosePacker(streamEntries(sim));
    const objects = packer.entries.filter((e) => e.kind === 'object').length;
    const frame = new Float32Array(packer.entries.length * 7);
    // A world at rest: after the first frame, no object is read again.
    framesAgree(sim, packer, frame, 240);
    packer.pack(sim, frame);
    expect(packer.lastReads).toBe(0);
    // Picking, carrying and placing wakes what it touches; every frame still matches a full read.
    await pick(sim, 'plum_1');
    expect(framesAgree(sim, packer, frame, 480)).toBeGreaterThan(0);
    await place(sim, { kind: 'object', id: 'bowl_1' });
    framesAgree(sim, packer, frame, 960);
    // A person moving an object teleports it (and wakes it): the next frame shows it there.
    const moved = [...sim.entities.values()].find((e) => !e.fixed && e.id !== 'plum_1')!;
    sim.world.getRigidBody(moved.body).setTranslation({ x: 0.1, y: 1.2, z: 0.05 }, true);
    framesAgree(sim, packer, frame, 480);
    // A restored world is a new world: read in full.
    const snap = sim.snapshot();
    sim.restore(snap);
    packer.pack(sim, frame);
    expect(packer.lastReads).toBe(objects);
    expect(Array.from(frame)).toEqual(Array.from(packPoses(sim, packer.entries)));
    sim.dispose();
  }, 60_000);

  it('reads every object again when frames are a second or more of simulated time apart', async () => {
    const sim = await sceneWorld('tabletop/boxes');
    const packer = new PosePacker(streamEntries(sim));
    const objects = packer.entries.filter((e) => e.kind === 'object').length;
    packer.pack(sim);
    for (let i = 0; i < 240; i++) sim.step();
    packer.pack(sim);
    expect(packer.lastReads).toBe(objects);
    sim.dispose();
  });
});
