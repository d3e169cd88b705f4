// `models add` of a named pipe answers at once instead of waiting for a writer for ever.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGgufVersion } from './gguf-header';

describe.skipIf(process.platform === 'win32')('a GGUF header read', () => {
  it('refuses a named pipe without blocking', async () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'sb-gguf-fifo-')), 'model.gguf');
    execFileSync('mkfifo', [fifo]);
    await expect(readGgufVersion(fifo)).rejects.toThrow(/named pipe \(FIFO\), not a regular file/);
  });
});
