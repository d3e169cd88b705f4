// Runs the browser flows in parallel shards: each shard is a child process of
// scripts/e2e.mjs with its own `skillbridge serve` and Chromium, given a set of
// areas balanced by their measured times. Each shard's output is printed whole
// when it ends; the counts are summed into one "N passed, N failed" line.
import { spawn } from 'node:child_process';
import { root } from './harness.mjs';

/**
 * Splits `areas` ({ name, secs }) into `n` shards of about equal time: the longest
 * first, each to the shard with the least time so far. Each shard keeps the
 * areas in their listed order.
 */
export function partition(areas, n) {
  const shards = Array.from({ length: n }, () => ({ secs: 0, names: new Set() }));
  for (const a of [...areas].sort((x, y) => y.secs - x.secs)) {
    const s = shards.reduce((min, cur) => (cur.secs < min.secs ? cur : min));
    s.secs += a.secs;
    s.names.add(a.name);
  }
  return shards
    .map((s) => ({ secs: s.secs, names: areas.map((a) => a.name).filter((name) => s.names.has(name)) }))
    .filter((s) => s.names.length > 0);
}

const SUMMARY = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m;
const AREA = /^ {2}area (\S+) took ([\d.]+) s$/gm;
const FAILED_TEST = /^ {2}✗ ([^\n]*)$/gm;

/**
 * Runs one shard; resolves with its counts, area times and output (its own summary
 * line left out). `opened` resolves once its page has opened the app (or it ended).
 */
function runShard(index, total, names, timeoutMs) {
  let opened;
  const openedP = new Promise((r) => (opened = r));
  const done = new Promise((resolve) => {
    const start = Date.now();
    const child = spawn(process.execPath, ['scripts/e2e.mjs'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, E2E_SHARD: `${index + 1}/${total}`, E2E_ONLY: names.join(','), SKIP_BUILD: '1' },
    });
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      if (/^ {2}area access took/m.test(text)) opened();
    });
    child.stderr.on('data', (d) => (text += d));
    const timer = setTimeout(() => {
      text += `\n  ✗ shard ${index + 1} was stopped after ${timeoutMs / 60_000} min\n`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      opened();
      const m = SUMMARY.exec(text);
      // A shard that died before its summary still counts each result it printed (and one failure more, below).
      const printed = (re) => (text.match(re) ?? []).length;
      const counts = m
        ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) }
        : { passed: printed(/^ {2}✓ /gm), failed: printed(FAILED_TEST), skipped: printed(/^ {2}- .*: skipped \(/gm) };
      if (!m || (code !== 0 && counts.failed === 0)) {
        counts.failed = Math.max(1, counts.failed);
        text += `\n  ✗ shard ${index + 1} ended (exit ${code}) without a passing summary\n`;
      }
      const areas = [...text.matchAll(AREA)].map((a) => ({ name: a[1], secs: Number(a[2]) }));
      const failures = [...text.matchAll(FAILED_TEST)].map((f) => f[1]);
      if (!m) failures.push(`shard ${index + 1} produced no summary`);
      resolve({ index, names, counts, areas, failures, secs: (Date.now() - start) / 1000, text: text.replace(SUMMARY, '').trimEnd() });
    });
  });
  return { opened: openedP, done };
}

/** Runs the shards in parallel and prints each one's output, the area times and one summary line; exits with its status. */
export async function runShards(shards, { timeoutMs = 30 * 60_000, t0 = Date.now() } = {}) {
  const log = (line) => process.stdout.write(`${line}\n`);
  for (const [i, s] of shards.entries())
    log(`    shard ${i + 1}/${shards.length}: ${s.names.join(', ')} (about ${Math.round(s.secs)} s measured alone)`);
  // A shard starts once the one before has opened the app: starting a server and a
  // Chromium and loading the app is the heaviest moment, and two at once on two
  // cores pushed the first frame past its time limit.
  const running = [];
  for (const [i, s] of shards.entries()) {
    const shard = runShard(i, shards.length, s.names, timeoutMs);
    running.push(shard.done.then((r) => (printShard(r, shards.length, log), r)));
    if (i < shards.length - 1) await shard.opened;
  }
  const results = await Promise.all(running);
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const r of results) for (const k of Object.keys(total)) total[k] += r.counts[k];
  const areas = results.flatMap((r) => r.areas.map((a) => ({ ...a, shard: r.index + 1 })));
  log('\ne2e areas, slowest first (wall time inside their shard):');
  for (const a of areas.sort((x, y) => y.secs - x.secs)) log(`  ${a.secs.toFixed(1).padStart(7)} s  ${a.name} (shard ${a.shard})`);
  log(`e2e shards: ${results.map((r) => `${r.index + 1}: ${r.secs.toFixed(1)} s`).join(', ')}`);
  const failures = results.flatMap((r) => r.failures);
  if (failures.length) log(`\nFailed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  log(`\ne2e took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
  process.exit(total.failed ? 1 : 0);
}

function printShard(r, total, log) {
  log(
    `\n▶ e2e shard ${r.index + 1}/${total} (${r.names.join(', ')}): ${r.counts.passed} ✓, ${r.counts.failed} ✗ in ${r.secs.toFixed(1)} s`,
  );
  log(r.text);
}
