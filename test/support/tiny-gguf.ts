// A tiny llama-architecture GGUF model with seeded random weights, for tests and
// the local-model benchmark: no real weights can be downloaded here, so the tests
// write one. Layout per the GGUF spec (ggml's docs/gguf.md, gguf-py's writer):
// header (magic, version 3, tensor and key counts), key/value metadata, tensor
// infos, padding to `general.alignment`, tensor data. The vocabulary is a
// SentencePiece ("llama") one of control tokens, the 256 byte tokens (byte
// fallback spells any text) and a few pieces; F32 weights keep ggml's CPU path simple.
import { writeFileSync } from 'node:fs';
import { seededRandom as rng } from '../../base/seeded-random';

const ALIGN = 32;
enum T {
  U32 = 4,
  I32 = 5,
  F32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
}
/** llama.cpp's token types. */
const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const BYTE = 6;

type Value =
  | { t: T.U32 | T.I32 | T.F32; v: number }
  | { t: T.BOOL; v: boolean }
  | { t: T.STRING; v: string }
  | { t: T.ARRAY; of: T.STRING; v: string[] }
  | { t: T.ARRAY; of: T.F32 | T.I32; v: number[] };

export interface TinyGgufOptions {
  seed?: number;
  embedding?: number;
  layers?: number;
  heads?: number;
  feedForward?: number;
  contextLength?: number;
  /** Written to `tokenizer.chat_template`; default a ChatML template that renders no tools. */
  chatTemplate?: string | null;
  name?: string;
}

/** ChatML without tool definitions: a template like this leaves tool calls to the grammar. */
export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const PIECES = ['▁', '{', '}', '"', ':', ',', '[', ']', '▁the', 'name', 'arguments', 'tool_calls', 'answer'];

/** The vocabulary: tokens, scores and types, in id order. */
function vocabulary(): { tokens: string[]; scores: number[]; types: number[] } {
  const tokens = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>'];
  const types = [UNKNOWN, CONTROL, CONTROL, CONTROL, CONTROL];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(BYTE);
  }
  for (const p of PIECES) {
    tokens.push(p);
    types.push(NORMAL);
  }
  // SentencePiece merges by score: longer pieces score higher.
  const scores = tokens.map((t, i) => (types[i] === NORMAL ? -100 + t.length : 0));
  return { tokens, scores, types };
}

class Out {
  private parts: Buffer[] = [];
  size = 0;
  push(b: Buffer): void {
    this.parts.push(b);
    this.size += b.length;
  }
  u32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.push(b);
  }
  u64(n: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.push(b);
  }
  str(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.push(b);
  }
  scalar(t: T, v: number | boolean | string): void {
    if (t === T.STRING) return this.str(v as string);
    const b = Buffer.alloc(t === T.BOOL ? 1 : 4);
    if (t === T.U32) b.writeUInt32LE(v as number);
    else if (t === T.I32) b.writeInt32LE(v as number);
    else if (t === T.F32) b.writeFloatLE(v as number);
    else b.writeUInt8(v ? 1 : 0);
    this.push(b);
  }
  pad(): void {
    const n = (ALIGN - (this.size % ALIGN)) % ALIGN;
    if (n) this.push(Buffer.alloc(n));
  }
  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** The GGUF bytes of a tiny llama model. */
export function tinyGguf(opts: TinyGgufOptions = {}): Buffer {
  const embd = opts.embedding ?? 64;
  const layers = opts.layers ?? 2;
  const heads = opts.heads ?? 4;
  const ff = opts.feedForward ?? 128;
  const random = rng(opts.seed ?? 1);
  const vocab = vocabulary();
  const nVocab = vocab.tokens.length;
  const template = opts.chatTemplate === undefined ? CHATML_TEMPLATE : opts.chatTemplate;

  const kv: [string, Value][] = [
    ['general.architecture', { t: T.STRING, v: 'llama' }],
    ['general.name', { t: T.STRING, v: opts.name ?? 'skillbridge-tiny-test' }],
    ['general.alignment', { t: T.U32, v: ALIGN }],
    ['llama.context_length', { t: T.U32, v: opts.contextLength ?? 16384 }],
    ['llama.embedding_length', { t: T.U32, v: embd }],
    ['llama.block_count', { t: T.U32, v: layers }],
    ['llama.feed_forward_length', { t: T.U32, v: ff }],
    ['llama.attention.head_count', { t: T.U32, v: heads }],
    ['llama.attention.head_count_kv', { t: T.U32, v: heads }],
    ['llama.attention.layer_norm_rms_epsilon', { t: T.F32, v: 1e-5 }],
    ['llama.rope.dimension_count', { t: T.U32, v: embd / heads }],
    ['llama.vocab_size', { t: T.U32, v: nVocab }],
    ['tokenizer.ggml.model', { t: T.STRING, v: 'llama' }],
    ['tokenizer.ggml.tokens', { t: T.ARRAY, of: T.STRING, v: vocab.tokens }],
    ['tokenizer.ggml.scores', { t: T.ARRAY, of: T.F32, v: vocab.scores }],
    ['tokenizer.ggml.token_type', { t: T.ARRAY, of: T.I32, v: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', { t: T.U32, v: 0 }],
    ['tokenizer.ggml.bos_token_id', { t: T.U32, v: 1 }],
    ['tokenizer.ggml.eos_token_id', { t: T.U32, v: 4 }],
    ['tokenizer.ggml.add_bos_token', { t: T.BOOL, v: true }],
    ['tokenizer.ggml.add_eos_token', { t: T.BOOL, v: false }],
  ];
  if (template !== null) kv.push(['tokenizer.chat_template', { t: T.STRING, v: template }]);

  // ggml dims: ne0 (the row length) first.
  const tensors: { name: string; dims: number[]; init: 'one' | 'rand' }[] = [
    { name: 'token_embd.weight', dims: [embd, nVocab], init: 'rand' },
    { name: 'output_norm.weight', dims: [embd], init: 'one' },
    { name: 'output.weight', dims: [embd, nVocab], init: 'rand' },
  ];
  for (let i = 0; i < layers; i++) {
    const b = `blk.${i}.`;
    tensors.push(
      { name: `${b}attn_norm.weight`, dims: [embd], init: 'one' },
      { name: `${b}attn_q.weight`, dims: [embd, embd], init: 'rand' },
      { name: `${b}attn_k.weight`, dims: [embd, embd], init: 'rand' },
      { name: `${b}attn_v.weight`, dims: [embd, embd], init: 'rand' },
      { name: `${b}attn_output.weight`, dims: [embd, embd], init: 'rand' },
      { name: `${b}ffn_norm.weight`, dims: [embd], init: 'one' },
      { name: `${b}ffn_gate.weight`, dims: [embd, ff], init: 'rand' },
      { name: `${b}ffn_up.weight`, dims: [embd, ff], init: 'rand' },
      { name: `${b}ffn_down.weight`, dims: [ff, embd], init: 'rand' },
    );
  }

  const out = new Out();
  out.push(Buffer.from('GGUF', 'ascii'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(kv.length);
  for (const [key, val] of kv) {
    out.str(key);
    out.u32(val.t);
    if (val.t === T.ARRAY) {
      out.u32(val.of);
      out.u64(val.v.length);
      for (const x of val.v) out.scalar(val.of, x);
    } else out.scalar(val.t, val.v);
  }
  const data = new Out();
  for (const t of tensors) {
    data.pad();
    out.str(t.name);
    out.u32(t.dims.length);
    for (const d of t.dims) out.u64(d);
    out.u32(0); // GGML_TYPE_F32
    out.u64(data.size);
    const n = t.dims.reduce((a, b) => a * b, 1);
    const f = new Float32Array(n);
    // Scaled like a trained layer's weights (~1/sqrt(fan-in)) so activations stay finite.
    const scale = 1 / Math.sqrt(t.dims[0] ?? 1);
    for (let i = 0; i < n; i++) f[i] = t.init === 'one' ? 1 : (random() * 2 - 1) * scale * 1.7;
    data.push(Buffer.from(f.buffer));
  }
  out.pad();
  out.push(data.bytes());
  return out.bytes();
}

/** Writes a tiny model to `file` and returns the path. */
export function writeTinyGguf(file: string, opts: TinyGgufOptions = {}): string {
  writeFileSync(file, tinyGguf(opts));
  return file;
}
