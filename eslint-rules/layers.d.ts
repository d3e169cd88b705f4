import type { ESLint, Rule } from 'eslint';

export interface Layer {
  name: string;
  prefix: string;
  may: string[] | '*';
  /** A family of layers (e.g. 'sim') that others may name as a whole. */
  group?: string;
  /** Extra layers its colocated tests may import. */
  testMay?: string[];
}
export const LAYERS: Layer[];
export const PACKAGE_OWNERS: Array<{ pkg: RegExp; layers: string[] }>;
export function layerOf(relPath: string): Layer | undefined;
declare const plugin: ESLint.Plugin & { rules: { direction: Rule.RuleModule } };
export default plugin;
