// skillbridge audit: the truth audit (eval/audit). Random but valid tool calls on
// every scene and tool set, each checked by an independent checker; prints
// counts per class and, for each violation, a script that reproduces it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isBuiltinScene } from '../../../scenes/registry';
import { didYouMean } from '../../../base/did-you-mean';
import { listScenes } from '../../../scenes/registry';
import { type AuditReport, reproduceCommand, runAudit } from '../../../eval/audit/run';
import { type Parsed, UsageError, intFlag, stringFlag } from '../args';
import { type Output, json } from '../output';

/** Violations printed in full in the text report; --json has them all. */
const SHOWN = 20;

export async function auditCommand(p: Parsed, o: Output): Promise<number> {
  if (p.positionals.length) throw new UsageError(`unexpected arguments: ${p.positionals.join(' ')}. Run "skillbridge help".`);
  const scene = stringFlag(p.flags, 'scene');
  if (scene !== undefined && !isBuiltinScene(scene) && !existsSync(scene)) {
    const ids = listScenes().map((s) => s.id);
    throw new UsageError(`--scene: unknown scene "${scene}".${didYouMean(scene, ids)} Known scenes: ${ids.join(', ')} (or a scene file)`);
  }
  const calls = intFlag(p.flags, 'calls', 2000, { min: 1, max: 10_000_000 });
  const seed = intFlag(p.flags, 'seed', 1, { min: 0, max: 2 ** 31 - 1 });
  // One episode of the run with this seed (and --scene), alone: what a violation's `episode` names.
  const episode = p.flags['episode'] === undefined ? undefined : intFlag(p.flags, 'episode', 0, { min: 0, max: 10_000_000 });
  const out = stringFlag(p.flags, 'out');
  const asJson = Boolean(p.flags['json']);
  // --urdf: the described robot in every scene in place of its own; a robot that cannot stand there is bad input.
  const urdf = stringFlag(p.flags, 'urdf') !== undefined ? await import('../urdf-flag') : undefined;
  const robot = urdf?.urdfRobotForScenes(p.flags);
  const robotFlags = urdf ? urdf.urdfFlagsText(p.flags) : '';
  if (urdf && robot && !asJson) o.out(urdf.describeLoaded(robot));
  let last = 0;
  let told = 0;
  const t0 = performance.now();
  const report = await runAudit({
    calls,
    seed,
    ...(robot ? { robot } : {}),
    ...(scene ? { scenes: [scene] } : {}),
    ...(episode !== undefined ? { episodes: [episode] } : {}),
    // Progress goes to stderr (stdout stays one JSON document under --json), with the counts so far,
    // so a long run that is stopped still tells what it found.
    onProgress: (done, total, r) => {
      for (; told < r.violations.length; told++) {
        const v = r.violations[told]!;
        o.err(`audit: [${v.class}] ${v.scene} (${v.set}, seed ${v.seed}): ${v.detail}`);
      }
      if (done - last >= Math.max(100, Math.min(1000, total / 20)) || done === total) {
        last = done;
        o.err(
          `audit: ${done}/${total} calls, ${Math.round((performance.now() - t0) / 1000)} s: lies ${r.lies}, leaks ${r.leaks}, invariants ${r.invariants}, messages ${r.messages}, crashes ${r.crashes}`,
        );
      }
    },
  }).catch((e: unknown) => {
    throw urdf?.urdfRefusal(e) ?? e;
  });
  if (out) writeScripts(report, out);
  const rerun = (n: number): string => `skillbridge audit --seed ${seed}${scene ? ` --scene ${scene}` : ''}${robotFlags} --episode ${n}`;
  if (asJson) {
    json(o, {
      calls: report.calls,
      lies: report.lies,
      leaks: report.leaks,
      invariants: report.invariants,
      messages: report.messages,
      crashes: report.crashes,
      unjudged: report.unjudged,
      unjudgedCases: report.unjudgedCases,
      coverage: report.coverage,
      unjudgedOutputs: report.unjudgedOutputs,
      violations: report.violations.map((v) => ({
        class: v.class,
        scene: v.scene,
        script: v.script,
        detail: v.detail,
        // Beyond class, scene, script and detail: what `call --set S --seed K --script` needs to reproduce it.
        set: v.set,
        seed: v.seed,
        episode: v.episode,
      })),
      ...(robot ? { robot: { name: robot.description?.name ?? null, file: robot.file } } : {}),
      seconds: report.seconds,
    });
  } else printReport(o, report, out, rerun, robotFlags);
  const bad = report.lies + report.leaks + report.invariants + report.messages + report.crashes;
  return bad ? 1 : 0;
}

function writeScripts(r: AuditReport, dir: string): void {
  mkdirSync(dir, { recursive: true });
  r.violations.forEach((v, i) => writeFileSync(join(dir, `violation-${i + 1}.json`), `${JSON.stringify(v.script, null, 2)}\n`));
}

function printReport(o: Output, r: AuditReport, dir: string | undefined, rerun: (episode: number) => string, robotFlags: string): void {
  o.out(`Truth audit: ${r.calls} calls in ${r.seconds} s over ${Object.keys(r.scenes).length} scenes`);
  for (const [id, s] of Object.entries(r.scenes)) o.out(`  ${id}: ${s.calls} calls; tool sets ${s.sets.join(', ')}`);
  o.out(`lies ${r.lies}, leaks ${r.leaks}, invariants ${r.invariants}, messages ${r.messages}, crashes ${r.crashes}`);
  const unjudged = Object.entries(r.unjudged).flatMap(([cls, reasons]) =>
    Object.entries(reasons ?? {}).map(([why, n]) => `  ${cls}: ${n} not judged: ${why}`),
  );
  o.out(unjudged.length ? `unjudged:\n${unjudged.join('\n')}` : 'unjudged 0');
  for (const u of r.unjudgedCases) o.out(`  ${u.class} not judged (${u.reason}) in ${u.scene} (${u.set}): ${rerun(u.episode)}`);
  printCoverage(o, r);
  r.violations.slice(0, SHOWN).forEach((v, i) => {
    const file = dir ? join(dir, `violation-${i + 1}.json`) : 'FILE';
    o.out(`\n${i + 1}. [${v.class}] ${v.scene} (${v.set}): ${v.detail}`);
    o.out(`   reproduce: ${reproduceCommand(v, file, robotFlags)}`);
    o.out(`   episode: ${rerun(v.episode)}`);
    o.out(`   script: ${JSON.stringify(v.script)}`);
  });
  if (r.violations.length > SHOWN)
    o.out(`\n… and ${r.violations.length - SHOWN} more (all of them with --json, or their scripts with --out DIR)`);
}

/** Coverage per tool, by tool set: outputs whose every claim was judged, of all outputs. */
function printCoverage(o: Output, r: AuditReport): void {
  const rows = Object.entries(r.coverage);
  const outputs = rows.reduce((n, [, c]) => n + c.outputs, 0);
  const judged = rows.reduce((n, [, c]) => n + c.judged, 0);
  const below = rows.filter(([, c]) => c.judged < c.outputs).length;
  const pct = (c: { outputs: number; judged: number }): string => `${c.outputs ? Math.floor((c.judged / c.outputs) * 1000) / 10 : 100} %`;
  o.out(
    `coverage: ${judged}/${outputs} outputs had every claim judged (${pct({ outputs, judged })}) over ${rows.length} tools; ${below} tools below 100 %; unjudged outputs ${r.unjudgedOutputs}`,
  );
  const bySet = new Map<string, string[]>();
  for (const [key, c] of rows.sort(([a], [b]) => a.localeCompare(b))) {
    const [set, tool] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
    const cells = bySet.get(set) ?? [];
    cells.push(`${tool} ${c.judged}/${c.outputs}${c.judged < c.outputs ? ` (${pct(c)})` : ''}`);
    bySet.set(set, cells);
  }
  for (const [set, cells] of bySet) o.out(`  ${set}: ${cells.join(', ')}`);
}
