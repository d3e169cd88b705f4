// Every command docs/_incoming/urdfuse.md shows is one the command line takes:
// the command exists and its entry takes each option shown, each beside what it needs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from './args';
import { doorOf, refusal } from './command-flags';

const PAGE = join(import.meta.dirname, '../../docs/_incoming/urdfuse.md');

/** A shell line's words: single-quoted parts kept whole, quotes removed. */
const words = (line: string): string[] => [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);

/** The commands in the page's sh blocks (each on one line), as the words after the program's name. */
function commandsOf(markdown: string): Array<{ line: string; args: string[] }> {
  const out: Array<{ line: string; args: string[] }> = [];
  let inSh = false;
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('```')) inSh = !inSh && line === '```sh';
    else if (inSh && line.startsWith('node bin/skillbridge.js ')) out.push({ line, args: words(line).slice(2) });
  }
  return out;
}

describe('docs/_incoming/urdfuse.md', () => {
  it('every command it shows is taken, with every option shown', () => {
    const shown = commandsOf(readFileSync(PAGE, 'utf8'));
    expect(shown.length).toBe(6);
    const wrong: string[] = [];
    for (const { line, args } of shown) {
      try {
        const p = parse(args);
        if (!doorOf(p.command, p.positionals, p.flags)) wrong.push(`${line}: no command "${p.command}"`);
        const r = refusal(p.command, p.positionals, p.flags);
        if (r) wrong.push(`${line}: ${r.message}`);
        if (!args.includes('--urdf')) wrong.push(`${line}: shows no --urdf`);
      } catch (e) {
        wrong.push(`${line}: ${(e as Error).message}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
