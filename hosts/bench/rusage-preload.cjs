// Preloaded (`node -r`) into the processes the benchmarks measure: writes the
// process's peak resident memory (kB) and CPU time (user + system, all threads,
// ms) to file descriptor 3 as it exits. Node reports no resource usage of child
// processes, so the child reports its own.
'use strict';
process.on('exit', () => {
  try {
    const u = process.resourceUsage();
    require('node:fs').writeSync(3, JSON.stringify({ maxRSS: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }));
  } catch {
    // Not started by a benchmark (no fd 3): nothing to report.
  }
});
