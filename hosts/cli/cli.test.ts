// The command line end to end: in process through main() for most checks, and
// once through the real bin script in a child process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

function temp(name: string, text: string): string {
  const p = join(mkdtempSync(join(tmpdir(), 'skillbridge-cli-')), name);
  writeFileSync(p, text);
  return p;
}

describe('skillbridge CLI', () => {
  it('scenes --json lists ids and titles', async () => {
    const r = await cli('scenes', '--json');
    expect(r.code).toBe(0);
    const scenes = JSON.parse(r.out) as { id: string; title: string }[];
    expect(scenes.map((s) => s.id)).toEqual(expect.arrayContaining(['tabletop/fruits', 'tabletop/workshop', 'kitchen', 'farm']));
    for (const s of scenes) expect(s.title.length).toBeGreaterThan(3);
  });

  it('tools --json gives what a model receives: name, description, JSON-schema parameters', async () => {
    const r = await cli('tools', '--scene', 'tabletop/fruits', '--json');
    expect(r.code).toBe(0);
    const tools = JSON.parse(r.out) as { name: string; description: string; parameters: { type: string; properties: object } }[];
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['pick', 'place', 'get_objects']));
    for (const t of tools) {
      expect(t.description.length).toBeGreaterThan(10);
      expect(t.parameters.type).toBe('object');
    }
    const other = JSON.parse((await cli('tools', '--scene', 'tabletop/workshop', '--set', 'planner-executor', '--json')).out) as { name: string }[];
    expect(other.map((t) => t.name)).toContain('act');
  });

  it('call runs a script in one world and reports results and final facts', async () => {
    const script = temp('s.json', JSON.stringify([
      { tool: 'pick', args: { object_name: 'lemon_1' } },
      { tool: 'place', args: { target: 'bowl_1' } },
      { tool: 'pick', args: { object_name: 'no_such_thing' } },
    ]));
    const r = await cli('call', '--scene', 'tabletop/fruits', '--script', script, '--json');
    const body = JSON.parse(r.out) as { results: { tool: string; ok: boolean; result?: string; error?: string }[]; facts: string[] };
    expect(body.results.map((x) => x.ok)).toEqual([true, true, false]);
    expect(body.results[2]!.error).toMatch(/no_such_thing/);
    expect(body.facts).toContain('in(lemon_1, bowl_1)');
    expect(r.code).toBe(1);
  });

  it('the same seed and calls give the same facts (determinism through the CLI)', async () => {
    const args = ['call', '--scene', 'tabletop/fruits', '--seed', '7', '--json', 'pick', '{"object_name":"peach_1"}'];
    const a = JSON.parse((await cli(...args)).out) as unknown;
    const b = JSON.parse((await cli(...args)).out) as unknown;
    expect(a).toEqual(b);
  });

  it('bad input: one clear line on stderr, non-zero exit, no stack trace', async () => {
    const cases: [string[], RegExp][] = [
      [['tools', '--scene', 'kitchn'], /unknown scene "kitchn".*did you mean "kitchen"/i],
      [['call', '--scene', 'tabletop/fruits', 'pik', '{}'], /pik.*pick/],
      [['call', '--scene', 'tabletop/fruits', 'pick', '{"object_name": 3}'], /object_name/],
      [['call', '--scene', 'tabletop/fruits', 'pick', '{not json'], /JSON/],
      [['call', '--scene', 'tabletop/fruits', '--script', temp('bad.json', '[{"tol": "pick"}]')], /tool/],
      [['tools', '--scene', temp('scene.json', '{"id": "x"}')], /title|description|robot/],
      [['frobnicate'], /unknown command "frobnicate"/],
      [['tools', '--scene', 'tabletop/fruits', '--bogus'], /bogus/],
    ];
    for (const [argv, msg] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).not.toBe(0);
      expect(r.err, argv.join(' ')).toMatch(msg);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
  });

  it('runs as an installed bin script', () => {
    const r = spawnSync(process.execPath, [join(import.meta.dirname, '../../bin/skillbridge.js'), 'scenes', '--json'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }[]).length).toBeGreaterThanOrEqual(7);
    const bad = spawnSync(process.execPath, [join(import.meta.dirname, '../../bin/skillbridge.js'), 'tools', '--scene', 'nowhere'], { encoding: 'utf8', timeout: 60_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});
