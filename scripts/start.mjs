#!/usr/bin/env node
// `npm start`: the desktop app where an Electron binary exists; otherwise the
// same app in web mode (`skillbridge serve`), which prints the URL to open.
// Either way it first says which one starts and why. Extra arguments go to
// `skillbridge serve`.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRendererBuilt } from '../base/renderer-build.mjs';
import { electronStatus } from './lib/install-check.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

function run(cmd, cmdArgs) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function forward(child) {
  child.on('error', (e) => {
    process.stderr.write(`npm start: could not start ${child.spawnfile}: ${e.message}\n`);
    process.exit(1);
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}

const electron = electronStatus(root);
if (electron.ok) {
  process.stdout.write(`Starting the desktop app (${electron.why}).\n`);
  run('npx', ['electron-vite', 'build']);
  forward(spawn(electron.binary, [path.join(root, 'out/main/index.js')], { cwd: root, stdio: 'inherit' }));
} else {
  process.stdout.write(`Starting web mode: ${electron.why}. ${electron.fix}\n`);
  if (!ensureRendererBuilt(root, { logLevel: 'warn', say: (l) => process.stdout.write(`${l}\n`) })) process.exit(1);
  forward(spawn(process.execPath, [path.join(root, 'bin/skillbridge.js'), 'serve', ...args], { cwd: root, stdio: 'inherit' }));
}
