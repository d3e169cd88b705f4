// What a run records so it can be reproduced: the machine, the code's commit,
// the package version, and a run id that sorts by time.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pkg from '../../package.json' with { type: 'json' };
import type { HostInfo } from './records';

export const PACKAGE_VERSION: string = pkg.version;

export function hostInfo(): HostInfo {
  const cpus = os.cpus();
  return {
    platform: process.platform,
    arch: process.arch,
    release: os.release(),
    node: process.version,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
  };
}

/**
 * The commit checked out in `dir`, with "+dirty" when tracked files have changed;
 * null when git or the repository is absent (a packaged app).
 */
export function gitCommit(dir = process.cwd()): string | null {
  try {
    const opts = {
      cwd: dir,
      encoding: 'utf8' as const,
      stdio: ['ignore', 'pipe', 'ignore'] as ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    };
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], opts).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], opts).trim() !== '';
    return dirty ? `${sha}+dirty` : sha;
  } catch {
    return null;
  }
}

/** e.g. "alrm-20261123-193327-4f2a": suite, UTC time, and a random suffix for runs started in the same second. */
export function newRunId(suite: string, now = new Date()): string {
  const t = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const safe = suite.replace(/[^A-Za-z0-9._-]+/g, '-');
  return `${safe}-${t}-${randomBytes(2).toString('hex')}`;
}
