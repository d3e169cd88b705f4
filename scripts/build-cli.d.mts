// Types of build-cli.mjs for the TypeScript code (tests, the CLI benchmark) that imports it.
export declare const OUT_DIR: string;
export interface BuildOptions {
  outDir?: string;
  log?: (line: string) => void;
}
/** `command`: check only the sources of the code that command can load (all when it is not narrowed). */
export declare function freshBundle(outDir?: string, command?: string): string | undefined;
export declare function buildCli(opts?: BuildOptions): Promise<string>;
export declare function cliBundle(opts?: BuildOptions & { command?: string }): Promise<string | undefined>;
