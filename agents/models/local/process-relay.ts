// Model processes for worker threads whose host injected a launcher: Electron's
// utilityProcess exists only on the main thread, while runs and evaluations run
// on worker threads. The thread that has the launcher serves a MessagePort
// (serveModelProcesses); the worker starts its processes through that port
// (relayLauncher). A worker that itself serves a port passes requests on, so
// nested threads (the app's evaluation workers) reach the main thread too.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { z } from 'zod';
import {
  modelProcessLauncher,
  modelProcessLauncherInjected,
  setModelProcessLauncher,
  type ModelProcess,
  type ModelProcessLauncher,
} from './process-launcher';
import type { ToProcess } from './protocol';

type ToServer = { t: 'start'; id: number; script: string } | { t: 'send'; id: number; m: ToProcess } | { t: 'kill'; id: number };

const FromServerSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('pid'), id: z.number(), pid: z.number().int().optional() }),
  z.object({ t: z.literal('message'), id: z.number(), m: z.unknown() }),
  z.object({ t: z.literal('stderr'), id: z.number(), text: z.string() }),
  z.object({ t: z.literal('exit'), id: z.number(), why: z.string() }),
]);
type FromServer = z.infer<typeof FromServerSchema>;

/** Starts processes with `launcher` for whoever holds the port's other end; they all end when that end closes. */
export function serveModelProcesses(port: MessagePort, launcher: ModelProcessLauncher = modelProcessLauncher()): void {
  const procs = new Map<number, ModelProcess>();
  const post = (m: FromServer): void => port.postMessage(m);
  port.on('message', (m: ToServer) => {
    if (m.t === 'start') {
      let proc: ModelProcess;
      try {
        proc = launcher(m.script);
      } catch (e) {
        post({ t: 'exit', id: m.id, why: `it could not start: ${e instanceof Error ? e.message : String(e)}` });
        return;
      }
      procs.set(m.id, proc);
      // A process's id may be known only once it has spawned (utilityProcess): sent with its first message too.
      let pidSent = proc.pid !== undefined;
      proc.onMessage((raw) => {
        if (!pidSent && proc.pid !== undefined) {
          pidSent = true;
          post({ t: 'pid', id: m.id, pid: proc.pid });
        }
        post({ t: 'message', id: m.id, m: raw });
      });
      proc.onStderr((text) => post({ t: 'stderr', id: m.id, text }));
      proc.onExit((why) => {
        procs.delete(m.id);
        post({ t: 'exit', id: m.id, why });
      });
      post({ t: 'pid', id: m.id, ...(proc.pid !== undefined ? { pid: proc.pid } : {}) });
    } else if (m.t === 'send') procs.get(m.id)?.send(m.m);
    else if (m.t === 'kill') procs.get(m.id)?.kill();
  });
  port.on('close', () => {
    for (const p of procs.values()) p.kill();
    procs.clear();
  });
  // The port never keeps its thread alive: a busy model process is held by the relay's side.
  port.unref();
}

/** A launcher that starts processes on the thread serving `port`. */
export function relayLauncher(port: MessagePort): ModelProcessLauncher {
  let nextId = 1;
  const live = new Map<number, (m: FromServer) => void>();
  let busy = 0;
  port.on('message', (raw: unknown) => {
    const m = FromServerSchema.safeParse(raw);
    if (m.success) live.get(m.data.id)?.(m.data);
  });
  port.unref();
  return (script) => {
    const id = nextId++;
    let pid: number | undefined;
    let ended = false;
    let held = false;
    const onMessage: Array<(raw: unknown) => void> = [];
    const onExit: Array<(why: string) => void> = [];
    const onStderr: Array<(text: string) => void> = [];
    const hold = (on: boolean): void => {
      if (on === held) return;
      held = on;
      busy += on ? 1 : -1;
      if (busy > 0) port.ref();
      else port.unref();
    };
    live.set(id, (m) => {
      if (m.t === 'pid') pid = m.pid;
      else if (m.t === 'message') for (const l of onMessage) l(m.m);
      else if (m.t === 'stderr') for (const l of onStderr) l(m.text);
      else {
        ended = true;
        pid = undefined;
        live.delete(id);
        hold(false);
        for (const l of onExit.splice(0)) l(m.why);
      }
    });
    const post = (m: ToServer): void => {
      if (!ended) port.postMessage(m);
    };
    post({ t: 'start', id, script });
    return {
      get pid() {
        return pid;
      },
      send: (m) => post({ t: 'send', id, m }),
      onMessage: (l) => void onMessage.push(l),
      onExit: (l) => void onExit.push(l),
      onStderr: (l) => void onStderr.push(l),
      kill: () => post({ t: 'kill', id }),
      hold,
    };
  };
}

/**
 * For a thread about to start a worker: a port to hand it (in workerData, with
 * transferList) when this thread's model processes come from an injected launcher;
 * undefined when the worker can fork its own.
 */
export function modelProcessPortForWorker(): MessagePort | undefined {
  if (!modelProcessLauncherInjected()) return undefined;
  const { port1, port2 } = new MessageChannel();
  serveModelProcesses(port1);
  return port2;
}

/** In a worker: start model processes through the port its parent handed it, if any. */
export function adoptModelProcessPort(port: MessagePort | undefined): void {
  if (port) setModelProcessLauncher(relayLauncher(port));
}
