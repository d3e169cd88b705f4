// Types of build-cli.mjs for the TypeScript code (tests, the CLI benchmark) that imports it.
export declare const OUT_DIR: string;
export interface BuildOptions {
  outDir?: string;
  log?: (line: string) => void;
}
export declare function freshBundle(outDir?: string): string | undefined;
export declare function buildCli(opts?: BuildOptions): Promise<string>;
export declare function cliBundle(opts?: BuildOptions): Promise<string | undefined>;
