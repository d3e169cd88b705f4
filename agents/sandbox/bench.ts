// Sandbox figures: cold start (worker + QuickJS module), the cost of one program
// on a warm worker, and the overhead of one API call (a round trip to the host
// thread through Atomics.wait). Run: npx tsx agents/sandbox/bench.ts
// Prints figures only; nothing here asserts a time.
import { Sandbox } from './sandbox';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(x < 1 ? 3 : 1)} ms`;

async function main(): Promise<void> {
  const cold: number[] = [];
  for (let i = 0; i < 5; i++) {
    const sb = new Sandbox();
    const t = performance.now();
    await sb.warm();
    cold.push(performance.now() - t);
    await sb.dispose();
  }

  const sb = new Sandbox();
  const api = { noop: async () => 1 };
  await sb.warm();
  const runs: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await sb.run('return 1', { api });
    runs.push(performance.now() - t);
  }

  const N = 2000;
  const perCall: number[] = [];
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    await sb.run(`let s = 0; for (let i = 0; i < ${N}; i++) s += 1; return s`, { api });
    const loop = performance.now() - t;
    t = performance.now();
    const r = await sb.run(`let s = 0; for (let i = 0; i < ${N}; i++) s += noop(); return s`, { api, limits: { maxCalls: N } });
    const withCalls = performance.now() - t;
    if (!r.ok || r.value !== N) throw new Error(`benchmark program failed: ${JSON.stringify(r)}`);
    perCall.push((withCalls - loop) / N);
  }
  await sb.dispose();

  console.log(
    `sandbox cold start (worker + QuickJS module), median of 5: ${ms(median(cold))}  [${cold.map((x) => x.toFixed(0)).join(', ')}]`,
  );
  console.log(`one program on a warm worker ("return 1"), median of 50: ${ms(median(runs))}`);
  console.log(`overhead per API call (${N} calls, minus the same loop without them), median of 5: ${ms(median(perCall))}`);
}

await main();
