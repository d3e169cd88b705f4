// Types of install-check.mjs (plain JavaScript: the scripts run without a build step).
export interface PackageJsonLike {
  allowScripts?: Record<string, boolean>;
}
export interface LockLike {
  packages?: Record<string, { name?: string; version: string; hasInstallScript?: boolean; resolved?: string | undefined }>;
}
export interface Coverage {
  name: string;
  version: string;
  state: 'allowed' | 'denied' | 'not covered';
  note?: string;
}
export const NEEDED_SCRIPTS: string[];
export function scriptCoverage(pkg: PackageJsonLike, lock: LockLike): Coverage[];
export function installProblems(pkg: PackageJsonLike, lock: LockLike): string[];
export function electronStatus(
  root: string,
  env?: Readonly<Record<string, string | undefined>>,
): { ok: true; binary: string; version?: string; why: string } | { ok: false; why: string; fix: string };
