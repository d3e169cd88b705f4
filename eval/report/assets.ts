// The charting library inlined into every report, so the file opens offline:
// Observable Plot's prebuilt UMD bundle and the d3 build it expects as a global,
// read from the installed packages (no bundling step, works from an asar archive).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface ChartLibrary {
  /** Scripts to inline, in load order. */
  scripts: Array<{ name: string; code: string }>;
}

let cached: ChartLibrary | undefined;

export function chartLibrary(): ChartLibrary {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  // Both packages export their UMD builds under the "umd" condition only, so
  // resolve the main entry and take the sibling dist/ file.
  const plotMain = require.resolve('@observablehq/plot');
  const plot = path.join(path.dirname(plotMain), '..', 'dist', 'plot.umd.min.js');
  const d3Main = createRequire(plotMain).resolve('d3');
  const d3 = path.join(path.dirname(d3Main), 'd3.min.js');
  const read = (file: string) => {
    const code = readFileSync(file, 'utf8');
    // Inline <script> content must not close its own tag.
    if (/<\/script/i.test(code)) throw new Error(`${file} contains "</script" and cannot be inlined`);
    return code;
  };
  cached = {
    scripts: [
      { name: 'd3', code: read(d3) },
      { name: '@observablehq/plot', code: read(plot) },
    ],
  };
  return cached;
}
