// API keys for model providers, encrypted with the OS keychain (Electron's
// safeStorage) and kept in a file under userData. Keys never go to the
// renderer: it may store, clear, or ask whether a key exists. The agent runtime
// reads them here, in main (the worker asks on demand). The async safeStorage API is used where
// this Electron has it; 41 has only the synchronous one, wrapped in promises.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

type AsyncSafeStorage = SafeStorageLike & {
  encryptStringAsync?: (plain: string) => Promise<Buffer>;
  decryptStringAsync?: (encrypted: Buffer) => Promise<string | { result: string }>;
};

export class SecretStore {
  constructor(
    private readonly file: string,
    private readonly safe: AsyncSafeStorage,
  ) {}

  private async readAll(): Promise<Record<string, string>> {
    try {
      const data = JSON.parse(await readFile(this.file, 'utf8')) as unknown;
      return data && typeof data === 'object' ? (data as Record<string, string>) : {};
    } catch {
      return {};
    }
  }

  private async writeAll(all: Record<string, string>): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    await writeFile(tmp, JSON.stringify(all), { mode: 0o600 });
    await rename(tmp, this.file);
  }

  async set(provider: string, key: string): Promise<void> {
    if (!this.safe.isEncryptionAvailable()) {
      throw new Error('this system offers no keychain to encrypt the key; set it in the environment (e.g. OPENAI_API_KEY) instead');
    }
    const enc = this.safe.encryptStringAsync ? await this.safe.encryptStringAsync(key) : this.safe.encryptString(key);
    const all = await this.readAll();
    all[provider] = enc.toString('base64');
    await this.writeAll(all);
  }

  async has(provider: string): Promise<boolean> {
    return Object.hasOwn(await this.readAll(), provider);
  }

  async clear(provider: string): Promise<boolean> {
    const all = await this.readAll();
    if (!Object.hasOwn(all, provider)) return false;
    delete all[provider];
    await this.writeAll(all);
    return true;
  }

  /** Main process only (the agent runtime): never exposed over IPC. */
  async get(provider: string): Promise<string | undefined> {
    const enc = (await this.readAll())[provider];
    if (!enc) return undefined;
    const buf = Buffer.from(enc, 'base64');
    if (this.safe.decryptStringAsync) {
      const r = await this.safe.decryptStringAsync(buf);
      return typeof r === 'string' ? r : r.result;
    }
    return this.safe.decryptString(buf);
  }
}
