// Preloaded (`node -r`) into the processes the benchmarks measure: writes the
// process's peak resident memory (kB), CPU time (user + system, all threads,
// ms) and minor page faults (memory touched for the first time) to file descriptor 3 as it exits. Node reports no resource usage of child
// processes, so the child reports its own.
'use strict';
process.on('exit', () => {
  try {
    const u = process.resourceUsage();
    const report = { maxRSS: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, minorFaults: u.minorPageFault };
    // Under SKILLBRIDGE_PHASES=1 the command's marks (base/phase.ts), in ms since the process began.
    if (process.env.SKILLBRIDGE_PHASES === '1') {
      const marks = { 'node-ready': performance.nodeTiming.bootstrapComplete };
      for (const m of performance.getEntriesByType('mark')) marks[m.name] ??= m.startTime;
      marks.exit = performance.now();
      report.marks = marks;
    }
    require('node:fs').writeSync(3, JSON.stringify(report));
  } catch {
    // Not started by a benchmark (no fd 3): nothing to report.
  }
});
