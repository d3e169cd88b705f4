// A GGUF file checked before a process is started for it: the header, the
// metadata and the tensor table read (values skipped), and the file long enough
// for every tensor the table lists. A truncated download or a file that is not a
// model gets one clear error naming the file, at once, instead of a native failure.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { ModelError } from '../model';

/** ggml types: [elements per block, bytes per block] (ggml.c's type traits). */
const TYPE_SIZES: Record<number, [number, number]> = {
  0: [1, 4], 1: [1, 2], 2: [32, 18], 3: [32, 20], 6: [32, 22], 7: [32, 24], 8: [32, 34], 9: [32, 36],
  10: [256, 84], 11: [256, 110], 12: [256, 144], 13: [256, 176], 14: [256, 210], 15: [256, 292],
  16: [256, 66], 17: [256, 74], 18: [256, 98], 19: [256, 50], 20: [32, 18], 21: [256, 110], 22: [256, 82],
  23: [256, 136], 24: [1, 1], 25: [1, 2], 26: [1, 4], 27: [1, 8], 28: [1, 8], 29: [256, 56], 30: [1, 2],
  34: [256, 54], 35: [256, 66], 39: [32, 17],
}; // prettier-ignore

/** Scalar value sizes by GGUF value type (8 string and 9 array are read apart). */
const SCALAR: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

class Reader {
  private buf = Buffer.alloc(1 << 16);
  private start = 0;
  private end = 0;
  pos = 0;
  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}
  private need(n: number): void {
    if (this.pos + n > this.size) throw new RangeError('ends inside its header');
    if (this.pos >= this.start && this.pos + n <= this.end) return;
    if (n > this.buf.length) this.buf = Buffer.alloc(n);
    this.start = this.pos;
    this.end = this.pos + readSync(this.fd, this.buf, 0, this.buf.length, this.pos);
  }
  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.pos - this.start);
    this.pos += 4;
    return v;
  }
  u64(): number {
    this.need(8);
    const v = Number(this.buf.readBigUInt64LE(this.pos - this.start));
    this.pos += 8;
    return v;
  }
  skip(n: number): void {
    if (this.pos + n > this.size) throw new RangeError('ends inside its header');
    this.pos += n;
  }
  string(): string {
    const n = this.u64();
    if (n > 1 << 20) throw new RangeError('has a key longer than any model uses');
    this.need(n);
    const s = this.buf.toString('utf8', this.pos - this.start, this.pos - this.start + n);
    this.pos += n;
    return s;
  }
  value(type: number, depth = 0): void {
    if (type === 8) return this.skip(this.u64());
    if (type === 9 && depth === 0) {
      const of = this.u32();
      const count = this.u64();
      if (of === 8) for (let i = 0; i < count; i++) this.skip(this.u64());
      else if (SCALAR[of] !== undefined) this.skip(count * SCALAR[of]);
      else throw new RangeError(`has an array of unknown type ${of}`);
      return;
    }
    const size = SCALAR[type];
    if (size === undefined) throw new RangeError(`has a value of unknown type ${type}`);
    this.skip(size);
  }
}

/** Throws a ModelError naming `file` when it is missing, not a GGUF model, or shorter than its tensor table says. */
export function checkGgufFile(file: string): void {
  let size: number;
  try {
    const s = statSync(file);
    if (!s.isFile()) throw new Error('not a file');
    size = s.size;
  } catch {
    throw new ModelError(`No model file at ${file}.`, 'config', undefined, {
      fix: 'Give the path of a .gguf file, or the name of a model in the models folder (skillbridge models list).',
    });
  }
  const bad = (why: string, fix = 'Give a .gguf model file.'): ModelError =>
    new ModelError(`${file} is not a usable GGUF model: it ${why}. ${fix}`, 'config', undefined, { fix });
  const fd = openSync(file, 'r');
  try {
    const r = new Reader(fd, size);
    const magic = Buffer.alloc(4);
    if (readSync(fd, magic, 0, 4, 0) < 4 || magic.toString('latin1') !== 'GGUF') throw bad('does not start with "GGUF"');
    r.pos = 4;
    const version = r.u32();
    if (version < 2 || version > 3) throw bad(`is GGUF version ${version} (llama.cpp reads 2 and 3)`);
    const tensors = r.u64();
    const keys = r.u64();
    let align = 32;
    for (let i = 0; i < keys; i++) {
      const key = r.string();
      const type = r.u32();
      if (key === 'general.alignment' && type === 4) align = r.u32();
      else r.value(type);
    }
    let dataEnd = 0;
    for (let i = 0; i < tensors; i++) {
      r.string();
      const dims = r.u32();
      if (dims > 8) throw bad('has a tensor with more dimensions than ggml allows');
      let n = 1;
      for (let d = 0; d < dims; d++) n *= r.u64();
      const type = r.u32();
      const offset = r.u64();
      const ts = TYPE_SIZES[type];
      dataEnd = Math.max(dataEnd, offset + (ts ? (n / ts[0]) * ts[1] : 0));
    }
    const dataStart = Math.ceil(r.pos / align) * align;
    if (dataStart + dataEnd > size)
      throw bad(
        `is ${size} bytes but its tensors need ${dataStart + dataEnd}: the file is truncated`,
        'Download it again (skillbridge models pull resumes), or pick another .gguf file.',
      );
  } catch (e) {
    if (e instanceof ModelError) throw e;
    throw bad(e instanceof RangeError ? e.message : 'cannot be read', 'The file may be truncated or corrupt: download it again.');
  } finally {
    closeSync(fd);
  }
}
