// The one reader of files a person names: never blocks on a pipe, refuses what is
// not a regular file, caps the size, drops a byte-order mark.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUserText, readUserTextSync, UserFileError } from './user-file';

const dir = mkdtempSync(join(tmpdir(), 'sb-userfile-'));
const BOM = '\uFEFF';

async function problem(p: Promise<unknown>): Promise<UserFileError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof UserFileError) return e;
    throw e;
  }
  throw new Error('it read the file');
}

describe('reading a named file', () => {
  it('refuses a named pipe at once, sync and async', async () => {
    const fifo = join(dir, 'p');
    execFileSync('mkfifo', [fifo]);
    expect(() => readUserTextSync(fifo)).toThrow(/named pipe \(FIFO\), not a regular file/);
    expect((await problem(readUserText(fifo))).problem).toBe('not-a-file');
  });

  it('refuses a folder and a device, and names a missing file', async () => {
    expect((await problem(readUserText(dir))).reason).toMatch(/^a folder/);
    expect((await problem(readUserText('/dev/zero'))).reason).toMatch(/^a device/);
    expect((await problem(readUserText(join(dir, 'nope')))).reason).toBe('no such file');
  });

  it('caps the size before reading', async () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, 'x'.repeat(2000));
    expect((await problem(readUserText(big, { maxBytes: 1000 }))).problem).toBe('too-large');
    expect(() => readUserTextSync(big, { maxBytes: 1999 })).toThrow(/2000 bytes; at most 1999/);
    expect(readUserTextSync(big, { maxBytes: 2000 })).toHaveLength(2000);
  });

  it('drops a UTF-8 byte-order mark', async () => {
    const f = join(dir, 'bom.json');
    writeFileSync(f, `${BOM}{"a":1}`);
    expect(await readUserText(f)).toBe('{"a":1}');
    expect(readUserTextSync(f)).toBe('{"a":1}');
  });
});
