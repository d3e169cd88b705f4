// The worked examples of docs/workflows.md for raider and ALRM, run as written through the
// CLI (in process), so they keep working: each ends in the world state it
// promises and writes a trace with the stages of its workflow.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

const dir = mkdtempSync(join(tmpdir(), 'skillbridge-examples-'));

async function example(name: string, args: string[]) {
  const trace = join(dir, `${name}.jsonl`);
  const r = await cli('run', ...args, '--trace', trace, '--json');
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  const body = JSON.parse(r.out) as { final: string; reason: string; facts: string[] };
  const records = readFileSync(trace, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; stage?: string; name?: string; parent?: string; by?: string });
  return { body, records };
}

describe('README examples', () => {
  it('raider: an ambiguous instruction, a question answered from --answers, the blue mug picked', async () => {
    const { body, records } = await example('mug', [
      '--scene',
      'kitchen',
      '--workflow',
      'raider',
      '--model',
      'scripted:examples/raider-mug.json',
      '--answers',
      'examples/raider-mug.answers.json',
      'Pick the mug.',
    ]);
    expect(body.reason).toBe('final');
    expect(JSON.parse(body.final.split('\n')[0]!)).toMatchObject({ final_response: 'ambiguity', category: 'IA' });
    expect(body.facts).toContain('holding(robot, mug_2)');
    expect(records.find((x) => x.type === 'answer')).toMatchObject({ stage: 'recovery', by: 'simulated' });
    expect(new Set(records.map((x) => x.stage))).toEqual(new Set([undefined, 'detect', 'recovery', 'recovery/check']));
  });

  it('raider: recovery without a person, one step refused by RAIDER, the apple picked from the opened fridge', async () => {
    const { body, records } = await example('fridge', [
      '--scene',
      'kitchen',
      '--workflow',
      'raider',
      '--model',
      'scripted:examples/raider-fridge.json',
      'Pick the apple from the fridge.',
    ]);
    expect(body.facts).toEqual(expect.arrayContaining(['open(fridge_1)', 'holding(robot, apple_1)']));
    expect(records.filter((x) => x.type === 'ask')).toEqual([]);
    expect(records.filter((x) => x.type === 'tool_call' && x.name === 'run_program')).toHaveLength(2);
  });

  it('alrm/tap: the planner hands three subtasks to the executor; lemon and peach in the trash', async () => {
    const { body, records } = await example('tap', [
      '--scene',
      'tabletop/fruits',
      '--workflow',
      'alrm/tap',
      '--model',
      'scripted:examples/alrm-tap-fruits.json',
      'Pick up the lemon and peach and place them in the trash.',
    ]);
    expect(body.facts).toEqual(expect.arrayContaining(['in(lemon_1, trash_1)', 'in(peach_1, trash_1)']));
    expect(records.filter((x) => x.type === 'tool_call' && x.stage === 'planner').map((x) => x.name)).toEqual([
      'executor',
      'executor',
      'executor',
    ]);
  });

  it('alrm/cap: a program reaching for require is stopped and rewritten; every API call nests under its program', async () => {
    const { body, records } = await example('cap', [
      '--scene',
      'tabletop/fruits',
      '--workflow',
      'alrm/cap',
      '--model',
      'scripted:examples/alrm-cap-fruits.json',
      'Throw the lemon away and put the peach at center-left.',
    ]);
    expect(body.facts).toContain('in(lemon_1, trash_1)');
    expect(body.facts).toContain('on(peach_1, table_1)');
    const programs = records.filter((x) => x.type === 'tool_result' && x.name === 'run_program') as Array<{ ok?: boolean }>;
    expect(programs.map((x) => x.ok)).toEqual([false, true, true]);
    const nested = records.filter((x) => x.type === 'tool_call' && x.parent);
    expect(nested.map((x) => x.name)).toEqual([
      'get_objects',
      'pick',
      'place',
      'move_to_home_pos',
      'get_pose',
      'pick',
      'place',
      'move_to_home_pos',
    ]);
    expect(nested.every((x) => x.stage === 'planner/executor')).toBe(true);
  });

  it('a bad --answers file is one line naming the problem, exit 2', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ when: 'mug' }]));
    const r = await cli(
      'run',
      '--scene',
      'kitchen',
      '--workflow',
      'raider',
      '--model',
      'scripted:examples/raider-mug.json',
      '--answers',
      bad,
      'x',
    );
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/--answers: .*bad\.json\[0\]/);
  });
});
