// `npm ci` installs exactly what package-lock.json says and refuses when it
// disagrees with package.json. Two ways the lock falls out of sync, both seen
// here: a dependency declared in package.json but not (or at another version)
// in the lock's root entry, and a package whose optional dependencies (the
// per-platform native bindings) have no entries of their own in the lock.
// Checked without the network, so a stale lock fails the tests, not the install.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
interface Lock {
  lockfileVersion: number;
  packages: Record<string, Manifest & { version?: string; link?: boolean }>;
}

const KINDS = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;

/** Where Node would find `dep` from the package at lock key `from` (its own node_modules, then each parent's). */
function resolveIn(lock: Lock, from: string, dep: string): string | undefined {
  let dir = from;
  for (;;) {
    const key = `${dir ? `${dir}/` : ''}node_modules/${dep}`;
    if (lock.packages[key]) return key;
    if (!dir) return undefined;
    const i = dir.lastIndexOf('node_modules/');
    dir = i <= 0 ? '' : dir.slice(0, i - 1);
  }
}

/** Every way `lock` disagrees with `pkg`, one line each; empty when npm ci would accept it. */
export function lockProblems(pkg: Manifest, lock: Lock): string[] {
  const out: string[] = [];
  if (lock.lockfileVersion < 2) out.push(`lockfileVersion ${lock.lockfileVersion}: npm ci needs 2 or 3`);
  const root = lock.packages[''] ?? {};
  for (const kind of KINDS) {
    const declared = pkg[kind] ?? {};
    const locked = root[kind] ?? {};
    for (const [name, range] of Object.entries(declared)) {
      if (locked[name] !== range) out.push(`${kind}.${name}: package.json says ${range}, the lock ${locked[name] ?? 'nothing'}`);
      const at = resolveIn(lock, '', name);
      if (!at) out.push(`${name}: declared but not in the lock's packages`);
      else if (/^\d+\.\d+\.\d+/.test(range) && lock.packages[at]!.version !== range)
        out.push(`${name}: pinned to ${range}, the lock has ${lock.packages[at]!.version}`);
    }
    for (const name of Object.keys(locked)) if (!(name in declared)) out.push(`${kind}.${name}: in the lock but not in package.json`);
  }
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key || entry.link) continue;
    for (const kind of KINDS) {
      for (const dep of Object.keys(entry[kind] ?? {})) {
        if (!resolveIn(lock, key, dep)) out.push(`${key} needs ${dep} (${kind}) but the lock has no entry for it`);
      }
    }
  }
  return out;
}

const root = path.resolve(import.meta.dirname, '..');
const read = <T>(f: string): T => JSON.parse(readFileSync(path.join(root, f), 'utf8')) as T;

describe('package-lock.json', () => {
  it('agrees with package.json and lists every optional platform binding, so npm ci installs', () => {
    expect(lockProblems(read<Manifest>('package.json'), read<Lock>('package-lock.json'))).toEqual([]);
  });

  it('reports a dependency the lock lacks, a version it disagrees on and a missing optional binding', () => {
    const pkg: Manifest = { dependencies: { a: '1.0.0', b: '2.0.0' } };
    const lock: Lock = {
      lockfileVersion: 3,
      packages: {
        '': { dependencies: { a: '1.0.0', b: '1.9.0' } },
        'node_modules/a': { version: '1.0.0', optionalDependencies: { 'a-linux-x64': '1.0.0', 'a-darwin-arm64': '1.0.0' } },
        'node_modules/a-linux-x64': { version: '1.0.0' },
        'node_modules/b': { version: '1.9.0' },
      },
    };
    const problems = lockProblems(pkg, lock);
    expect(problems).toContain('dependencies.b: package.json says 2.0.0, the lock 1.9.0');
    expect(problems).toContain('b: pinned to 2.0.0, the lock has 1.9.0');
    expect(problems).toContain('node_modules/a needs a-darwin-arm64 (optionalDependencies) but the lock has no entry for it');
    expect(problems).toHaveLength(3);
  });
});
