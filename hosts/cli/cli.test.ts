// The command line end to end: in process through main() for most checks, and
// once through the real bin script in a child process.
import { spawnSync } from 'node:child_process';
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
    const other = JSON.parse((await cli('tools', '--scene', 'tabletop/workshop', '--set', 'dfki', '--json')).out) as {
      name: string;
    }[];
    expect(other.map((t) => t.name)).toContain('act');
  });

  it('call runs a script in one world and reports results and final facts', async () => {
    const script = temp(
      's.json',
      JSON.stringify([
        { tool: 'pick', args: { object_name: 'lemon_1' } },
        { tool: 'place', args: { target: 'bowl_1' } },
        { tool: 'pick', args: { object_name: 'no_such_thing' } },
      ]),
    );
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

  it('--json: usage and scene errors are a JSON object on stdout with the same exit code (call, tools, scenes, audit)', async () => {
    const bad = temp(
      'cycle.json',
      JSON.stringify({
        id: 'x',
        title: 't',
        description: 'd',
        robot: { config: 'tabletop_arm', pose: { position: [0, 0.75, 0] } },
        objects: [
          { id: 'a_1', type: 'bowl', on: 'b_1' },
          { id: 'b_1', type: 'bowl', in: 'a_1' },
        ],
        toolSet: 'alrm',
      }),
    );
    const cases: [string[], string, RegExp][] = [
      [['call', '--scene', 'tabletop/fruits', 'pik', '{}', '--json'], 'usage', /pik/],
      [['tools', '--scene', bad, '--json'], 'scene', /objects\[\d\]\.(on|in): .* would rest on itself/],
      [['scenes', '--json', '--bogus'], 'usage', /bogus/],
      [['audit', '--calls', '0', '--json'], 'usage', /--calls must be/],
      [['audit', '--scene', 'kitchn', '--json'], 'usage', /did you mean "kitchen"/i],
      [['audit', '--episode', 'first', '--json'], 'usage', /--episode must be an integer/],
    ];
    for (const [argv, code, msg] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      const body = JSON.parse(r.out) as { error: { code: string; message: string } };
      expect(body.error.code, argv.join(' ')).toBe(code);
      expect(body.error.message, argv.join(' ')).toMatch(msg);
    }
  });

  it('call --script takes events, also during a call; audit --json reports counts and reproducible scripts', async () => {
    const script = temp(
      'ev.json',
      JSON.stringify([
        { event: { type: 'estop_pressed' }, during: 0.3 },
        { tool: 'pick', args: { object_name: 'lemon_1' } },
        { event: { type: 'estop_released' } },
        { event: { type: 'set_battery', percent: 20 } },
      ]),
    );
    const r = await cli('call', '--scene', 'tabletop/fruits', '--script', script, '--json');
    const body = JSON.parse(r.out) as { results: { ok: boolean; error?: string }[]; facts: string[] };
    expect(body.results).toHaveLength(1);
    expect(body.results[0]!.error).toMatch(/^Failed \(estop\)/);
    expect(body.facts).toContain('battery(robot, low)');
    const a = await cli('audit', '--scene', 'tabletop/fruits', '--calls', '25', '--seed', '3', '--json');
    const audit = JSON.parse(a.out) as Record<string, unknown>;
    expect(Object.keys(audit)).toEqual(
      expect.arrayContaining(['calls', 'lies', 'leaks', 'invariants', 'messages', 'crashes', 'violations']),
    );
    expect(audit['calls']).toBe(25);
    expect(a.code).toBe((audit['violations'] as unknown[]).length ? 1 : 0);
  });

  it('runs as an installed bin script', () => {
    const r = spawnSync(process.execPath, [join(import.meta.dirname, '../../bin/skillbridge.js'), 'scenes', '--json'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }[]).length).toBeGreaterThanOrEqual(7);
    const bad = spawnSync(process.execPath, [join(import.meta.dirname, '../../bin/skillbridge.js'), 'tools', '--scene', 'nowhere'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('skillbridge run and trace', () => {
  const turns = JSON.stringify([
    { tool_calls: [{ function: { name: 'classify_request', arguments: { category: 'task' } } }] },
    { tool_calls: [{ function: { name: 'pick_lemon_1', arguments: {} } }] },
    { content: 'Holding the lemon.' },
  ]);

  it('runs a workflow with a scripted model, writes a trace, and trace prints it', async () => {
    const script = temp('turns.json', turns);
    const tracePath = join(mkdtempSync(join(tmpdir(), 'skillbridge-trace-')), 'run.jsonl');
    const r = await cli(
      'run',
      '--scene',
      'tabletop/fruits',
      '--workflow',
      'rtw/hierarchical',
      '--model',
      `scripted:${script}`,
      '--trace',
      tracePath,
      '--json',
      'pick the lemon',
    );
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out) as { trace: string; final: string; facts: string[] };
    expect(body).toMatchObject({ trace: tracePath, final: 'Holding the lemon.' });
    expect(body.facts).toContain('holding(robot, lemon_1)');
    const t = await cli('trace', tracePath);
    expect(t.code).toBe(0);
    expect(t.out).toMatch(/route: task/);
    expect(t.out).toMatch(/→ pick_lemon_1/);
    expect(t.out).toMatch(/final: Holding the lemon\./);
  });

  it('runs through the real openai client against a local server', async () => {
    const { startOpenAIServer } = await import('../../test/support/openai-server');
    const server = await startOpenAIServer([{ toolCalls: [{ name: 'get_objects', arguments: {} }] }, { content: 'I see fruit.' }]);
    try {
      const r = await cli(
        'run',
        '--scene',
        'tabletop/fruits',
        '--workflow',
        'flat',
        '--model',
        `openai-compatible:test-model@${server.url}`,
        '--trace',
        join(mkdtempSync(join(tmpdir(), 'sb-')), 't.jsonl'),
        '--json',
        'what do you see?',
      );
      expect(JSON.parse(r.out)).toMatchObject({ final: 'I see fruit.', reason: 'final' });
      expect(server.chatRequests()).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('with no model reachable it names the endpoint it tried and how to fix it', async () => {
    const r = await cli(
      'run',
      '--scene',
      'tabletop/fruits',
      '--model',
      'openai-compatible:m@http://127.0.0.1:1/v1',
      '--trace',
      join(mkdtempSync(join(tmpdir(), 'sb-')), 't.jsonl'),
      'hello',
    );
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/127\.0\.0\.1:1\/v1/);
    expect(r.err).toMatch(/--model/);
  }, 30_000);

  it('rejects bad run options and bad trace files in one line', async () => {
    expect((await cli('run', '--scene', 'tabletop/fruits', '--model', 'gpt4', 'hi')).err).toMatch(/--model/);
    expect((await cli('run', '--scene', 'tabletop/fruits', '--model', 'scripted:x.json', '--workflow', 'rtw/magic', 'hi')).err).toMatch(
      /unknown workflow "rtw\/magic"/,
    );
    expect((await cli('run', '--scene', 'tabletop/fruits', '--model', 'scripted:x.json', '--approve', 'maybe', 'hi')).err).toMatch(
      /--approve/,
    );
    expect((await cli('trace', '/nonexistent.jsonl')).err).toMatch(/no such file/);
    expect((await cli('trace', temp('bad.jsonl', '{"type":"header"}\nnot json\n'))).err).toMatch(/bad\.jsonl/);
  });

  it('--approve deny refuses action tools and the model is told; ask takes y/N from the terminal', async () => {
    const script = temp(
      'deny.json',
      JSON.stringify([
        { tool_calls: [{ function: { name: 'pick', arguments: { object_name: 'lemon_1' } } }] },
        { content: 'I was not allowed to.' },
      ]),
    );
    const tracePath = join(mkdtempSync(join(tmpdir(), 'sb-')), 't.jsonl');
    const r = await cli(
      'run',
      '--scene',
      'tabletop/fruits',
      '--workflow',
      'flat',
      '--model',
      `scripted:${script}`,
      '--approve',
      'deny',
      '--trace',
      tracePath,
      '--json',
      'pick the lemon',
    );
    const body = JSON.parse(r.out) as { facts: string[]; final: string };
    expect(body.final).toBe('I was not allowed to.');
    expect(body.facts).toContain('hand_empty(robot)');
    expect((await cli('trace', tracePath)).out).toMatch(/\? pick .*: denied/);

    const ask = spawnSync(
      process.execPath,
      [
        join(import.meta.dirname, '../../bin/skillbridge.js'),
        'run',
        '--scene',
        'tabletop/fruits',
        '--workflow',
        'flat',
        '--model',
        `scripted:${script}`,
        '--approve',
        'ask',
        '--trace',
        join(mkdtempSync(join(tmpdir(), 'sb-')), 'a.jsonl'),
        'pick the lemon',
      ],
      {
        input: 'n\n',
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(ask.stderr + ask.stdout).toMatch(/Approve pick\(\{"object_name":"lemon_1"\}\)\? \[y\/N\]/);
    expect(ask.stdout).toMatch(/approval: rejected/);
  });

  it('interactive /reset forgets the conversation and keeps numbering the trace files', () => {
    const script = temp('turns-reset.json', JSON.stringify([{ content: 'Hello!' }, { content: 'Fresh start.' }]));
    const dir = mkdtempSync(join(tmpdir(), 'sb-'));
    const r = spawnSync(
      process.execPath,
      [
        join(import.meta.dirname, '../../bin/skillbridge.js'),
        'run',
        '--scene',
        'tabletop/fruits',
        '--model',
        `scripted:${script}`,
        '--trace',
        join(dir, 't.jsonl'),
      ],
      {
        input: 'remember the word banana\n/reset\n/nonsense\nwhat was the word?\n',
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/conversation cleared/);
    expect(r.stdout).toMatch(/unknown command "\/nonsense"/);
    // The second turn's trace starts from the system prompt alone: the first request is gone.
    const second = readFileSync(join(dir, 't-turn2.jsonl'), 'utf8');
    expect(second).toContain('what was the word?');
    expect(second).not.toContain('banana');
    expect(readFileSync(join(dir, 't.jsonl'), 'utf8')).toContain('banana');
  });

  it('reads turns from stdin in interactive mode, keeping the conversation', () => {
    const script = temp(
      'turns2.json',
      JSON.stringify([{ content: 'Hello!', reasoning_content: 'A greeting; greet back.' }, { content: 'Still here.' }]),
    );
    const dir = mkdtempSync(join(tmpdir(), 'sb-'));
    const r = spawnSync(
      process.execPath,
      [
        join(import.meta.dirname, '../../bin/skillbridge.js'),
        'run',
        '--scene',
        'tabletop/fruits',
        '--model',
        `scripted:${script}`,
        '--trace',
        join(dir, 't.jsonl'),
      ],
      {
        input: 'hi\nare you there?\n',
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/answer: Hello!/);
    // The reasoning is shown apart from the answer (and is not the answer).
    expect(r.stdout).toMatch(/thinking: A greeting; greet back\.\nmodel: Hello!/);
    expect(r.stdout).toMatch(/answer: Still here\./);
    expect(r.stdout).toMatch(/t-turn2\.jsonl/);
  });
});
