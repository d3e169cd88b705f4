// The house rules a linter does not check: no source file over 450 lines (new
// code goes in new modules); no import circle, type-only imports included (the
// lint's import-x/no-cycle skips those); no comment sending the reader to a
// development note instead of saying what it means.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCES = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx', '*.mts', '*.mjs', '*.js'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => f && !f.startsWith('node_modules/'));
const text = new Map(SOURCES.map((f) => [f, readFileSync(path.join(ROOT, f), 'utf8')]));

/** The repository file a relative import names, as TypeScript's bundler resolution finds it. */
function resolveImport(from: string, spec: string, known: ReadonlySet<string>): string | undefined {
  const base = path.posix.join(path.posix.dirname(from), spec);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  const tries = [base, ...['.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx'].map((x) => stem + x)];
  return tries.find((t) => known.has(t));
}

/** Every import circle among `files` (their import and export-from statements, type-only ones too), one line each. */
export function importCircles(files: ReadonlyMap<string, string>): string[] {
  const known = new Set(files.keys());
  const edges = new Map<string, string[]>();
  for (const [f, src] of files) {
    const deps = ts
      .preProcessFile(src, true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolveImport(f, s, known))
      .filter((d): d is string => d !== undefined && d !== f);
    edges.set(f, [...new Set(deps)]);
  }
  // Tarjan's strongly connected components: each one with more than one file is a circle.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) circles.push(component.sort().join(' ↔ '));
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return circles;
}

describe('the house', () => {
  it('has no source file over 450 lines (tests aside)', () => {
    const long = SOURCES.filter((f) => !/\.test\.tsx?$/.test(f))
      .map((f) => [f, text.get(f)!.split('\n').length - 1] as const)
      .filter(([, n]) => n > 450)
      .map(([f, n]) => `${f}: ${n} lines`);
    expect(long).toEqual([]);
  });

  it('has no import circle, type-only imports included', () => {
    expect(importCircles(text)).toEqual([]);
  });

  it('finds a type-only circle and a circle through index files', () => {
    const files = new Map([
      ['a/belief.ts', "import type { Place } from './location';\nexport type Belief = { at: Place };"],
      ['a/location.ts', "import type { World } from '../w/index';\nexport type Place = string;"],
      ['w/index.ts', "export type { Belief as World } from '../a/belief.js';"],
      ['b/x.ts', "import { y } from './y';"],
      ['b/y.ts', 'export const y = 1;'],
    ]);
    expect(importCircles(files)).toEqual(['a/belief.ts ↔ a/location.ts ↔ w/index.ts']);
  });

  it('has no comment that sends the reader to a development note', () => {
    const pointers = /\b(see|per|in) (the )?(stop|step|note|notes)[ -]?\d+|stop-\d+ note|\bNOTES?\.md\b/i;
    const found = SOURCES.flatMap((f) =>
      text
        .get(f)!
        .split('\n')
        .flatMap((line, i) => (/(\/\/|\/\*|^\s*\*)/.test(line) && pointers.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
