// The sandboxed preload: exposes one typed `window.api` (AppApi) and nothing
// else. Only the contract's method names pass (the allowlist), over a single
// invoke channel; pose frames and events arrive on two receive-only channels.
// Replies are validated against the contract before the page sees them.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  type AppApi,
  AppApiError,
  type EventListener,
  type Invoke,
  METHODS,
  type PoseListener,
  describeZodError,
  isMethodName,
  makeAppApi,
} from '../../contract/api';
import { AppEvent } from '../../contract/schemas';
import { IPC, IpcReply } from '../../contract/wire';

const invoke: Invoke = async (method, request) => {
  if (!isMethodName(method)) throw new AppApiError('invalid_request', `unknown method "${String(method)}"`);
  const reply = IpcReply.safeParse(await ipcRenderer.invoke(IPC.call, { method, request: request ?? {} }));
  if (!reply.success) throw new AppApiError('transport', `malformed reply from the host: ${describeZodError(reply.error)}`);
  if (!reply.data.ok) throw new AppApiError(reply.data.error.code, reply.data.error.message);
  const value = METHODS[method].response.safeParse(reply.data.value);
  if (!value.success) throw new AppApiError('transport', `${method}: unexpected reply (${describeZodError(value.error)})`);
  return value.data as never;
};

function onPoses(listener: PoseListener): () => void {
  const handler = (_e: IpcRendererEvent, frame: unknown): void => {
    if (frame instanceof Float32Array) listener(frame);
  };
  ipcRenderer.on(IPC.poses, handler);
  return () => ipcRenderer.removeListener(IPC.poses, handler);
}

function onEvent(listener: EventListener): () => void {
  const handler = (_e: IpcRendererEvent, event: unknown): void => {
    const e = AppEvent.safeParse(event);
    if (e.success) listener(e.data);
  };
  ipcRenderer.on(IPC.event, handler);
  return () => ipcRenderer.removeListener(IPC.event, handler);
}

const api: AppApi = makeAppApi(invoke, onPoses, onEvent);
contextBridge.exposeInMainWorld('api', api);
