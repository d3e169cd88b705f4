#!/usr/bin/env node
// Lists the Rapier wasm functions that one-shot commands compile: a few calls on
// several scenes (world build, settling, picking, placing, driving, perception), each
// run with --perf-basic-prof, whose map names every function V8 compiled. The union,
// per Rapier build, goes to scripts/rapier-hot-functions.json, keyed by the sha256 of
// the module it was listed for; the command-line build (scripts/build-cli.mjs) marks
// those functions eager. Run it after upgrading Rapier (the build then ignores the stale
// list and compiles lazily, as before): `node scripts/rapier-hot-functions.mjs`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOT_FUNCTIONS, cliBundle } from './build-cli.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(root, 'bin/skillbridge.js');
const BUILDS = { simd: '@dimforge/rapier3d-simd-compat', scalar: '@dimforge/rapier3d-compat' };

const tmp = mkdtempSync(path.join(tmpdir(), 'sb-hot-'));
const script = (name, steps) => {
  const file = path.join(tmp, `${name}.json`);
  writeFileSync(file, JSON.stringify(steps));
  return file;
};
const WORKLOADS = [
  ['call', '--scene', 'tabletop/fruits', 'pick', '{"object_name":"lemon"}'],
  [
    'call',
    '--scene',
    'tabletop/fruits',
    '--script',
    script('pick-place', [
      { tool: 'pick', args: { object_name: 'peach' } },
      { tool: 'place', args: { target: 'bowl_1' } },
      { tool: 'get_objects', args: {} },
      { tool: 'compute_grasp', args: { object_name: 'plum_1' } },
    ]),
  ],
  ['call', '--scene', 'tabletop/boxes', 'get_objects'],
  [
    'call',
    '--scene',
    'kitchen',
    '--script',
    script('kitchen', [
      { tool: 'object_detection', args: {} },
      { tool: 'dist_to_target', args: { target: 'mug_1' } },
      { tool: 'get_obj_state', args: { obj: 'fridge_1' } },
    ]),
  ],
  ['call', '--scene', 'tabletop/workshop', 'act', '{"action":"perceive"}'],
  [
    'call',
    '--scene',
    'farm',
    '--script',
    script('farm', [
      { tool: 'undock', args: {} },
      { tool: 'navigate', args: { location: 'poi_1' } },
    ]),
  ],
];

function moduleSha(pkg) {
  const text = readFileSync(path.join(root, 'node_modules', pkg, 'dist/rapier.mjs'), 'utf8');
  const found = [...text.matchAll(/[A-Za-z_$][\w$]*\.toByteArray\("([A-Za-z0-9+/=]+)"\)\.buffer/g)];
  if (found.length !== 1) throw new Error(`${pkg}: the embedded wasm was not found`);
  return createHash('sha256').update(Buffer.from(found[0][1], 'base64')).digest('hex');
}

await cliBundle({ log: (l) => process.stdout.write(`${l}\n`) });
const modules = {};
try {
  for (const [build, pkg] of Object.entries(BUILDS)) {
    const seen = new Set();
    for (const args of WORKLOADS) {
      const r = spawnSync(process.execPath, ['--perf-basic-prof', BIN, ...args], {
        env: { ...process.env, SKILLBRIDGE_RAPIER: build, SKILLBRIDGE_WASM_HINTS: '0' },
        encoding: 'utf8',
      });
      if (r.status !== 0 && r.status !== 1) throw new Error(`skillbridge ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
      const map = `/tmp/perf-${r.pid}.map`;
      const before = seen.size;
      for (const m of readFileSync(map, 'utf8').matchAll(/wasm-function\[(\d+)\]/g)) seen.add(Number(m[1]));
      rmSync(map, { force: true });
      process.stdout.write(`${build}: ${args.slice(0, 3).join(' ')}… +${seen.size - before} functions\n`);
    }
    modules[moduleSha(pkg)] = [...seen].sort((a, b) => a - b);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const note = 'Rapier wasm functions one-shot commands compile, by module sha256 (scripts/rapier-hot-functions.mjs writes it).';
writeFileSync(path.join(root, HOT_FUNCTIONS), `${JSON.stringify({ note, modules })}\n`);
process.stdout.write(`wrote ${HOT_FUNCTIONS}\n`);
