#!/usr/bin/env node
// `npm test`: type-check, lint, unit and integration tests (Vitest), and the
// browser end-to-end tests when Chromium is present. Prints each phase's wall
// time and the ten slowest test files (Vitest) and browser-test areas, then ends
// with one line, "N passed, N failed", counting each check and each test case.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const started = Date.now();
const args = process.argv.slice(2);
const only = (name) => args.length === 0 || args.includes(name);
let passed = 0;
let failed = 0;
const failures = [];
/** Each phase's wall time in seconds, and the slowest files and areas, for the closing figures. */
const phases = [];
const slowest = { vitest: [], e2e: [] };
const secsSince = (t) => (Date.now() - t) / 1000;

/** Runs a command with its output passed through; resolves true when it exits 0. Not spawnSync: the browser tests' output must keep draining meanwhile. */
function run(label, cmd, cmdArgs, env = {}) {
  process.stdout.write(`\n▶ ${label}: ${cmd} ${cmdArgs.join(' ')}\n`);
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

// The browser tests are one long chain that keeps about one core busy (a page drawing
// with software WebGL, waits on the page between steps): they start first, their
// output kept and printed whole when they end, while the static checks and Vitest
// use what is left of the machine. TEST_SEQUENTIAL=1 runs the phases one after another.
const wantE2e = existsSync('scripts/e2e.mjs') && only('e2e');
const overlap = process.env.TEST_SEQUENTIAL !== '1' && (only('lint') || only('typecheck') || only('unit'));
const e2eStarted = Date.now();
let e2eEnded = e2eStarted;
const e2eRun = wantE2e && overlap ? runE2e({ live: false }) : undefined;

// The four static checks are independent and mostly single-threaded: they run two
// at a time (a 2-core CI box), each one's output printed whole when it ends. They
// start longest first (the lint type-checks through the project service and takes
// longest), so the two short ones fill in beside the long ones instead of one long
// check running alone at the end.
const checks = [];
if (only('lint')) checks.push(['lint', 'npx', ['eslint', '.']]);
if (only('typecheck')) checks.push(['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']]);
// The renderer has its own tsconfig (DOM and JSX; no Node types).
if (only('typecheck')) checks.push(['typecheck renderer', 'npx', ['tsc', '-p', 'renderer/tsconfig.json', '--noEmit']]);
if (only('lint')) checks.push(['format', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']]);
if (checks.length) {
  const t = Date.now();
  await runChecks(checks, Math.max(2, availableParallelism()));
  phases.push(['static checks', secsSince(t)]);
}

function runChecks(list, concurrency) {
  let next = 0;
  const one = () => {
    const item = list[next++];
    if (!item) return Promise.resolve();
    const [label, cmd, cmdArgs] = item;
    return new Promise((resolve) => {
      const child = spawn(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
      const out = [];
      child.stdout.on('data', (d) => out.push(d));
      child.stderr.on('data', (d) => out.push(d));
      child.on('close', (code) => {
        process.stdout.write(`\n▶ ${label}: ${cmd} ${cmdArgs.join(' ')}\n${Buffer.concat(out).toString()}`);
        if (code === 0) passed++;
        else {
          failed++;
          failures.push(label);
        }
        resolve();
      });
    }).then(one);
  };
  return Promise.all(Array.from({ length: Math.min(concurrency, list.length) }, one));
}

/** A failure's first message lines, without colour codes, so the summary at the end says what broke. */
function why(a) {
  const text = (a.failureMessages ?? []).join('\n').replace(/\u001b\[[0-9;]*m/g, '');
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at '));
  return lines.length ? `\n      ${lines.slice(0, 6).join('\n      ')}` : '';
}

if (only('unit')) {
  const out = '.vitest-results.json';
  rmSync(out, { force: true });
  const t = Date.now();
  await run('unit and integration tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    // A suite that fails to load has no test cases; count it so it cannot hide.
    const broken = (r.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0);
    failed += broken.length;
    for (const f of broken) failures.push(`suite failed to load: ${f.name}`);
    for (const f of r.testResults ?? []) {
      for (const a of f.assertionResults ?? []) if (a.status === 'failed') failures.push(`${a.fullName}${why(a)}`);
    }
    // A file's time from its first test's start to its end (its import is not in it).
    slowest.vitest = (r.testResults ?? [])
      .map((f) => ({
        name: path.relative(process.cwd(), f.name),
        secs: (f.endTime - f.startTime) / 1000,
        tests: (f.assertionResults ?? []).length,
      }))
      .filter((f) => Number.isFinite(f.secs))
      .sort((a, b) => b.secs - a.secs)
      .slice(0, 10);
  } else {
    failed++;
    failures.push('vitest produced no results');
  }
  phases.push(['unit and integration tests (Vitest)', secsSince(t)]);
}

if (wantE2e) {
  const t = e2eRun ? e2eStarted : Date.now();
  const text = await (e2eRun ?? runE2e({ live: true }));
  const secs = (e2eEnded - t) / 1000;
  if (e2eRun) process.stdout.write(`\n▶ browser end-to-end tests (run beside the phases above): node scripts/e2e.mjs\n${text}`);
  // The last summary line is the runner's total (a shard's own lines come before it).
  const m = [...text.matchAll(/^(\d+) passed, (\d+) failed/gm)].pop();
  if (m) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  } else {
    failed++;
    failures.push('e2e produced no summary');
  }
  slowest.e2e = [...text.matchAll(/^ {2}area (\S+) took ([\d.]+) s$/gm)]
    .map((a) => ({ name: a[1], secs: Number(a[2]) }))
    .sort((a, b) => b.secs - a.secs)
    .slice(0, 10);
  phases.push([`browser end-to-end tests${e2eRun ? ' (beside the phases above)' : ''}`, secs]);
}

/** Runs the browser tests, their output passed through as it comes (`live`) or kept; resolves with all of it. */
function runE2e({ live }) {
  return new Promise((resolve) => {
    const child = spawn('node', ['scripts/e2e.mjs'], { stdio: ['ignore', 'pipe', live ? 'inherit' : 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      if (live) process.stdout.write(d);
    });
    child.stderr?.on('data', (d) => (text += d));
    child.on('close', () => {
      e2eEnded = Date.now();
      resolve(text);
    });
  });
}

if (slowest.vitest.length) process.stdout.write('\nSlowest test files (Vitest, seconds from their first test to their end):\n');
for (const f of slowest.vitest) process.stdout.write(`  ${f.secs.toFixed(1).padStart(7)} s  ${f.name} (${f.tests} tests)\n`);
if (slowest.e2e.length) {
  process.stdout.write('Slowest browser-test areas (seconds each, in their shard when sharded):\n');
  for (const a of slowest.e2e) process.stdout.write(`  ${a.secs.toFixed(1).padStart(7)} s  ${a.name}\n`);
}
process.stdout.write('Wall time per phase:\n');
for (const [name, secs] of phases) process.stdout.write(`  ${secs.toFixed(1).padStart(7)} s  ${name}\n`);
process.stdout.write(`  ${secsSince(started).toFixed(1).padStart(7)} s  in all\n`);

if (failures.length) {
  process.stdout.write(`\nFailures:\n${failures.map((f) => `  - ${f}`).join('\n')}\n`);
}
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed ? 1 : 0);
