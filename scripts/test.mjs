#!/usr/bin/env node
// `npm test`: type-check, lint, unit and integration tests (Vitest), and the
// browser end-to-end tests when Chromium is present. Ends with one line,
// "N passed, N failed", counting each check and each test case.
import { spawnSync } from 'node:child_process';
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

function check(label, cmd, cmdArgs) {
  if (run(label, cmd, cmdArgs)) passed++;
  else {
    failed++;
    failures.push(label);
  }
}

if (only('typecheck')) check('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
// The renderer has its own tsconfig (DOM and JSX; no Node types).
if (only('typecheck')) check('typecheck renderer', 'npx', ['tsc', '-p', 'renderer/tsconfig.json', '--noEmit']);
if (only('lint')) check('lint', 'npx', ['eslint', '.']);
if (only('lint')) check('format', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']);

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
