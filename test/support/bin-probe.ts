// Runs `bin/skillbridge.js` as a user would, with a probe preloaded into the command
// that writes what it measured as JSON when the process exits (tests of what a
// one-shot command loads or how much memory it touches).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '../../bin/skillbridge.js');

export interface ProbedRun<T> {
  status: number | null;
  stdout: string;
  stderr: string;
  probed: T;
}

/**
 * A probe from `source` (CommonJS run before the command; it must write its JSON to
 * `process.env.PROBE_FILE` at exit), and `run` to start the command with it; `remove`
 * deletes the probe's folder.
 */
export function binProbe<T>(source: string): { run: (args: string[], name: string) => ProbedRun<T>; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'sb-bin-probe-'));
  const preload = join(dir, 'probe.cjs');
  writeFileSync(preload, source);
  return {
    run(args, name) {
      const file = join(dir, `${name}.json`);
      const r = spawnSync(process.execPath, ['-r', preload, BIN, ...args], {
        encoding: 'utf8',
        env: { ...process.env, PROBE_FILE: file },
        timeout: 180_000,
      });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr, probed: JSON.parse(readFileSync(file, 'utf8')) as T };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
