// skillbridge bench sim|agent|app|cli. Each benchmark loads only its own modules:
// a scene measured in a fresh process must not carry Playwright or the model client.
import { Job, REFERENCE } from '../../bench/jobs';
import type { SimBenchResult } from '../../bench/sim-bench';
import type { StepBreakdown } from '../../bench/step-breakdown';
import { PART_LABELS, STEP_PARTS } from '../../bench/step-parts';
import { type Parsed, UsageError, intFlag, stringFlag } from '../args';
import { type Output, json } from '../output';
import { isBuiltinScene } from '../../../scenes/registry';

export async function benchCommand(p: Parsed, o: Output): Promise<number> {
  const [what] = p.positionals;
  if (what === 'agent') return agentBench(p, o);
  if (what === 'app') return (await import('./bench-app')).appBenchCommand(p, o);
  if (what === 'cli') return (await import('./bench-cli')).cliBenchCommand(p, o);
  if (what === '_job') return jobCommand(p, o);
  if (what === 'eval') return evalBench(p, o);
  if (what === 'robot') return robotBench(p, o);
  if (what === 'camera') return (await import('./bench-camera')).cameraBenchCommand(p, o);
  if (what !== 'sim') throw new UsageError(`unknown benchmark "${what ?? ''}". Benchmarks: sim, agent, app, cli, eval, robot, camera`);
  const { benchSim } = await import('../../bench/sim-bench');
  const scene = stringFlag(p.flags, 'scene');
  if (scene && scene !== REFERENCE && !isBuiltinScene(scene))
    throw new UsageError(`--scene: "${scene}" is not a built-in scene (see "skillbridge scenes") or "${REFERENCE}"`);
  const asJson = Boolean(p.flags['json']);
  const r = await benchSim({
    ...(scene ? { scenes: [scene] } : {}),
    quick: Boolean(p.flags['quick']),
    inProcess: Boolean(p.flags['in-process']),
    onProgress: asJson ? undefined : (l) => o.err(l),
  });
  if (asJson) {
    json(o, r);
    return 0;
  }
  o.out(`Simulation benchmark (${r.node}, ${r.platform}, ${r.cpus} cores)`);
  if (r.scenes.length) sceneTable(r, o);
  if (r.reference) referenceTable(r.reference, o);
  breakdownTable(r, o);
  goalLines(r, o);
  return 0;
}

/** full/bare beside its goal, one line per row: the reference scene and every ALRM scene must meet it. */
function goalLines(r: SimBenchResult, o: Output): void {
  const g = r.ratioGoal;
  if (!g.rows.length) return;
  o.out(`\nfull/bare, goal >= ${g.goal} for the reference scene and every ALRM scene (wall; CPU time of the same windows):`);
  for (const row of g.rows)
    o.out(
      `  ${row.id.padEnd(22)} ${row.ratio.toFixed(3)} (CPU ${row.cpuRatio === null ? 'n/a' : row.cpuRatio.toFixed(3)})  ${row.met ? 'met' : 'NOT met'}${row.alrm ? '  [ALRM]' : ''}`,
    );
  o.out(`  ${g.allMet ? 'goal met' : 'goal NOT met'} (load average ${r.loadAvg.start} at the start, ${r.loadAvg.end} at the end)`);
}

/** Microseconds and share of the full step by part, one row per scene and reference build, beside full/bare and its goal. */
function breakdownTable(r: SimBenchResult, o: Output): void {
  const rows: Array<[string, StepBreakdown, number]> = [
    ...r.scenes.map((s): [string, StepBreakdown, number] => [s.id, s.breakdown, s.ratio]),
    ...(r.reference?.builds ?? []).map((b): [string, StepBreakdown, number] => [`reference (${b.build})`, b.breakdown, b.ratio]),
  ];
  if (!rows.length) return;
  o.out('\nWhere a full step goes: microseconds per step and share of the step, by part (bare: Rapier alone stepping the same bodies)');
  const head = [
    '',
    'full us',
    'bare us',
    'full/bare (goal >= 0.9)',
    'CPU full/bare us (ratio)',
    ...STEP_PARTS.map((p) => PART_LABELS[p]),
    'grasp held us',
    'belief update us',
  ];
  const cells = rows.map(([id, b, ratio]) => [
    id,
    String(b.fullUs),
    String(b.bareUs),
    ratio.toFixed(2),
    `${b.fullCpuUs}/${b.bareCpuUs} (${b.cpuRatio === null ? 'n/a' : b.cpuRatio.toFixed(2)})`,
    ...STEP_PARTS.map((p) => `${b.us[p]} (${Math.round(b.share[p] * 100)}%)`),
    b.graspHeldUs === null ? 'n/a' : String(b.graspHeldUs),
    String(b.beliefUpdateUs),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => x.padEnd(widths[i]!)).join('  ');
  o.out(line(head));
  for (const c of cells) o.out(line(c));
  o.out(
    'full/bare: median of alternating short windows of each (one run); full us and bare us are the medians of those same windows, so their quotient agrees with it. grasp held: per step while an object is held; belief update: once per perception query after a step (not per step).',
  );
}

function sceneTable(r: SimBenchResult, o: Output): void {
  const head = [
    'scene',
    'rtf',
    'bare',
    'full/bare (goal >= 0.9)',
    'active',
    'pick+place ms',
    'percep p50/p99 ms',
    'snap/restore ms',
    'rss MB app/bench',
  ];
  const rows = r.scenes.map((s) => [
    s.id,
    String(s.rtf),
    String(s.bareRtf),
    s.ratio.toFixed(2),
    String(s.activeRtf),
    s.pickPlaceMs === null ? 'n/a' : String(s.pickPlaceMs),
    `${s.perceptionP50Ms}/${s.perceptionP99Ms}`,
    `${s.snapshotMs}/${s.restoreMs}`,
    `${s.appRssMB ?? 'n/a'}/${s.rssMB}`,
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
  o.out(`Perception per query, wall p50/p99 (goal: ${r.targets['perception'] ?? ''}):`);
  for (const { id, perception: p } of r.scenes) {
    const met = p.steadyP99Ms <= 1 ? 'met' : 'NOT met';
    o.out(
      `  ${id.padEnd(20)} ${p.wallP50Ms}/${p.wallP99Ms} ms, ${p.steadyP99Ms} ms without the ${p.preemptedQueries} preempted (${met}); slowest ${p.slowest} p99 ${p.slowestP99Ms} ms; a GC ran during ${p.gcQueries} of ${p.queries} queries (${p.gcPauseMs} ms paused); ${p.allocKBPerQuery} KB allocated per query; process CPU p99 ${p.cpuP99Ms} ms (all threads); belief update after a step ${p.lookStillUs} µs still, ${p.lookMovedUs} µs after a change; load ${p.load[0]} → ${p.load[1]}`,
    );
  }
  o.out(
    r.freshProcessPerScene
      ? 'rss MB: peak of a fresh process per scene; app: the scene as the app runs it (baseline wasm tier), bench: the process measuring it (optimising tier).'
      : 'rss MB: one process for every scene (cumulative peak); run without --in-process for per-scene figures.',
  );
}

function referenceTable(ref: NonNullable<SimBenchResult['reference']>, o: Output): void {
  o.out('\nReference scene (performance-anchors.md §1.2: three 10-box stacks, 20 loose 4 cm boxes, the arm, 240 Hz, all awake)');
  o.out(
    ref.builds.length > 1
      ? 'Real-time factor, one fresh process per Rapier build, same run:'
      : "Real-time factor, this process's Rapier build:",
  );
  const head = [
    'rapier build',
    'full stack',
    'bare, same bodies',
    'full/bare (goal >= 0.9)',
    'reads direct/API (same rounds)',
    'bare, arm still',
    'bare, anchors scene',
    'stacks standing (anchors/ours)',
    'rss MB',
  ];
  const rows = ref.builds.map((b) => [
    `${b.version} ${b.build}${b.build === ref.defaultBuild ? ' (default)' : ''}`,
    String(b.fullRtf),
    String(b.bareRtf),
    b.ratio.toFixed(2),
    b.reads === null ? 'n/a (API)' : `${b.reads.direct.toFixed(2)}/${b.reads.api.toFixed(2)}`,
    String(b.bareArmStillRtf),
    String(b.bareAnchorsRtf),
    `${b.stacksStanding.anchors}/${b.stacksStanding.of}, ${b.stacksStanding.ours}/${b.stacksStanding.of}`,
    String(b.rssMB),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  o.out(line(head));
  for (const row of rows) o.out(line(row));
  const simd = ref.builds.find((b) => b.build === 'simd');
  const scalar = ref.builds.find((b) => b.build === 'scalar');
  if (simd && scalar) {
    const x = (k: 'fullRtf' | 'bareRtf' | 'bareAnchorsRtf') => (simd[k] / scalar[k]).toFixed(2);
    o.out(`SIMD / scalar: full stack ${x('fullRtf')}x, bare ${x('bareRtf')}x, anchors scene ${x('bareAnchorsRtf')}x`);
  }
}

/** Internal: one benchmark job in this (fresh) process, its result as JSON on stdout (see hosts/bench/jobs.ts). */
async function jobCommand(p: Parsed, o: Output): Promise<number> {
  let job: Job;
  try {
    job = Job.parse(JSON.parse(p.positionals[1] ?? ''));
  } catch (e) {
    throw new UsageError(`bench _job: expected one JSON job argument (${(e as Error).message.split('\n')[0]})`);
  }
  const { runJob } = await import('../../bench/run-job');
  o.out(JSON.stringify(await runJob(job)));
  return 0;
}

async function agentBench(p: Parsed, o: Output): Promise<number> {
  const asJson = Boolean(p.flags['json']);
  const { benchAgent } = await import('../../bench/agent-bench');
  const r = await benchAgent({ quick: Boolean(p.flags['quick']), onProgress: asJson ? undefined : (l) => o.err(l) });
  if (asJson) {
    json(o, r);
    return 0;
  }
  const d = (x: { median: number; p99: number }, unit = 'ms') => `${x.median} / ${x.p99} ${unit}`;
  o.out(`Agent runtime benchmark (${r.node}, ${r.cpus} cores): runtime overhead per turn, model and tool time excluded (median / p99)`);
  for (const run of r.runs) {
    const c = run.causes;
    o.out(
      `  ${run.model.padEnd(12)} ${String(run.turns).padStart(3)} turns: ${d(run.perTurnMs)}   (wall per turn incl. model and tool: ${d(run.wallPerTurnMs)})`,
    );
    o.out(
      `      p99 ${c.ownP99Ms ?? 'unknown'} ms with the time each turn waited for a core taken out (${c.preemptedTurns} turns preempted); trace files: ${run.traceFiles.spare} made ahead, ${run.traceFiles.created} created in the turn; ${c.allocKBPerTurn} KB allocated and ${d(c.cpuPerTurnMs, 'ms')} CPU per turn; a GC ran in ${c.gcTurns} turns (${c.gcMinorTurns} scavenge, ${c.gcMajorTurns} major, ${c.gcPauseMs} ms); trace file calls p99 ${c.traceIoP99Ms} ms, worst ${c.traceIoMaxMs} ms; slowest ${c.slowest.map((s) => `${s.ms} ms (GC ${s.gcMs}${s.gcMajor ? ' major' : ''}, trace I/O ${s.traceIoMs}${s.preempted ? `, preempted, waited ${s.queuedMs ?? 'unknown'} ms for a core` : ''})`).join(', ')}; load ${c.load[0]} → ${c.load[1]}`,
    );
  }
  o.out(
    `  all scripted turns: ${d(r.perTurnMs)}: p99 goal ≤ 2 ms ${r.goal.met ? 'met' : 'NOT met'} (wall, every turn); with each turn's wait for a core taken out p99 ${r.goal.ownP99Ms ?? 'unknown'} ms (${r.goal.ownMet === null ? 'unknown' : r.goal.ownMet ? 'would be met' : 'NOT met either'})   target: ${r.target}`,
  );
  o.out(
    `Tool dispatch: validation only ${d(r.toolDispatchMs.validateOnly)}; cheap tool ${d(r.toolDispatchMs.cheapTool)}; invalid arguments ${d(r.toolDispatchMs.invalidArgs)}`,
  );
  o.out(`Trace write: ${d(r.traceWriteUs.perRecord, 'µs')} per record, ${r.traceWriteUs.recordsPerSecond} records/s (synchronous append)`);
  o.out('Text-tool-call parser on adversarial replies (parse / stream one character per delta):');
  for (const row of r.textParse)
    o.out(`  ${row.input.padEnd(22)} ${String(row.chars).padStart(8)} chars: ${row.parseMs} ms / ${row.streamMs} ms`);
  const pe = r.peers;
  o.out(
    `Beside the peers (same local server, non-streaming, ${pe.rounds} rounds of ${pe.turnsPerRound} turns each, load ${pe.loadBefore} → ${pe.loadAfter}):`,
  );
  for (const row of pe.rows)
    o.out(
      row.ran
        ? `  ${row.name.padEnd(16)} wall per turn ${d(row.wallPerTurnMs!)}   overhead over the fetch floor ${d(row.overheadPerTurnMs!)} (CPU ${d(row.cpuOverheadPerTurnMs!)})   ${row.what}`
        : `  ${row.name.padEnd(16)} ${row.what}`,
    );
  o.out(
    `  ours / openai runTools: ${pe.ratios.vsOpenAIRunTools ?? 'n/a'}; ours / Agents SDK: ${pe.ratios.vsOpenAIAgents ?? 'n/a'} (median overhead; ${pe.target}); in CPU time ${pe.cpuRatios.vsOpenAIRunTools ?? 'n/a'} and ${pe.cpuRatios.vsOpenAIAgents ?? 'n/a'}`,
  );
  for (const line of (await import('../../bench/agent-local')).localBenchLines(r.localModel)) o.out(line);
  return 0;
}

/** bench eval [--suite S] [--jobs N] [--json]: the oracle through the suites; `{ suites: [{ id, cases, oracleSeconds, overheadMsPerCase }] }`. */
async function evalBench(p: Parsed, o: Output): Promise<number> {
  if (p.flags['scale']) return (await import('./bench-scale')).scaleBench(p, o);
  const { benchEval } = await import('../../bench/eval-bench');
  const { SUITES } = await import('../../../eval/suites/index');
  const suite = stringFlag(p.flags, 'suite');
  if (suite && !SUITES.some((s) => s.id === suite))
    throw new UsageError(`--suite: unknown suite "${suite}"; suites: ${SUITES.map((s) => s.id).join(', ')}`);
  const jobsFlag = stringFlag(p.flags, 'jobs');
  const jobs = jobsFlag === undefined ? 2 : Number(jobsFlag);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64)
    throw new UsageError(`--jobs must be a whole number from 1 to 64, got "${jobsFlag}"`);
  const asJson = Boolean(p.flags['json']);
  const r = await benchEval({ ...(suite ? { suites: [suite] } : {}), jobs, onProgress: asJson ? undefined : (l) => o.err(l) });
  if (asJson) {
    json(o, {
      suites: r.suites.map(({ id, cases, oracleSeconds, overheadMsPerCase }) => ({ id, cases, oracleSeconds, overheadMsPerCase })),
    });
    return 0;
  }
  o.out(
    `Evaluation benchmark: the oracle through each suite, --jobs ${r.jobs} (${r.node}, ${r.cpus} cores, load ${r.loadBefore.toFixed(1)} → ${r.loadAfter.toFixed(1)})`,
  );
  for (const s of r.suites)
    o.out(
      `  ${s.id.padEnd(7)} ${String(s.cases).padStart(4)} cases  ${String(s.oracleSeconds).padStart(6)} s (CPU ${s.cpuSeconds} s)  harness ${s.overheadMsPerCase} ms/case (restore ${s.restoreMsPerCase}, record ${s.recordMsPerCase})  robot ${s.robotMsPerCase} ms/case  score ${s.score}`,
    );
  o.out('Targets: raider ≤ 60 s and alrm ≤ 120 s with --jobs 2; harness ≤ 200 ms per case.');
  return 0;
}

/** bench robot [--poses N] [--seed S] [--quick] [--json]: IK success rate and solve time of the reference arms. */
async function robotBench(p: Parsed, o: Output): Promise<number> {
  const poses = intFlag(p.flags, 'poses', p.flags['quick'] ? 300 : 2000, { min: 1, max: 1_000_000 });
  const seed = intFlag(p.flags, 'seed', 1, { min: 0, max: 2 ** 32 - 1 });
  const asJson = Boolean(p.flags['json']);
  const bench = await import('../../bench/robot-bench');
  const r = await bench.benchRobot({ poses, seed, onProgress: asJson ? undefined : (l) => o.err(l) });
  if (asJson) json(o, r);
  else for (const line of bench.robotBenchLines(r)) o.out(line);
  return 0;
}
