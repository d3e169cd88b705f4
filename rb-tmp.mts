import { sceneWorld } from './test/fixtures/worlds';
import { renderCamera } from './sim/perception/render';
for (const id of ['tabletop/fruits', 'kitchen', 'tabletop/workshop']) {
  const sim = await sceneWorld(id);
  for (let i = 0; i < 5; i++) renderCamera(sim, { width: 640 });
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < 20; i++) renderCamera(sim, { width: 640 });
  const c = process.cpuUsage(c0); const t1 = performance.now();
  console.log(id, 'wall', ((t1 - t0) / 20).toFixed(1), 'cpu', ((c.user + c.system) / 1000 / 20).toFixed(1));
  sim.dispose();
}
