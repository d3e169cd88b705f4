// Types of wasm-hints.mjs for the TypeScript code (tests) that imports it.
export declare function wasmSections(bytes: Uint8Array): Array<{ id: number; at: number; start: number; end: number }>;
export declare function functionCounts(bytes: Uint8Array): { imported: number; declared: number };
export declare function withEagerHints(bytes: Uint8Array, eager: Iterable<number>): Uint8Array;
export declare function eagerHints(bytes: Uint8Array): number[] | undefined;
export declare function validWasm(bytes: Uint8Array): boolean;
