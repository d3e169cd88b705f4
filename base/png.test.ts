import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodePng } from './png';

describe('encodePng', () => {
  it('writes a PNG whose chunks check out and whose pixels read back', () => {
    const rgb = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]);
    const png = encodePng(2, 2, rgb);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunks: Array<{ type: string; data: Buffer }> = [];
    for (let o = 8; o < png.length;) {
      const len = png.readUInt32BE(o);
      const type = png.toString('ascii', o + 4, o + 8);
      const data = png.subarray(o + 8, o + 8 + len);
      expect(png.readUInt32BE(o + 8 + len)).toBe(crc32(png.subarray(o + 4, o + 8 + len)) >>> 0);
      chunks.push({ type, data });
      o += 12 + len;
    }
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([chunks[0]!.data.readUInt32BE(0), chunks[0]!.data.readUInt32BE(4), chunks[0]!.data[8], chunks[0]!.data[9]]).toEqual([
      2, 2, 8, 2,
    ]);
    const raw = inflateSync(chunks[1]!.data);
    expect([...raw]).toEqual([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 10, 20, 30]);
  });

  it('refuses a buffer of the wrong size', () => {
    expect(() => encodePng(2, 2, new Uint8Array(5))).toThrow(/expected 12 bytes, got 5/);
  });
});
