import type { ESLint, Rule } from 'eslint';

export interface Layer {
  name: string;
  prefix: string;
  may: string[] | '*';
}
export const LAYERS: Layer[];
export const PACKAGE_OWNERS: Array<{ pkg: RegExp; layers: string[] }>;
export function layerOf(relPath: string): Layer | undefined;
declare const plugin: ESLint.Plugin & { rules: { direction: Rule.RuleModule } };
export default plugin;
