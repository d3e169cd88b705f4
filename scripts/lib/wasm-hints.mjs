// V8 compiles a WebAssembly function when it is first called (lazy compilation), on
// the thread that calls it. A one-shot command that builds a Rapier world spends most
// of its physics time there: the first 40 steps of a world cost ~40 times the next 40.
// V8's compilation-hints section (a custom section between the function and code
// sections, read under --experimental-wasm-compilation-hints) marks chosen functions
// eager: they compile on V8's background threads during WebAssembly.compile, while
// the command's JavaScript still loads, and the rest stay lazy. Without the flag, or
// in an engine that does not know the section, it is an unknown custom section and
// ignored, so the module behaves exactly as before.

const CUSTOM = 0;
const FUNCTION = 3;
const CODE = 10;
// Strategy eager (bits 0-1 = 2) with baseline and top tier Liftoff (bits 2-3, 4-5 = 1):
// a tier left to the engine would stay "none" in a lazily compiled module, i.e. lazy.
const EAGER = 0x02 | (1 << 2) | (1 << 4);
const DEFAULT = 0x00;

function readLeb(bytes, at) {
  let value = 0;
  let shift = 0;
  let p = at;
  for (;;) {
    const b = bytes[p++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(b & 0x80)) return [value, p];
  }
}

function leb(n) {
  const out = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

/** The module's sections: id, where the payload starts and ends. */
export function wasmSections(bytes) {
  const sections = [];
  let p = 8;
  while (p < bytes.length) {
    const id = bytes[p];
    const [len, start] = readLeb(bytes, p + 1);
    sections.push({ id, at: p, start, end: start + len });
    p = start + len;
  }
  return sections;
}

/** Counts of imported and of declared (defined) functions. */
export function functionCounts(bytes) {
  const sections = wasmSections(bytes);
  let imported = 0;
  const imports = sections.find((s) => s.id === 2);
  if (imports) {
    let [n, p] = readLeb(bytes, imports.start);
    for (; n > 0; n--) {
      let len;
      [len, p] = readLeb(bytes, p); // module name
      p += len;
      [len, p] = readLeb(bytes, p); // field name
      p += len;
      const kind = bytes[p++];
      if (kind === 0) {
        [, p] = readLeb(bytes, p);
        imported++;
      } else if (kind === 1) {
        p++; // element type
        const flags = bytes[p++];
        [, p] = readLeb(bytes, p);
        if (flags & 1) [, p] = readLeb(bytes, p);
      } else if (kind === 2) {
        const flags = bytes[p++];
        [, p] = readLeb(bytes, p);
        if (flags & 1) [, p] = readLeb(bytes, p);
      } else if (kind === 3)
        p += 2; // value type, mutability
      else throw new Error(`unknown import kind ${kind}`);
    }
  }
  const functions = sections.find((s) => s.id === FUNCTION);
  const declared = functions ? readLeb(bytes, functions.start)[0] : 0;
  return { imported, declared };
}

/**
 * A copy of the module with a compilation-hints section marking `eager` (function
 * indices, imports counted, as V8 names them "wasm-function[N]") eager and every other
 * function default. Returns the bytes unchanged when the module has no code section
 * or already carries hints.
 */
export function withEagerHints(bytes, eager) {
  const sections = wasmSections(bytes);
  const code = sections.find((s) => s.id === CODE);
  if (!code || sections.some((s) => s.id === CUSTOM && customName(bytes, s) === 'compilationHints')) return bytes;
  const { imported, declared } = functionCounts(bytes);
  const hints = new Uint8Array(declared).fill(DEFAULT);
  for (const index of eager) if (index >= imported && index < imported + declared) hints[index - imported] = EAGER;
  const name = new TextEncoder().encode('compilationHints');
  const payload = [...leb(name.length), ...name, ...leb(declared), ...hints];
  const section = Uint8Array.from([CUSTOM, ...leb(payload.length), ...payload]);
  const out = new Uint8Array(bytes.length + section.length);
  out.set(bytes.subarray(0, code.at), 0);
  out.set(section, code.at);
  out.set(bytes.subarray(code.at), code.at + section.length);
  return out;
}

function customName(bytes, s) {
  const [len, p] = readLeb(bytes, s.start);
  return new TextDecoder().decode(bytes.subarray(p, p + len));
}

/** The hint byte of each declared function, or undefined when the module carries no compilation hints. */
export function eagerHints(bytes) {
  for (const s of wasmSections(bytes)) {
    if (s.id !== CUSTOM || customName(bytes, s) !== 'compilationHints') continue;
    const [len, p] = readLeb(bytes, s.start);
    const [count, q] = readLeb(bytes, p + len);
    return [...bytes.subarray(q, q + count)];
  }
  return undefined;
}

/** WebAssembly.validate, for TypeScript callers whose lib has no WebAssembly. */
export function validWasm(bytes) {
  return WebAssembly.validate(bytes);
}
