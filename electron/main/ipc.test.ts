import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IpcMainInvokeEvent } from 'electron';
import { describe, expect, it } from 'vitest';
import type { AppMethods } from '../../contract/api';
import { IPC } from '../../contract/wire';
import { AppService } from '../../hosts/service/app-service';
import { type IpcLike, registerApi, trustFrom } from './ipc';
import { devRendererUrl, keyQuestion, mayOpenExternal } from './policy';
import { SecretStore } from './secrets';

type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>;

function fakeIpc(): IpcLike & { handlers: Map<string, Handler> } {
  const handlers = new Map<string, Handler>();
  return { handlers, handle: (c, l) => void handlers.set(c, l), removeHandler: (c) => void handlers.delete(c) };
}

function event(url: string, id = 1): IpcMainInvokeEvent {
  return { senderFrame: { url }, sender: { id } } as unknown as IpcMainInvokeEvent;
}

describe('Electron IPC handler', () => {
  const session = new AppService({ paced: false });
  const ipc = fakeIpc();
  const lines: string[] = [];
  registerApi(
    ipc,
    session as AppMethods,
    trustFrom(['app://skillbridge'], (id) => id === 1),
    (l) => lines.push(l),
  );
  const call = (payload: unknown, from = event('app://skillbridge/index.html')) => ipc.handlers.get(IPC.call)!(from, payload);

  it('answers the app window with validated calls', async () => {
    const r = (await call({ method: 'listScenes', request: {} })) as { ok: boolean; value: Array<{ id: string }> };
    expect(r.ok).toBe(true);
    expect(r.value.map((s) => s.id)).toContain('tabletop/fruits');
  });

  it('refuses other senders: another origin, or another window', async () => {
    expect(await call({ method: 'listScenes', request: {} }, event('https://evil.example/'))).toMatchObject({
      ok: false,
      error: { message: 'untrusted sender' },
    });
    expect(await call({ method: 'listScenes', request: {} }, event('app://skillbridge/index.html', 2))).toMatchObject({ ok: false });
    expect(lines.some((l) => l.includes('evil.example'))).toBe(true);
  });

  it('validates the envelope, the method name and the request with the contract schemas', async () => {
    expect(await call('listScenes')).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await call({ method: 'eval', request: {} })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: 'unknown method "eval"' },
    });
    expect(await call({ method: 'loadScene', request: { id: 42 } })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await call({ method: 'injectEvent', request: { type: 'set_battery', percent: 400 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(await call({ method: 'getSnapshot', request: {} })).toMatchObject({ ok: false, error: { code: 'no_scene' } });
  });
});

describe('SecretStore', () => {
  // A stand-in for safeStorage: reversible, and visibly not the plain text.
  const fake = {
    isEncryptionAvailable: () => true,
    encryptString: (s: string) => Buffer.from(`enc:${[...s].reverse().join('')}`),
    decryptString: (b: Buffer) => [...b.toString().slice(4)].reverse().join(''),
  };

  const OPENAI = 'https://api.openai.com/v1';

  it('stores keys encrypted per base URL, answers only whether one exists, and clears them', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'sb-secrets-')), 'secrets.json');
    const store = new SecretStore(file, fake, 'darwin');
    expect(await store.has(OPENAI)).toBe(false);
    expect(await store.set(`${OPENAI}/`, 'sk-123')).toMatchObject({ secure: true, name: 'the macOS Keychain' });
    expect(await store.has(OPENAI)).toBe(true);
    expect(await store.get(OPENAI)).toBe('sk-123');
    // Another server gets nothing: not another path, not another port.
    expect(await store.get('https://api.openai.com/v2')).toBeUndefined();
    expect(await store.get('https://api.openai.com:8443/v1')).toBeUndefined();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(file, 'utf8')).not.toContain('sk-123');
    expect(await store.clear(OPENAI)).toBe(true);
    expect(await store.has(OPENAI)).toBe(false);
  });

  it('keeps keys stored per provider before, for the presets fixed URLs only', async () => {
    const { writeFileSync } = await import('node:fs');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'sb-secrets-')), 'secrets.json');
    const enc = (s: string) => fake.encryptString(s).toString('base64');
    writeFileSync(file, JSON.stringify({ openai: enc('sk-old'), 'openai-compatible': enc('sk-where') }));
    const store = new SecretStore(file, fake, 'darwin');
    expect(await store.get(OPENAI)).toBe('sk-old');
    expect(await store.get('http://10.0.0.5:8000/v1')).toBeUndefined();
  });

  it('refuses to store a key in plain text when no keychain is available', async () => {
    const store = new SecretStore(path.join(mkdtempSync(path.join(tmpdir(), 'sb-secrets-')), 's.json'), {
      ...fake,
      isEncryptionAvailable: () => false,
    });
    await expect(store.set(OPENAI, 'sk')).rejects.toThrow(/no keychain/);
  });

  it('on Linux without a keyring (a fixed password) it says so and refuses, rather than claim encryption', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-secrets-'));
    const basic = new SecretStore(path.join(dir, 'a.json'), { ...fake, getSelectedStorageBackend: () => 'basic_text' }, 'linux');
    expect(basic.protection).toEqual({ secure: false, name: 'a fixed password (no keyring found)' });
    await expect(basic.set(OPENAI, 'sk')).rejects.toThrow(/fixed password/);
    const keyring = new SecretStore(path.join(dir, 'b.json'), { ...fake, getSelectedStorageBackend: () => 'gnome_libsecret' }, 'linux');
    expect(await keyring.set(OPENAI, 'sk')).toMatchObject({ secure: true, name: 'the desktop keyring (libsecret)' });
  });
});

describe('desktop window policy', () => {
  it('honours ELECTRON_RENDERER_URL in development only, and only for a dev server on this machine', () => {
    const env = { ELECTRON_RENDERER_URL: 'http://localhost:5173' };
    expect(devRendererUrl(false, env)).toBe('http://localhost:5173');
    expect(devRendererUrl(true, env)).toBeUndefined();
    expect(devRendererUrl(false, { ELECTRON_RENDERER_URL: 'https://evil.example/' })).toBeUndefined();
    expect(devRendererUrl(false, { ELECTRON_RENDERER_URL: 'http://localhost.evil.example:80/' })).toBeUndefined();
  });

  it('opens only https links to allowlisted sites outside the app', () => {
    expect(mayOpenExternal('https://ollama.com/library/qwen3')).toBe(true);
    expect(mayOpenExternal('http://ollama.com/')).toBe(false);
    expect(mayOpenExternal('https://evil.example/')).toBe(false);
    expect(mayOpenExternal('https://github.com.evil.example/')).toBe(false);
    expect(mayOpenExternal('file:///etc/passwd')).toBe(false);
    expect(mayOpenExternal('https://user:pw@github.com/')).toBe(false);
    expect(keyQuestion('http://10.0.0.5/v1').message).toContain('http://10.0.0.5/v1');
  });
});
