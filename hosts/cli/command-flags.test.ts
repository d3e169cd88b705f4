// The help and the table of options agree: every option a command's usage
// lines show is in its entry, and every option in its entry is on them.
import { describe, expect, it } from 'vitest';
import { HELP } from './args';
import { DOORS, GLOBAL_FLAGS, OPTIONS, doorOf } from './command-flags';

/** The entry a usage line names ("skillbridge models pull ID …" → "models pull"). */
function entryOf(command: string, rest: string): string {
  const first = rest.trim().split(/\s+/)[0] ?? '';
  switch (command) {
    case 'bench':
      return rest.includes('--scale') ? 'bench eval --scale' : `bench ${first}`;
    case 'models':
      return first === '[list]' ? 'models list' : `models ${first}`;
    case 'robots':
      return /^\s*check rosbridge\b/.test(rest) ? 'robots check rosbridge' : `robots ${first}`;
    case 'report':
      return rest.includes('--leaderboard') ? 'report --leaderboard' : 'report';
    case 'red-team':
      return first === '--dry-run' ? 'red-team --dry-run' : 'red-team';
    default:
      return command;
  }
}

/** Options per entry as the help's usage lines show them (a usage line and the lines that continue it). */
function helpOptions(help: string): Map<string, Set<string>> {
  const shown = new Map<string, Set<string>>();
  let entry: string | undefined;
  for (const line of help.split('\n')) {
    const usage = /^ {2}skillbridge (\S+)(.*)$/.exec(line);
    if (usage) entry = entryOf(usage[1]!, usage[2]!);
    // A usage line goes on in lines indented past the descriptions' six spaces.
    else if (!(entry && /^ {7,}\S/.test(line))) entry = undefined;
    if (!entry) continue;
    const set = shown.get(entry) ?? new Set<string>();
    for (const m of line.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)) set.add(m[1]!);
    shown.set(entry, set);
  }
  return shown;
}

describe('the help and the table of options', () => {
  const shown = helpOptions(HELP);

  it('name the same commands and parts', () => {
    const listed = Object.entries(DOORS)
      .filter(([, d]) => !d.hidden)
      .map(([k]) => k);
    expect([...shown.keys()].sort()).toEqual(listed.sort());
  });

  it.each(Object.entries(DOORS).filter(([, d]) => !d.hidden))('%s: the usage lines show exactly the options it takes', (name, d) => {
    expect([...(shown.get(name) ?? [])].sort()).toEqual([...d.flags].sort());
  });

  it('every option of the vocabulary is taken by some command (none is parsed and then applied by none)', () => {
    const taken = new Set<string>([...GLOBAL_FLAGS, ...Object.values(DOORS).flatMap((d) => d.flags)]);
    expect(Object.keys(OPTIONS).filter((f) => !taken.has(f))).toEqual([]);
  });

  it('the needs, clashes and reasons of an entry name options it takes', () => {
    for (const d of Object.values(DOORS)) {
      for (const [f, n] of Object.entries(d.needs ?? {})) {
        expect(d.flags, `${d.name} --${f}`).toContain(f);
        expect(d.flags, `${d.name} --${n!.flag}`).toContain(n!.flag);
      }
      for (const c of d.conflicts ?? []) expect(d.flags).toEqual(expect.arrayContaining([c.a, c.b]));
      // A reason to refuse is for an option the entry does not take.
      for (const f of Object.keys(d.refuse ?? {})) expect(d.flags).not.toContain(f);
    }
  });

  it('finds the entry of an invocation as the command does', () => {
    expect(doorOf('bench', ['eval'], { scale: true })?.door.name).toBe('bench eval --scale');
    expect(doorOf('bench', ['eval'], {})?.door.name).toBe('bench eval');
    expect(doorOf('bench', ['nope'], {})).toBeUndefined();
    expect(doorOf('models', [], {})?.door.name).toBe('models list');
    expect(doorOf('models', ['add', 'f'], {})).toMatchObject({ door: { name: 'models add' }, args: ['f'] });
    expect(doorOf('report', [], { leaderboard: 'd' })?.door.name).toBe('report --leaderboard');
    expect(doorOf('robots', ['check', 'rosbridge'], { robot: 'ws://h:1' })).toMatchObject({
      door: { name: 'robots check rosbridge' },
      args: [],
    });
    expect(doorOf('robots', ['check', 'arm.urdf'], {})).toMatchObject({ door: { name: 'robots check' }, args: ['arm.urdf'] });
    expect(doorOf('bench sim', [], {})).toBeUndefined();
    expect(doorOf('toString', [], {})).toBeUndefined();
  });
});
