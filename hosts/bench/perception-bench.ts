// Perception query latency for bench sim: the queries tools make (detection,
// distance, relations, the scene snapshot, a name), about objects the robot
// knows of, on a world that steps between queries, so the first query after a
// step pays the belief update (a head camera looks all the time). Wall time and
// CPU time per query, p50 and p99, and the garbage collections that ran while
// queries did: a tail that comes from GC shows here, not averaged away.
import { PerformanceObserver } from 'node:perf_hooks';
import { round } from '../../sim/math';
import { knownObjectIds } from '../../sim/perception/believed';
import { detectObjects } from '../../sim/perception/detection';
import { distanceToTarget } from '../../sim/perception/distance';
import { resolveName } from '../../sim/perception/names';
import { relationQuery } from '../../sim/perception/queries';
import { snapshotFacts } from '../../sim/perception/snapshot';
import type { SimWorld } from '../../sim/world/sim-world';
import type { PerceptionBench } from './jobs';

export type { PerceptionBench };

export const PERCEPTION_TARGET = 'p99 <= 1 ms per query (CPU time)';

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export async function benchPerception(sim: SimWorld, samples: number): Promise<PerceptionBench> {
  const ids = knownObjectIds(sim);
  const movable = ids.filter((x) => !sim.entity(x).fixed);
  const last = ids[ids.length - 1]!;
  const queries: Array<[string, () => unknown]> = [
    ['detect', () => detectObjects(sim)],
    ['distance', () => distanceToTarget(sim, last)],
    ['on top of', () => relationQuery(sim, 'on top of', ids[0]!)],
    ['blocking', () => relationQuery(sim, 'blocking', movable[0] ?? ids[0]!)],
    ['left of', () => relationQuery(sim, 'on the left of', movable[movable.length - 1] ?? ids[0]!)],
    ['snapshot', () => snapshotFacts(sim)],
    ['resolve name', () => resolveName(sim, sim.entity(last).spec.name)],
  ];
  const gcs: Array<{ start: number; end: number }> = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ start: e.startTime, end: e.startTime + e.duration });
  });
  obs.observe({ entryTypes: ['gc'] });
  const wall: number[] = [];
  const cpu: number[] = [];
  const spans: Array<[number, number]> = [];
  const byKind = new Map<string, number[]>();
  const warm = Math.min(50, samples);
  for (let i = 0; i < samples + warm; i++) {
    const [kind, q] = queries[i % queries.length]!;
    const c0 = cpuMs();
    const t0 = performance.now();
    q();
    const t1 = performance.now();
    const c = cpuMs() - c0;
    if (i >= warm) {
      wall.push(t1 - t0);
      cpu.push(c);
      spans.push([t0, t1]);
      let k = byKind.get(kind);
      if (!k) byKind.set(kind, (k = []));
      k.push(c);
    }
    // Perception runs on a world that moves on between queries.
    if (i % queries.length === 0) sim.step();
  }
  // GC entries are queued after the collection, from the event loop: let it run first.
  await new Promise((r) => setTimeout(r, 20));
  for (const e of obs.takeRecords()) gcs.push({ start: e.startTime, end: e.startTime + e.duration });
  obs.disconnect();
  const hit = spans.filter(([a, b]) => gcs.some((g) => g.start < b && g.end > a)).length;
  const pause = gcs.filter((g) => g.end > (spans[0]?.[0] ?? 0)).reduce((s, g) => s + (g.end - g.start), 0);
  let slowest = '';
  let slowestP99 = -1;
  for (const [k, xs] of byKind) {
    const p = pct(xs, 99);
    if (p > slowestP99) [slowest, slowestP99] = [k, p];
  }
  return {
    queries: wall.length,
    wallP50Ms: round(pct(wall, 50), 3),
    wallP99Ms: round(pct(wall, 99), 3),
    cpuP50Ms: round(pct(cpu, 50), 3),
    cpuP99Ms: round(pct(cpu, 99), 3),
    gcQueries: hit,
    gcPauseMs: round(pause, 1),
    slowest,
    slowestCpuP99Ms: round(slowestP99, 3),
  };
}
