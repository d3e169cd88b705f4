// What a user who mistypes an option reads: one line naming the option and the fix.
import { describe, expect, it } from 'vitest';
import { FlagRefused, UsageError, parse } from './args';
import { main } from './main';

function usage(argv: string[]): string {
  try {
    parse(argv);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error(`parse accepted ${argv.join(' ')}`);
}

describe('option parsing errors', () => {
  it('names an unknown option in one line', () => {
    const m = usage(['call', '--bogus']);
    expect(m).toBe('unknown option --bogus. Run "skillbridge help" for the options.');
  });

  it('says how to give a value that starts with a dash, in one line', () => {
    const m = usage(['foxglove', '--port', '-3']);
    expect(m).toMatch(/^--port got a value that starts with "-"; write --port=VALUE/);
    expect(m).not.toContain('\n');
  });

  it('keeps a flag given without its value to one line', () => {
    const m = usage(['call', '--scene']);
    expect(m).toMatch(/--scene/);
    expect(m).not.toContain('\n');
  });
});

describe('each command takes only the options it applies', () => {
  const refused = (argv: string[]) => {
    try {
      parse(argv);
    } catch (e) {
      if (e instanceof FlagRefused) return e;
      throw e;
    }
    throw new Error(`parse accepted ${argv.join(' ')}`);
  };

  it('refuses an option the command does not take, naming it and what the command takes', () => {
    expect(refused(['scenes', '--model', 'x']).message).toBe('scenes does not take --model; it takes --json');
    expect(refused(['tools', '--scene', 's', '--noise', 'distance=1']).message).toMatch(
      /^tools does not take --noise; it takes --scene, --set, --json$/,
    );
    // --noise was accepted by run and not applied (eval applies it: eval-noise.test.ts).
    expect(refused(['run', '--scene', 's', '--model', 'm', '--noise', 'distance=0.1', 'hi']).flag).toBe('noise');
    expect(() => parse(['eval', '--suite', 'alrm', '--model', 'oracle', '--noise', 'distance=0.1'])).not.toThrow();
    // Every option refused is named, and what to do instead where the entry says.
    expect(refused(['eval', '--suite', 'alrm', '--db', 'x', '--port', '1']).message).toMatch(
      /^eval does not take --db \(nor --port\); it takes --suite/,
    );
    expect(refused(['sweep', 'f.json', '--seed', '3']).message).toMatch(
      /^sweep does not take --seed; it takes .*\. The rest .* is in the sweep file$/,
    );
    expect(refused(['serve', '--json']).message).toMatch(/^serve does not take --json; it takes --port, --host/);
  });

  it('tells the parts of a command apart', () => {
    expect(refused(['bench', 'sim', '--scale']).message).toMatch(/^bench sim does not take --scale/);
    expect(refused(['bench', 'eval', '--scale', '--jobs', '2']).message).toMatch(/^bench eval --scale does not take --jobs/);
    expect(refused(['models', 'pull', 'x', '--name', 'y']).message).toMatch(/^models pull does not take --name; it takes --dir, --json$/);
    expect(refused(['models', '--name', 'y']).message).toMatch(/^models list does not take --name/);
    expect(refused(['report', '--leaderboard', 'd', '--junit', 'j.xml']).message).toMatch(/^report --leaderboard does not take --junit/);
    expect(refused(['report', 'r1', '--leaderboard', 'd', '--diff']).flag).toBe('diff');
    expect(() => parse(['models', 'add', 'f.gguf', '--name', 'y'])).not.toThrow();
    expect(() => parse(['bench', 'eval', '--scale', '--latency', '5'])).not.toThrow();
  });

  it('refuses an option without the one it applies beside, and two that clash', () => {
    expect(refused(['mcp', '--scene', 's', '--json']).message).toMatch(/^--json needs --http: /);
    expect(refused(['foxglove', '--scene', 's', '--set', 'alrm']).message).toMatch(/^--set needs --script/);
    expect(refused(['robot-api', '--scene', 's', '--speed', '2', '--fast']).message).toMatch(/^give --speed or --fast, not both/);
    expect(refused(['call', '--robot', 'http://127.0.0.1:9', '--noise', 'distance=1', 'get_objects']).flag).toBe('noise');
    expect(refused(['call', '--scene', 's', '--mapping', 'm.json', 'get_objects']).message).toMatch(/^--mapping needs --robot/);
    expect(refused(['serve', '--accept-no-estop']).message).toMatch(/^--accept-no-estop needs --robot/);
    // A resumed run takes its own filter again and refuses another (the runner compares: eval-flags.test.ts).
    expect(() => parse(['eval', '--resume', 'r', '--filter', 'x'])).not.toThrow();
    expect(refused(['eval', '--resume', 'r', '--run-id', 'x']).message).toMatch(/^give --resume or --run-id, not both/);
    expect(refused(['eval', '--suite', 'alrm', '--queue', 'redis://h', '--jobs', '2']).message).toMatch(/^give --queue or --jobs/);
    expect(refused(['mcp', '--scene', 's', '--max-sessions', '3']).message).toMatch(/^--max-sessions needs --http/);
    expect(refused(['sweep', 'f.json', '--run-id', 'x']).message).toMatch(/sweep names each of its runs itself/);
  });

  it('refuses arguments a command would ignore', () => {
    expect(usage(['scenes', 'extra'])).toBe('scenes takes no arguments, got "extra"');
    expect(usage(['tools', '--scene', 's', 'get_objects'])).toMatch(/^tools takes no arguments/);
    expect(usage(['trace', 'a.jsonl', 'b.jsonl'])).toMatch(/^trace takes one trace FILE, got "a.jsonl" "b.jsonl"/);
    expect(usage(['serve', '4000'])).toMatch(/^serve takes no arguments/);
    expect(usage(['models', 'list', 'x'])).toMatch(/^models list takes no arguments/);
  });

  it('checks nothing else with --help or --version: nothing runs', () => {
    expect(parse(['trace', '--help']).flags['help']).toBe(true);
    expect(parse(['scenes', '--model', 'x', '--version']).flags['version']).toBe(true);
    expect(parse(['bench', '--help']).command).toBe('bench');
  });

  it('an option no command applies is unknown', () => {
    expect(usage(['run', '--stream'])).toBe('unknown option --stream. Run "skillbridge help" for the options.');
    expect(usage(['eval', '--workers', '3'])).toMatch(/^unknown option --workers/);
  });
});

describe('the command line answers a refused option in one line, exit 2', () => {
  async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
    return { code, out, err };
  }

  it('on stderr, or as the JSON error under --json where the command speaks JSON', async () => {
    const plain = await cli('scenes', '--model', 'openai:gpt-4o');
    expect(plain).toEqual({ code: 2, out: '', err: 'skillbridge: scenes does not take --model; it takes --json\n' });
    const asJson = await cli('workflows', '--scene', 'x', '--json');
    expect(asJson.code).toBe(2);
    expect(JSON.parse(asJson.out)).toEqual({ error: { code: 'usage', message: 'workflows does not take --scene; it takes --json' } });
    // serve does not speak JSON: its refusal of --json is a line on stderr.
    const serve = await cli('serve', '--json');
    expect(serve.code).toBe(2);
    expect(serve.out).toBe('');
    expect(serve.err).toMatch(/^skillbridge: serve does not take --json; .*\n$/);
  });

  it('--version prints the version, with or without a command', async () => {
    for (const argv of [['--version'], ['-v'], ['scenes', '--version']]) {
      const r = await cli(...argv);
      expect(r).toEqual({ code: 0, out: 'skillbridge 0.1.0\n', err: '' });
    }
  });
});
