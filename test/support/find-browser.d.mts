// Types of find-browser.mjs (plain JavaScript: the scripts run without a build step).
export interface BrowserLookup {
  platform?: NodeJS.Platform;
  env?: Readonly<Record<string, string | undefined>>;
  exists?: (path: string) => boolean;
  home?: string;
  playwright?: () => string;
}
export type BrowserFound =
  { path: string; from: 'CHROMIUM' | 'installed' | 'playwright'; hint?: undefined } | { path: null; hint: string; from?: undefined };
export function browserCandidates(platform?: NodeJS.Platform, env?: Readonly<Record<string, string | undefined>>, home?: string): string[];
export function browserHint(platform?: NodeJS.Platform): string;
export function findBrowser(opts?: BrowserLookup): BrowserFound;
