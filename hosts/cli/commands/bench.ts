import { benchAgent } from '../../bench/agent-bench';
import { benchSim } from '../../bench/sim-bench';
import { appBenchCommand } from './bench-app';
import { type Parsed, UsageError, stringFlag } from '../args';
import { type Output, json } from '../output';
import { isBuiltinScene } from '../../../scenes/registry';

export async function benchCommand(p: Parsed, o: Output): Promise<number> {
  const [what] = p.positionals;
  if (what === 'agent') return agentBench(p, o);
  if (what === 'app') return appBenchCommand(p, o);
  if (what !== 'sim') throw new UsageError(`unknown benchmark "${what ?? ''}". Benchmarks: sim, agent, app`);
  const scene = stringFlag(p.flags, 'scene');
  if (scene && !isBuiltinScene(scene)) throw new UsageError(`--scene: "${scene}" is not a built-in scene (see "skillbridge scenes")`);
  const asJson = Boolean(p.flags['json']);
  const r = await benchSim({
    ...(scene ? { scenes: [scene] } : {}),
    quick: Boolean(p.flags['quick']),
    onProgress: asJson ? undefined : (l) => o.err(l),
  });
  if (asJson) {
    json(o, r);
    return 0;
  }
  o.out(`Simulation benchmark (${r.node}, ${r.platform}, ${r.cpus} cores)`);
  const head = ['scene', 'rtf', 'bare', 'ratio', 'active', 'pick+place ms', 'percep p50/p99 ms', 'snap/restore ms', 'rss MB'];
  const rows = r.scenes.map((s) => [
    s.id,
    String(s.rtf),
    String(s.bareRtf),
    s.ratio.toFixed(2),
    String(s.activeRtf),
    s.pickPlaceMs === null ? 'n/a' : String(s.pickPlaceMs),
    `${s.perceptionP50Ms}/${s.perceptionP99Ms}`,
    `${s.snapshotMs}/${s.restoreMs}`,
    String(s.rssMB),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  o.out(line(head));
  for (const row of rows) o.out(line(row));
  o.out(
    `\nTargets: ${Object.entries(r.targets)
      .map(([k, v]) => `${k} ${v}`)
      .join('; ')}`,
  );
  for (const s of r.scenes) if (s.pickPlace) o.out(`  ${s.id}: ${s.pickPlace}`);
  return 0;
}

async function agentBench(p: Parsed, o: Output): Promise<number> {
  const asJson = Boolean(p.flags['json']);
  const r = await benchAgent({ quick: Boolean(p.flags['quick']), onProgress: asJson ? undefined : (l) => o.err(l) });
  if (asJson) {
    json(o, r);
    return 0;
  }
  const d = (x: { median: number; p99: number }, unit = 'ms') => `${x.median} / ${x.p99} ${unit}`;
  o.out(`Agent runtime benchmark (${r.node}, ${r.cpus} cores): runtime overhead per turn, model and tool time excluded (median / p99)`);
  for (const run of r.runs) {
    o.out(
      `  ${run.model.padEnd(12)} ${String(run.turns).padStart(3)} turns: ${d(run.perTurnMs)}   (wall per turn incl. model and tool: ${d(run.wallPerTurnMs)})`,
    );
  }
  o.out(`  all scripted turns: ${d(r.perTurnMs)}   target: ${r.target}`);
  o.out(
    `Tool dispatch: validation only ${d(r.toolDispatchMs.validateOnly)}; cheap tool ${d(r.toolDispatchMs.cheapTool)}; invalid arguments ${d(r.toolDispatchMs.invalidArgs)}`,
  );
  o.out(`Trace write: ${d(r.traceWriteUs.perRecord, 'µs')} per record, ${r.traceWriteUs.recordsPerSecond} records/s (synchronous append)`);
  o.out('Text-tool-call parser on adversarial replies (parse / stream one character per delta):');
  for (const row of r.textParse)
    o.out(`  ${row.input.padEnd(22)} ${String(row.chars).padStart(8)} chars: ${row.parseMs} ms / ${row.streamMs} ms`);
  return 0;
}
