import type { ESLint } from 'eslint';
export const HOST_REF_TYPES: string[];
export const MINTS: string[];
declare const plugin: ESLint.Plugin;
export default plugin;
