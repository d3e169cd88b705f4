// Every server command takes its chosen token under the one rule: robot-api,
// mcp --http, foxglove (and serve, in hosts/web/token.test.ts) refuse a
// one-character or empty token with one line naming the variable, exit 2,
// before opening anything; --max-sessions belongs to mcp --http.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../../test/support/mcp';

function run(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', input: '', env: { ...process.env, ...env }, timeout: 60_000 });
  // (A first run after a source change also says it built the command-line bundle.)
  return {
    code: r.status,
    lines: r.stderr
      .trim()
      .split('\n')
      .filter((l) => l && !/command-line bundle/.test(l)),
    stdout: r.stdout,
  };
}

describe('server commands and the token rule', () => {
  it('robot-api and mcp --http refuse a one-character token; an empty one is refused too', () => {
    const robot = run(['robot-api', '--scene', 'tabletop/fruits', '--port', '0'], { SKILLBRIDGE_ROBOT_TOKEN: 'x' });
    expect(robot).toMatchObject({
      code: 2,
      lines: [expect.stringMatching(/^skillbridge: SKILLBRIDGE_ROBOT_TOKEN has 1 characters, fewer than 16: choose/)],
    });
    const mcp = run(['mcp', '--scene', 'tabletop/fruits', '--http', '0'], { SKILLBRIDGE_MCP_TOKEN: 'x' });
    expect(mcp).toMatchObject({ code: 2, lines: [expect.stringMatching(/SKILLBRIDGE_MCP_TOKEN has 1 characters, fewer than 16/)] });
    const empty = run(['mcp', '--scene', 'tabletop/fruits', '--http', '0', '--json'], { SKILLBRIDGE_MCP_TOKEN: '' });
    expect(empty.code).toBe(2);
    expect(JSON.parse(empty.stdout)).toMatchObject({
      error: { code: 'usage', message: expect.stringMatching(/SKILLBRIDGE_MCP_TOKEN is set but empty/) },
    });
    const fox = run(['mcp', '--scene', 'tabletop/fruits', '--foxglove', '0'], { SKILLBRIDGE_FOXGLOVE_TOKEN: 'short-token' });
    expect(fox).toMatchObject({ code: 2, lines: [expect.stringMatching(/SKILLBRIDGE_FOXGLOVE_TOKEN has 11 characters/)] });
  }, 120_000);

  it('--max-sessions is for mcp --http, and a whole number of at least 1', () => {
    expect(run(['mcp', '--scene', 'tabletop/fruits', '--max-sessions', '4'], {})).toMatchObject({
      code: 2,
      lines: [expect.stringMatching(/--max-sessions needs --http: it caps the sessions of --http/)],
    });
    expect(run(['mcp', '--scene', 'tabletop/fruits', '--http', '0', '--max-sessions', '0'], {})).toMatchObject({
      code: 2,
      lines: [expect.stringMatching(/--max-sessions must be 1 to 10000/)],
    });
  }, 60_000);
});
