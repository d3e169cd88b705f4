// How the local provider starts its model process (llama-process.mjs). In plain
// Node (the CLI, the web server) that is child_process.fork. A packaged Electron
// app cannot fork Node (its runAsNode fuse is off), so its main process injects a
// launcher built on utilityProcess.fork; worker threads reach that launcher
// through a relay (process-relay.ts). This layer never imports electron.
import { fork } from 'node:child_process';
import { copyFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ToProcess } from './protocol';

/** A running model process, whatever started it. Messages follow protocol.ts in both directions. */
export interface ModelProcess {
  /** The OS process id, once known (undefined before it spawned and after it ended). */
  readonly pid: number | undefined;
  send(msg: ToProcess): void;
  onMessage(listener: (raw: unknown) => void): void;
  /** Called once when the process ends, with a short reason ("exit 1", "SIGKILL"). */
  onExit(listener: (why: string) => void): void;
  /** The process's error output, in chunks (kept to name the cause when it dies). */
  onStderr(listener: (text: string) => void): void;
  /** Ends the process at once (the graceful way is a `dispose` message). */
  kill(): void;
  /**
   * Whether the process keeps this host alive: held while a request waits on it,
   * let go when idle, so an idle model never keeps a finished CLI command running.
   */
  hold(busy: boolean): void;
}

/** Starts a model process running `script` (the launcher of a bundled host may run its own built copy instead). */
export type ModelProcessLauncher = (script: string) => ModelProcess;

/** The model process script beside this module (the CLI bundle emits it beside its chunks). */
export function modelProcessScript(): string {
  return fileURLToPath(new URL('./llama-process.mjs', import.meta.url));
}

/**
 * Puts the model process script beside a bundle written into `dir` (a bundle's
 * copy of this module looks for it beside itself). Written aside, then renamed:
 * another process may be starting from the same checkout.
 */
export function copyModelProcessScript(dir: string): void {
  const tmp = path.join(dir, `llama-process.${process.pid}.${Date.now().toString(36)}.tmp`);
  copyFileSync(modelProcessScript(), tmp);
  renameSync(tmp, path.join(dir, 'llama-process.mjs'));
}

/** child_process.fork: plain Node. */
export const forkLauncher: ModelProcessLauncher = (script) => {
  const proc = fork(script, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [] });
  proc.unref();
  proc.channel?.unref();
  (proc.stderr as Partial<Pick<Socket, 'unref'>> | null)?.unref?.();
  let ended = false;
  proc.once('exit', () => {
    ended = true;
  });
  return {
    get pid() {
      return ended ? undefined : proc.pid;
    },
    send(msg) {
      if (proc.connected) proc.send(msg);
    },
    onMessage: (l) => void proc.on('message', l),
    onExit: (l) => void proc.once('exit', (code, signal) => l(signal ?? `exit ${code}`)),
    onStderr: (l) => void proc.stderr?.on('data', (d: Buffer) => l(d.toString())),
    kill: () => void proc.kill('SIGKILL'),
    hold(busy) {
      if (busy) proc.channel?.ref();
      else proc.channel?.unref();
    },
  };
};

let current: ModelProcessLauncher = forkLauncher;

/** Sets how model processes start in this thread (a host's seam); no argument restores child_process.fork. */
export function setModelProcessLauncher(launcher?: ModelProcessLauncher): void {
  current = launcher ?? forkLauncher;
}

export function modelProcessLauncher(): ModelProcessLauncher {
  return current;
}

/** True when a host injected a launcher (worker threads must then relay to it rather than fork). */
export function modelProcessLauncherInjected(): boolean {
  return current !== forkLauncher;
}
