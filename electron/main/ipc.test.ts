import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IpcMainInvokeEvent } from 'electron';
import { describe, expect, it } from 'vitest';
import type { AppMethods } from '../../contract/api';
import { IPC } from '../../contract/wire';
import { Session } from '../../hosts/service/session';
import { type IpcLike, registerApi, trustFrom } from './ipc';
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
  const session = new Session({ paced: false });
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

  it('stores keys encrypted, answers only whether one exists, and clears them', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'sb-secrets-')), 'secrets.json');
    const store = new SecretStore(file, fake);
    expect(await store.has('openai')).toBe(false);
    await store.set('openai', 'sk-123');
    expect(await store.has('openai')).toBe(true);
    expect(await store.get('openai')).toBe('sk-123');
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(file, 'utf8')).not.toContain('sk-123');
    expect(await store.clear('openai')).toBe(true);
    expect(await store.has('openai')).toBe(false);
  });

  it('refuses to store a key in plain text when no keychain is available', async () => {
    const store = new SecretStore(path.join(mkdtempSync(path.join(tmpdir(), 'sb-secrets-')), 's.json'), {
      ...fake,
      isEncryptionAvailable: () => false,
    });
    await expect(store.set('openai', 'sk')).rejects.toThrow(/no keychain/);
  });
});
