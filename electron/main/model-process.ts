// Local models' processes in the desktop app: the packaged app's runAsNode fuse is
// off, so child_process.fork of the Electron binary would start another app, not
// Node. A utility process runs Node under Electron instead, speaking the same
// messages (llama-process.mjs talks to process.parentPort there).
import path from 'node:path';
import { utilityProcess } from 'electron';
import type { ModelProcessLauncher, ToProcess } from '../../hosts/service/model-processes';
import { MODEL_PROCESS_FILE } from './model-process-file';

/** A launcher running `mainDir`/llama-process.js in utility processes (the path the sources give is not in the built app). */
export function utilityProcessLauncher(mainDir: string): ModelProcessLauncher {
  const script = path.join(mainDir, MODEL_PROCESS_FILE);
  return () => {
    const child = utilityProcess.fork(script, [], { stdio: ['ignore', 'ignore', 'pipe'], serviceName: 'Skillbridge local model' });
    let spawned = false;
    let ended = false;
    // Sent before the process spawned: kept until it has.
    const early: ToProcess[] = [];
    child.once('spawn', () => {
      spawned = true;
      for (const m of early.splice(0)) child.postMessage(m);
    });
    child.once('exit', () => {
      ended = true;
    });
    return {
      get pid() {
        return ended ? undefined : child.pid;
      },
      send(m) {
        if (ended) return;
        if (spawned) child.postMessage(m);
        else early.push(m);
      },
      onMessage: (l) => void child.on('message', l),
      onExit: (l) => void child.once('exit', (code) => l(`exit ${code}`)),
      onStderr: (l) => void child.stderr?.on('data', (d: Buffer) => l(d.toString())),
      kill: () => void child.kill(),
      // The app's lifetime is its windows', not its children's: nothing to hold.
      hold: () => undefined,
    };
  };
}
