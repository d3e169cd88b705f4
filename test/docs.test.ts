// The guide as a reader meets it: the README links every page of docs/, every
// link between pages leads to a file and a heading that exist, and every
// `skillbridge` command a page shows in a `sh` block is one the command line
// takes (the command or its part exists, and it accepts each option shown), so
// a renamed option or command cannot leave a page teaching the old one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from '../hosts/cli/args';
import { doorOf } from '../hosts/cli/command-flags';
import { commandsOf } from './support/doc-commands';

const root = resolve(import.meta.dirname, '..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const text = (page: string) => readFileSync(join(root, page), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of text(page).split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const a = anchorOf(m[1]!);
    const n = seen.get(a) ?? 0;
    seen.set(a, n + 1);
    out.add(n ? `${a}-${n}` : a);
  }
  return out;
}

describe('the guide', () => {
  it('the README links every page of docs/', () => {
    const readme = text('README.md');
    const unlinked = pages.filter((p) => p.startsWith('docs/') && p !== 'docs/README.md' && !readme.includes(`](${p})`));
    expect(unlinked).toEqual([]);
  });

  it.each(pages)('%s: every relative link leads to a file and a heading that exist', (page) => {
    const broken: string[] = [];
    for (const m of text(page).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^(https?|mailto):/.test(target)) continue;
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const to = file ? relative(root, resolve(root, dirname(page), file)) : page;
      if (!existsSync(join(root, to))) broken.push(`${target}: no file ${to}`);
      else if (anchor !== undefined && to.endsWith('.md') && !anchors(to).has(anchor))
        broken.push(`${target}: no heading #${anchor} in ${to}`);
    }
    expect(broken).toEqual([]);
  });

  it.each(pages)('%s: every skillbridge command it shows is one the command line takes', (page) => {
    const wrong: string[] = [];
    for (const { line, args } of commandsOf(text(page))) {
      try {
        const p = parse(args);
        if (p.command !== 'help' && !doorOf(p.command, p.positionals, p.flags)) wrong.push(`${line}: no command "${p.command}"`);
      } catch (e) {
        wrong.push(`${line}: ${(e as Error).message}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('finds the commands a page shows, and would catch an option the command line does not take', () => {
    const md = [
      '```sh',
      'npx skillbridge call --scene tabletop/fruits pick \'{"object_name":"lemon"}\'   # a comment',
      'for w in a b; do npx skillbridge eval --suite alrm \\',
      '  --model scripted:x.json --no-such-option 2>/dev/null; done',
      'SKILLBRIDGE_QUEUE_SECRET=s node bin/skillbridge.js scenes | head',
      'npx skillbridge serve [--port 4317]',
      '```',
      '`npx skillbridge not-in-a-block`',
    ].join('\n');
    const found = commandsOf(md);
    expect(found.map((c) => c.args)).toEqual([
      ['call', '--scene', 'tabletop/fruits', 'pick', '{"object_name":"lemon"}'],
      ['eval', '--suite', 'alrm', '--model', 'scripted:x.json', '--no-such-option'],
      ['scenes'],
      ['serve', '--port', '4317'],
    ]);
    expect(() => parse(found[1]!.args)).toThrow(/unknown option --no-such-option/);
    expect(anchorOf('The robot HTTP API (skillbridge-robot/1)')).toBe('the-robot-http-api-skillbridge-robot1');
  });
});
