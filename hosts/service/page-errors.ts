// What an error tells a page: never a host path. A message that names a file or
// folder of the host (a results database, a trace, the server's working folder)
// has each absolute path cut to its last part; an error of our own (`internal`)
// reaches the page as one sentence with a number the host logged it under, and
// the host's log keeps the whole message.

/** An absolute POSIX path (`/srv/class/eval-results/g1/results.db`), a Windows one (`C:\x\y`), or a home-relative one (`~/x`). */
const HOST_PATH = /(^|[\s"'`(=[,;])((?:[A-Za-z]:[\\/]|~[\\/]|\/)(?:[^\s"'`()<>[\],;]*))/g;

/** The message with every host path replaced by `…/` and its last part (`…/results.db`); URLs (`http://h/p`) are kept. */
export function redactHostPaths(message: string): string {
  return message.replace(HOST_PATH, (_m, lead: string, p: string) => {
    const last = p
      .split(/[\\/]+/)
      .filter(Boolean)
      .at(-1);
    return `${lead}…/${last ?? ''}`;
  });
}

let incidents = 0;

/** A page's view of an error: `internal` becomes a sentence and a number; anything else keeps its words without host paths. */
export function pageError(code: string, message: string, log: (line: string) => void): { message: string; logged: number | undefined } {
  if (code !== 'internal') return { message: redactHostPaths(message), logged: undefined };
  const n = ++incidents;
  log(`api error #${n}: ${message}`);
  return { message: `the host failed to answer (error #${n} in its log)`, logged: n };
}
