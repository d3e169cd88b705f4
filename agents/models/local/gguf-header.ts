// The first bytes of a GGUF file: the magic "GGUF" and a format version. Enough to refuse an
// HTML error page saved as .gguf, a truncated copy or a file of another format, before a
// runtime tries to load gigabytes of it.
import { open, stat } from 'node:fs/promises';
import { kindOf } from '../../../base/user-file';
import { ModelStoreError } from './store-errors';

/** GGUF versions llama.cpp reads (1 was dropped upstream). */
export const GGUF_VERSIONS: readonly number[] = [2, 3];

export async function readGgufVersion(path: string): Promise<number> {
  let fh;
  try {
    // A named pipe or a device would block the open (or the read) for ever: only regular files.
    const st = await stat(path);
    if (!st.isFile()) throw new ModelStoreError('no-file', `${path}: ${kindOf(st)}, not a regular file: give a .gguf file`);
    fh = await open(path, 'r');
  } catch (e) {
    if (e instanceof ModelStoreError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ModelStoreError('no-file', `${path}: no such file`);
    if (code === 'EISDIR') throw new ModelStoreError('no-file', `${path} is a folder: give a .gguf file`);
    throw new ModelStoreError('io', `cannot read ${path} (${code ?? 'error'})`);
  }
  try {
    const buf = Buffer.alloc(8);
    const { bytesRead } = await fh.read(buf, 0, 8, 0);
    if (bytesRead < 8 || buf.toString('latin1', 0, 4) !== 'GGUF')
      throw new ModelStoreError('not-gguf', `${path} is not a GGUF model (it does not start with "GGUF")`);
    const version = buf.readUInt32LE(4);
    if (!GGUF_VERSIONS.includes(version))
      throw new ModelStoreError('not-gguf', `${path} is GGUF version ${version}; llama.cpp reads versions ${GGUF_VERSIONS.join(' and ')}`);
    return version;
  } finally {
    await fh.close();
  }
}
