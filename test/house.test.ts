// The house rules a linter does not check: no source file over 450 lines (new
// code goes in new modules); no import circle, type-only imports included (the
// lint's import-x/no-cycle skips those); no comment or test name that points at
// the project's own development history (an issue or pull request number, a
// stop, a phase, a numbered class of an issue) instead of saying what it means.
// Public references stay: the papers and their sections, URLs, and another
// project's issues written with its name (`ros-mcp-server #283`, `owner/repo#12`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCES = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx', '*.mts', '*.mjs', '*.js', '*.cjs'],
  {
    cwd: ROOT,
    encoding: 'utf8',
  },
)
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

/** Another project's issue or pull request, named with the project: `ros-mcp-server #283, #132`, `dimos#12`, `quickjs-emscripten PR #7`. */
const PUBLIC_REFERENCE =
  /(?:\b[A-Za-z]\w*(?:[-/.]\w+)+ (?:(?:PR|pull request|issue|discussion) )?#\d+|\b[A-Za-z][\w.-]*#\d+)(?:(?:, | and | or )#\d+)*/gi;
const URL = /\bhttps?:\/\/\S+/g;
/** What sends a reader to the project's development history rather than to the code, the papers or a public reference. */
const DEVELOPMENT_POINTERS = [
  /\bissues?[ -]?#?\d+/i,
  /(?:^|[^\w&])#\d{1,4}\b/, // a bare number: another project's is named with the project
  /\bstops?[ -]\d+(?![\d.]| ?(?:s|ms|seconds?|min|minutes?|cm|mm|m|%)(?!\w))/i, // a stop, not a time or distance to stop at
  /\blast stop\b/i,
  /\bphase[ -]?\d+/i,
  /\b(?:class|classes|item) \d+\b/i, // a numbered entry of an issue's list
  /\b(?:see|per|in) (?:the )?(?:stop|step|note|notes)[ -]?\d+|\bNOTES?\.md\b/i,
];

/** Whether a comment line or a test name points at development history. */
export function pointsAtHistory(text: string): boolean {
  const rest = text.replace(URL, ' ').replace(PUBLIC_REFERENCE, ' ');
  return DEVELOPMENT_POINTERS.some((p) => p.test(rest));
}

const TEST_FUNCTIONS = new Set(['it', 'test', 'describe', 'suite', 'bench']);

/** Every comment line and every test or suite name of a source file, with its line number. */
export function commentsAndTestNames(file: string, src: string): { line: number; text: string }[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : /\.[cm]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, src, ts.ScriptTarget.Latest, false, kind);
  const found: { pos: number; text: string }[] = [];
  const seen = new Set<number>();
  const jsxText: [number, number][] = [];
  // Every comment is trivia between tokens, and every such gap starts at a node's
  // start or end, or just inside an opening brace (an empty block, `{/* … */}` in JSX).
  const comments = (pos: number) => {
    for (const r of [...(ts.getLeadingCommentRanges(src, pos) ?? []), ...(ts.getTrailingCommentRanges(src, pos) ?? [])]) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      found.push({ pos: r.pos, text: src.slice(r.pos, r.end) });
    }
  };
  const testFunction = (callee: ts.Expression): boolean => {
    let e = callee;
    while (ts.isCallExpression(e) || ts.isPropertyAccessExpression(e)) e = e.expression; // it.each(…)(…), describe.skip(…)
    return ts.isIdentifier(e) && TEST_FUNCTIONS.has(e.text);
  };
  const opensWithBrace = (n: ts.Node) =>
    ts.isBlock(n) || ts.isModuleBlock(n) || ts.isObjectLiteralExpression(n) || ts.isArrayLiteralExpression(n) || ts.isJsxExpression(n);
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      jsxText.push([node.pos, node.end]);
      return;
    }
    comments(node.pos);
    comments(node.end);
    if (opensWithBrace(node)) comments(node.getStart(sf) + 1);
    if (ts.isCallExpression(node) && testFunction(node.expression)) {
      const name = node.arguments[0];
      if (name && (ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name) || ts.isTemplateExpression(name))) {
        found.push({ pos: name.getStart(sf), text: name.getText(sf) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found
    .filter((c) => !jsxText.some(([a, b]) => c.pos >= a && c.pos < b))
    .sort((a, b) => a.pos - b.pos)
    .flatMap((c) => {
      const first = sf.getLineAndCharacterOfPosition(c.pos).line + 1;
      return c.text.split('\n').map((text, i) => ({ line: first + i, text }));
    });
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

  it('has no comment or test name that points at development history', () => {
    const found = SOURCES.flatMap((f) =>
      commentsAndTestNames(f, text.get(f)!)
        .filter((c) => pointsAtHistory(c.text))
        .map((c) => `${f}:${c.line}: ${c.text.trim()}`),
    );
    expect(found).toEqual([]);
    // Every source file is scanned: about 10 s alone, several times that on a busy machine.
  }, 180_000);

  it('tells a pointer at development history from a public reference', () => {
    for (const dev of [
      '// Issue 15: web mode cannot be broken',
      'no console errors through the issue-15 flows',
      '// the fix for #23',
      '// see the stop-17 note',
      '// as in stop 17',
      '// (phase 3 note)',
      '// kept from the last stop',
      '// nothing unperceived is named (issue 10, class 5)',
      '// the one safety chain (item 7)',
    ])
      expect(pointsAtHistory(dev), dev).toBe(true);
    for (const pub of [
      '// paper 001 §3, Section 4.2 of paper 002',
      '// RAIDER names the issue: ambiguity; an issue the robot detects',
      '// some clients drop images (ros-mcp-server #208, #132)',
      '// dimos and ros-mcp-server#283 found NaN velocities',
      '// quickjs-emscripten PR #219',
      '// https://github.com/dimensionalOS/dimos/issues/412',
      '// stop 20 s in, well short of it',
      "expect(c).toBe('#333333')",
    ])
      expect(pointsAtHistory(pub), pub).toBe(false);
  });

  it('reads comments and test names, not code or other strings', () => {
    const src = [
      "const s = '// issue 1 in a string';",
      '// a comment',
      "it.each([1])('name %s', () => {}); /* block",
      'end */ describe.skip(`suite`, () => {});',
      'const r = /#1/; <div>{/* in JSX */}// text, not a comment</div>;',
      'function f() { /* in an empty body */ }',
    ].join('\n');
    expect(commentsAndTestNames('x.tsx', src).map((c) => `${c.line}: ${c.text}`)).toEqual([
      '2: // a comment',
      "3: 'name %s'",
      '3: /* block',
      '4: end */',
      '4: `suite`',
      '5: /* in JSX */',
      '6: /* in an empty body */',
    ]);
  });
});
