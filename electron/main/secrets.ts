// API keys for model servers, encrypted with the OS keychain (Electron's
// safeStorage) and kept in a file under userData, one per base URL: a key is
// sent to the server it was stored for and no other (agents/models/spec.ts has
// the rule). Keys never go to the renderer: it may store, clear, or ask whether
// a key exists. The agent runtime reads them here, in main (the worker asks on
// demand). On Linux safeStorage may have no keyring and fall back to a fixed
// password ("basic_text"), which protects nothing: the store detects that and
// refuses rather than claim encryption it does not have.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type ModelProvider, normalizeBaseURL, presetBaseURL } from '../../hosts/service/keys';

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which secret store safeStorage uses ("gnome_libsecret", "kwallet5", "basic_text", …). */
  getSelectedStorageBackend?(): string;
}

type AsyncSafeStorage = SafeStorageLike & {
  encryptStringAsync?: (plain: string) => Promise<Buffer>;
  decryptStringAsync?: (encrypted: Buffer) => Promise<string | { result: string }>;
};

/** What protects stored keys on this machine, as the UI may truthfully say it. */
export interface Protection {
  secure: boolean;
  /** e.g. "the macOS Keychain", "GNOME Keyring (libsecret)". */
  name: string;
}

export function protectionOf(safe: SafeStorageLike, platform: NodeJS.Platform = process.platform): Protection {
  if (!safe.isEncryptionAvailable()) return { secure: false, name: 'no keychain' };
  if (platform === 'darwin') return { secure: true, name: 'the macOS Keychain' };
  if (platform === 'win32') return { secure: true, name: 'Windows data protection (DPAPI)' };
  const backend = safe.getSelectedStorageBackend?.() ?? 'unknown';
  if (backend === 'gnome_libsecret') return { secure: true, name: 'the desktop keyring (libsecret)' };
  if (backend.startsWith('kwallet')) return { secure: true, name: 'KWallet' };
  // basic_text: Chromium's fixed password; unknown: we cannot tell, so we do not claim it.
  return { secure: false, name: backend === 'basic_text' ? 'a fixed password (no keyring found)' : `an unknown store (${backend})` };
}

/** Keys stored before keys were kept per base URL were kept per provider: the presets' keys keep working. */
function migrate(key: string): string | undefined {
  if (key.includes('://')) return key;
  const url = presetBaseURL(key as ModelProvider);
  return url ? normalizeBaseURL(url) : undefined;
}

export class SecretStore {
  constructor(
    private readonly file: string,
    private readonly safe: AsyncSafeStorage,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  get protection(): Protection {
    return protectionOf(this.safe, this.platform);
  }

  private async readAll(): Promise<Record<string, string>> {
    let data: unknown;
    try {
      data = JSON.parse((await readFile(this.file, 'utf8')).replace(/^\uFEFF/, '')) as unknown;
    } catch {
      return {};
    }
    const out: Record<string, string> = {};
    if (!data || typeof data !== 'object') return out;
    for (const [k, v] of Object.entries(data)) {
      const url = migrate(k);
      if (url && typeof v === 'string') out[url] = v;
    }
    return out;
  }

  private async writeAll(all: Record<string, string>): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    await writeFile(tmp, JSON.stringify(all), { mode: 0o600 });
    await rename(tmp, this.file);
  }

  /** Stores the key for a base URL; says what protects it. */
  async set(baseURL: string, key: string): Promise<Protection> {
    const p = this.protection;
    if (!p.secure) {
      throw new Error(
        p.name === 'no keychain'
          ? 'this system offers no keychain to encrypt the key; set it in the environment (e.g. SKILLBRIDGE_API_KEY) instead'
          : `this system would protect the key only with ${p.name}, which keeps nothing secret; unlock or install a keyring (e.g. GNOME Keyring), or set the key in the environment (e.g. SKILLBRIDGE_API_KEY) instead`,
      );
    }
    const enc = this.safe.encryptStringAsync ? await this.safe.encryptStringAsync(key) : this.safe.encryptString(key);
    const all = await this.readAll();
    all[normalizeBaseURL(baseURL)] = enc.toString('base64');
    await this.writeAll(all);
    return p;
  }

  async has(baseURL: string): Promise<boolean> {
    return Object.hasOwn(await this.readAll(), normalizeBaseURL(baseURL));
  }

  async clear(baseURL: string): Promise<boolean> {
    const all = await this.readAll();
    const url = normalizeBaseURL(baseURL);
    if (!Object.hasOwn(all, url)) return false;
    delete all[url];
    await this.writeAll(all);
    return true;
  }

  /** Main process only (the agent runtime): never exposed over IPC. The key stored for exactly this base URL. */
  async get(baseURL: string): Promise<string | undefined> {
    const enc = (await this.readAll())[normalizeBaseURL(baseURL)];
    if (!enc) return undefined;
    const buf = Buffer.from(enc, 'base64');
    if (this.safe.decryptStringAsync) {
      const r = await this.safe.decryptStringAsync(buf);
      return typeof r === 'string' ? r : r.result;
    }
    return this.safe.decryptString(buf);
  }
}
