// Preloaded (`node -r`) into the processes the CLI benchmark measures: writes the
// process's peak resident memory (kB) to file descriptor 3 as it exits. Node
// reports no resource usage of child processes, so the child reports its own.
'use strict';
process.on('exit', () => {
  try {
    require('node:fs').writeSync(3, String(process.resourceUsage().maxRSS));
  } catch {
    // Not started by the benchmark (no fd 3): nothing to report.
  }
});
