#!/usr/bin/env node
// `npm test`: type-check, lint, unit and integration tests (Vitest), and the
// browser end-to-end tests when Chromium is present. Ends with one line,
// "N passed, N failed", counting each check and each test case.
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const args = process.argv.slice(2);
const only = (name) => args.length === 0 || args.includes(name);
let passed = 0;
let failed = 0;
const failures = [];

function run(label, cmd, cmdArgs, env = {}) {
  process.stdout.write(`\n▶ ${label}: ${cmd} ${cmdArgs.join(' ')}\n`);
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

// The four static checks are independent and mostly single-threaded: they run two
// at a time (a 2-core CI box), each one's output printed whole when it ends.
const checks = [];
if (only('typecheck')) checks.push(['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']]);
// The renderer has its own tsconfig (DOM and JSX; no Node types).
if (only('typecheck')) checks.push(['typecheck renderer', 'npx', ['tsc', '-p', 'renderer/tsconfig.json', '--noEmit']]);
if (only('lint')) checks.push(['lint', 'npx', ['eslint', '.']]);
if (only('lint')) checks.push(['format', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']]);
await runChecks(checks, Math.max(2, availableParallelism()));

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

if (only('unit')) {
  const out = '.vitest-results.json';
  rmSync(out, { force: true });
  run('unit and integration tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    // A suite that fails to load has no test cases; count it so it cannot hide.
    const broken = (r.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0);
    failed += broken.length;
    for (const f of broken) failures.push(`suite failed to load: ${f.name}`);
    for (const f of r.testResults ?? []) {
      for (const a of f.assertionResults ?? []) if (a.status === 'failed') failures.push(a.fullName);
    }
  } else {
    failed++;
    failures.push('vitest produced no results');
  }
}

if (existsSync('scripts/e2e.mjs') && only('e2e')) {
  const r = spawnSync('node', ['scripts/e2e.mjs'], { stdio: ['inherit', 'pipe', 'inherit'], encoding: 'utf8' });
  process.stdout.write(r.stdout ?? '');
  const m = /(\d+) passed, (\d+) failed/.exec(r.stdout ?? '');
  if (m) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  } else {
    failed++;
    failures.push('e2e produced no summary');
  }
}

if (failures.length) {
  process.stdout.write(`\nFailures:\n${failures.map((f) => `  - ${f}`).join('\n')}\n`);
}
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed ? 1 : 0);
