// Whatever a trace record or a request holds, a picture's name is a file name
// (never a path), and a record that is not what it should be names no picture
// rather than throwing: the page then shows nothing for it, never a crash.
import fc from 'fast-check';
import { posix, win32 } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../test/fuzz/support/budget';
import { PICTURE_METHODS, PICTURE_NAME, picturesOfRecord, pictureAlt } from './pictures';

const isFileName = (id: string) => PICTURE_NAME.test(id) && posix.basename(id) === id && win32.basename(id) === id && !id.startsWith('.');

describe('picture names', () => {
  it('a request names a picture by a file name only', () => {
    const image = PICTURE_METHODS.getRunImage.request.shape.image;
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom('../a.png', 'a/b.png', '.hidden.png', 'c1-1.png', 'x\\y.png', '..png')), (s) => {
        const r = image.safeParse(s);
        if (r.success) expect(isFileName(r.data)).toBe(true);
      }),
      { numRuns: fuzzRuns(300), seed: fuzzSeed(41) },
    );
  });

  it('any record gives pictures with file-name ids, or none; it never throws', () => {
    const ref = fc.oneof(fc.string(), fc.constantFrom('r.files/c1-1.png', '../../etc/x.png', 'memory/c1-1.png', 'r.files/.png'));
    const image = fc.record(
      { mimeType: fc.oneof(fc.string(), fc.constant('image/png')), width: fc.oneof(fc.integer(), fc.double()), height: fc.integer(), ref },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.array(image)), fc.anything(), (images, data) => {
        const got = picturesOfRecord(images, data);
        for (const p of got) {
          expect(isFileName(p.id)).toBe(true);
          expect(p.width === null || (Number.isInteger(p.width) && p.width > 0)).toBe(true);
          expect(pictureAlt('get_camera_image', p)).toMatch(/^Robot camera picture, /);
        }
      }),
      { numRuns: fuzzRuns(300), seed: fuzzSeed(42) },
    );
  });
});
