// The command-line benchmark (skillbridge bench cli): wall time and peak memory of
// `skillbridge scenes` and of one `call … pick`, each a fresh process started as a
// user starts it (bin/skillbridge.js and the prebuilt bundle), median of N runs.
// `node -e 0` is measured in the same rounds as the floor: on a shared machine the
// floor moves with the load, so compare against it rather than across runs.
import { loadavg, cpus } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { round } from '../../sim/math';
import { SKILLBRIDGE_BIN, median, runNode } from './processes';

export interface CliBenchResult {
  node: string;
  cpus: number;
  runs: number;
  /** 1-minute load average before and after: above ~0.5 per core, figures are inflated. */
  loadAvg: { start: number; end: number };
  floorMs: number;
  floorRssMB: number;
  scenesMs: number;
  scenesRssMB: number;
  callMs: number;
  callRssMB: number;
  /** The same call with V8's optimising wasm tier (SKILLBRIDGE_WASM_OPTIMIZE=1): what --liftoff-only saves. */
  callOptimisingMs: number;
  callOptimisingRssMB: number;
  /** CPU time (user + system, all threads) of each, less sensitive to load than wall time. */
  cpuMs: { floor: number; scenes: number; call: number; callOptimising: number };
  /** Wall time over the floor's, the median of each round's own ratio: steadier than either on a loaded machine. */
  overFloor: { scenes: number; call: number };
  /** The bundle's freshness check that starts every command (a stat per input), first call in a fresh process. */
  bundleCheckMs: number;
  bundleInputs: number;
  command: { scenes: string; call: string };
  targets: Record<string, string>;
  /** The call against its goal (≤ 500 ms wall, ≤ 120 MB peak RSS); wall time is inflated on a busy machine. */
  callGoal: { wallMs: number; rssMB: number; met: boolean };
}

export interface CliBenchOptions {
  runs?: number;
  onProgress?: (line: string) => void;
}

const CALL_GOAL = { wallMs: 500, rssMB: 120 };

const CALL = ['call', '--scene', 'tabletop/fruits', 'pick', '{"object_name":"lemon"}'];

interface Variant {
  key: 'floor' | 'scenes' | 'call' | 'callOptimising';
  args: string[];
  env?: Record<string, string>;
}

const VARIANTS: Variant[] = [
  { key: 'floor', args: ['-e', '0'] },
  { key: 'scenes', args: [SKILLBRIDGE_BIN, 'scenes'] },
  { key: 'call', args: [SKILLBRIDGE_BIN, ...CALL] },
  { key: 'callOptimising', args: [SKILLBRIDGE_BIN, ...CALL], env: { SKILLBRIDGE_WASM_OPTIMIZE: '1' } },
];

// The first check in a fresh process, as each command pays it (cold code, cold caches).
const CHECK = `
const { freshBundle } = await import(process.env.CHECK_SCRIPT);
const t0 = performance.now();
const fresh = freshBundle();
const ms = performance.now() - t0;
if (!fresh) throw new Error('the bundle is stale');
const m = JSON.parse((await import('node:fs')).readFileSync(process.env.CHECK_MANIFEST, 'utf8'));
console.log(JSON.stringify({ ms, inputs: Object.keys(m.inputs).length }));
`;

/** Times the freshness check in a process of its own (the bundle itself does not contain scripts/). */
async function bundleCheck(): Promise<{ ms: number; inputs: number }> {
  const script = fileURLToPath(new URL('../../scripts/build-cli.mjs', import.meta.url));
  const manifest = fileURLToPath(new URL('../../out/cli/manifest.json', import.meta.url));
  const r = await runNode(['--input-type=module', '-e', CHECK], { CHECK_SCRIPT: pathToFileURL(script).href, CHECK_MANIFEST: manifest });
  if (r.code !== 0) throw new Error(`the bundle check failed: ${r.stderr.trim()}`);
  return JSON.parse(r.stdout) as { ms: number; inputs: number };
}

export async function benchCli(opts: CliBenchOptions = {}): Promise<CliBenchResult> {
  const runs = Math.max(1, opts.runs ?? 9);
  const say = opts.onProgress ?? (() => undefined);
  const start = loadavg()[0]!;
  // One unmeasured start builds the bundle if a source changed, and warms the file cache.
  say('warming up (builds the command-line bundle if a source changed)...');
  const warm = await runNode([SKILLBRIDGE_BIN, ...CALL]);
  if (warm.code !== 0) throw new Error(`"skillbridge ${CALL.join(' ')}" failed: ${warm.stderr.trim()}`);
  const ms: Record<Variant['key'], number[]> = { floor: [], scenes: [], call: [], callOptimising: [] };
  const checks: Array<{ ms: number; inputs: number }> = [];
  const rss: Record<Variant['key'], number[]> = { floor: [], scenes: [], call: [], callOptimising: [] };
  const cpu: Record<Variant['key'], number[]> = { floor: [], scenes: [], call: [], callOptimising: [] };
  // Rounds interleave the variants, so a burst of load hits all of them alike.
  for (let i = 0; i < runs; i++) {
    say(`round ${i + 1}/${runs}`);
    for (const v of VARIANTS) {
      const r = await runNode(v.args, v.env);
      if (r.code !== 0) throw new Error(`${v.key} failed (exit ${r.code}): ${r.stderr.trim()}`);
      ms[v.key].push(r.ms);
      rss[v.key].push(r.rssMB);
      cpu[v.key].push(r.cpuMs);
    }
    checks.push(await bundleCheck());
  }
  const m = (k: Variant['key']) => round(median(ms[k]), 0);
  const r = (k: Variant['key']) => round(median(rss[k]), 1);
  // A round's processes share that moment's load.
  const over = (k: Variant['key']) => round(median(ms[k].map((x, i) => x / ms.floor[i]!)), 2);
  return {
    node: process.version,
    cpus: cpus().length,
    runs,
    loadAvg: { start: round(start, 2), end: round(loadavg()[0]!, 2) },
    floorMs: m('floor'),
    floorRssMB: r('floor'),
    scenesMs: m('scenes'),
    scenesRssMB: r('scenes'),
    callMs: m('call'),
    callRssMB: r('call'),
    callOptimisingMs: m('callOptimising'),
    callOptimisingRssMB: r('callOptimising'),
    cpuMs: {
      floor: round(median(cpu.floor), 0),
      scenes: round(median(cpu.scenes), 0),
      call: round(median(cpu.call), 0),
      callOptimising: round(median(cpu.callOptimising), 0),
    },
    overFloor: { scenes: over('scenes'), call: over('call') },
    bundleCheckMs: round(median(checks.map((c) => c.ms)), 2),
    bundleInputs: checks[0]?.inputs ?? 0,
    command: { scenes: 'skillbridge scenes', call: `skillbridge ${CALL.join(' ')}` },
    targets: { scenes: '<= 300 ms, <= 100 MB', call: `<= ${CALL_GOAL.wallMs} ms, <= ${CALL_GOAL.rssMB} MB` },
    callGoal: { ...CALL_GOAL, met: m('call') <= CALL_GOAL.wallMs && r('call') <= CALL_GOAL.rssMB },
  };
}
