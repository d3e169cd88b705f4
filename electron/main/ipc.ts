// The one IPC handler between the renderer and main: it checks who sent the
// message, validates the envelope and the request with the contract's zod
// schemas, and answers with a reply envelope (errors are data, not rejections,
// so their code and message reach the renderer intact). Electron is only a type
// here, so this runs under Vitest without the Electron binary.
import type { IpcMainInvokeEvent } from 'electron';
import { type AppMethods, AppApiError, describeZodError, dispatch, isMethodName, parseRequest } from '../../contract/api';
import { IPC, IpcCall, type IpcReply } from '../../contract/wire';

export interface IpcLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export function registerApi(
  ipc: IpcLike,
  api: AppMethods,
  trusted: (event: IpcMainInvokeEvent) => boolean,
  log: (line: string) => void,
): () => void {
  ipc.handle(IPC.call, async (event, payload): Promise<IpcReply> => {
    if (!trusted(event)) {
      log(`refused IPC from an untrusted sender: ${event.senderFrame?.url ?? '(no frame)'}`);
      return { ok: false, error: { code: 'invalid_request', message: 'untrusted sender' } };
    }
    try {
      const call = IpcCall.safeParse(payload);
      if (!call.success) throw new AppApiError('invalid_request', describeZodError(call.error));
      const { method } = call.data;
      if (!isMethodName(method)) throw new AppApiError('invalid_request', `unknown method "${method}"`);
      const value = await dispatch(api, method, parseRequest(method, call.data.request) as never);
      return { ok: true, value };
    } catch (e) {
      if (e instanceof AppApiError) return { ok: false, error: { code: e.code, message: e.message } };
      log(`api error: ${(e as Error).stack ?? String(e)}`);
      return { ok: false, error: { code: 'internal', message: (e as Error).message ?? String(e) } };
    }
  });
  return () => ipc.removeHandler(IPC.call);
}

/** Trusted: the app's own window, showing a page from the app's own origin. */
export function trustFrom(origins: readonly string[], isOurContents: (id: number) => boolean): (event: IpcMainInvokeEvent) => boolean {
  return (event) => {
    const url = event.senderFrame?.url;
    if (!url || !isOurContents(event.sender.id)) return false;
    try {
      // Not URL.origin: Node gives "null" for a custom scheme such as app://.
      const u = new URL(url);
      return origins.includes(`${u.protocol}//${u.host}`);
    } catch {
      return false;
    }
  };
}
