// The command line run in process through main(), as a test drives it: what it
// wrote, its exit code, and how long it took. A start-up command (serve, mcp,
// robot-api, foxglove, worker) that gets as far as serving is stopped the way
// Ctrl-C stops it, once it writes the line that says it serves; a run that
// takes longer than its bound is reported (it goes on in the background).
import { main } from '../../../hosts/cli/main';

export interface CliRun {
  code: number | 'timeout';
  out: string;
  err: string;
  ms: number;
  /** It served (wrote its ready line) and was stopped. */
  served: boolean;
}

export async function runCli(argv: string[], o: { ready?: RegExp; timeoutMs: number }): Promise<CliRun> {
  let out = '';
  let err = '';
  let served = false;
  let running = true;
  const seen = (t: string) => {
    if (o.ready && !served && o.ready.test(t)) {
      served = true;
      // The command adds its Ctrl-C listener right after it writes the line (and one that ended meanwhile gets none).
      setTimeout(() => running && process.emit('SIGINT', 'SIGINT'), 50);
    }
  };
  const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  const t0 = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const code = await Promise.race([
    main(argv, {
      out: (t) => {
        out += `${t}\n`;
        seen(t);
      },
      err: (t) => {
        err += `${t}\n`;
        seen(t);
      },
    }),
    new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), o.timeoutMs))),
  ]);
  clearTimeout(timer);
  running = false;
  // A command that ended left its signal listeners behind (it ends its process in real use): removed, so a
  // later invocation's Ctrl-C does not reach them (a second one would end this process).
  if (code !== 'timeout')
    for (const sig of ['SIGINT', 'SIGTERM'] as const)
      for (const l of process.listeners(sig)) if (!before[sig].includes(l)) process.off(sig, l);
  return { code, out, err, ms: performance.now() - t0, served };
}
