// A scene's memory as the app and the CLI run it, measured in a fresh process on
// V8's baseline wasm tier (the benchmark's own process runs the optimising tier,
// whose compiler adds ~70 MB that no app session pays): build and settle, a few
// seconds of the full step with the arm moving, a pick-and-place, perception
// queries and a snapshot round trip. The figure is the process's peak RSS.
import { builtinScene } from '../../scenes/registry';
import { round } from '../../sim/math';
import { detectObjects } from '../../sim/perception/detection';
import { snapshotFacts } from '../../sim/perception/snapshot';
import { SimWorld } from '../../sim/world/sim-world';
import { pickPlaceOnce, prepare } from './sim-bench';
import { fullStepper, keepMoving } from './steppers';
import type { SceneMemory } from './jobs';
import type { BenchLength } from './steppers';

/** Simulated seconds of the arm moving before the pick-and-place. */
const SECONDS: Record<BenchLength, number> = { full: 10, quick: 2, smoke: 0.1 };

export async function sceneMemory(id: string, length: BenchLength): Promise<SceneMemory> {
  const sim = await SimWorld.create(builtinScene(id));
  await prepare(sim);
  const start = sim.snapshot();
  const full = fullStepper(sim);
  const move = keepMoving(sim);
  const steps = Math.round(SECONDS[length] / sim.dt);
  for (let i = 0; i < steps; i++) {
    move();
    full();
  }
  sim.halt();
  sim.restore(start);
  await pickPlaceOnce(sim);
  for (let i = 0; i < 50; i++) {
    detectObjects(sim);
    snapshotFacts(sim);
  }
  sim.restore(sim.snapshot());
  sim.dispose();
  return { id, rssMB: round(process.resourceUsage().maxRSS / 1024, 1) };
}
