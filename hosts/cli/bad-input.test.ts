// Bad input the command-line fuzzer (test/fuzz/boundary-cli.test.ts) found
// answered with a crash (exit 70) or in several lines, each kept as a named
// example: one line, exit 2, before any work.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticAlrmRun } from '../../eval/report/synthetic';
import { openResults } from '../../eval/results/index';
import { startOpenAIServer } from '../../test/support/openai-server';
import { parse } from './args';
import { scaleOptions } from './commands/scale-flags';
import { main, oneLine } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'sb-bad-input-'));
const oneLineExit2 = (r: { code: number; err: string }, what: RegExp) => {
  expect(r.code).toBe(2);
  expect(r.err.trim().split('\n'), r.err).toHaveLength(1);
  expect(r.err).toMatch(what);
};

describe('paths no file can have', () => {
  it('a name longer than a file name may be, for a file written, is refused (it crashed: ENAMETOOLONG, exit 70)', async () => {
    oneLineExit2(
      await cli('report', 'r1', '--db', dir, '--csv', 'A'.repeat(300)),
      /^skillbridge: --csv: a name in the path is 300 bytes long/,
    );
    oneLineExit2(
      await cli('eval', '--suite', 'alrm', '--model', 'oracle', '--out', join(dir, 'B'.repeat(256))),
      /^skillbridge: --out: a name in the path is 256/,
    );
    oneLineExit2(await cli('trace', 'C'.repeat(5000)), /a path of 5000 bytes is longer than the 4095/);
  });

  it('a NUL character in a value is refused (it crashed: "must be a string … without null bytes", exit 70)', async () => {
    oneLineExit2(
      await cli('report', 'r1', '--db', dir, '--md', 'a\u0000b'),
      /^skillbridge: --md "a\\u0000b": a value cannot hold a NUL character/,
    );
    oneLineExit2(await cli('call', '--scene', 'tabletop/fruits', 'get_objects', '{"a":"\u0000"}'), /holds a NUL character/);
    expect(() => parse(['scenes', '--json'])).not.toThrow();
  });
});

describe('results databases', () => {
  it('a /proc file given for results is refused at once (SQLite waited on it for ever)', async () => {
    oneLineExit2(
      await cli('report', '--leaderboard', '/proc/self/environ'),
      /--leaderboard "\/proc\/self\/environ": not a results database/,
    );
    oneLineExit2(await cli('report', '/proc/self/environ'), /"\/proc\/self\/environ": not a results database/);
    oneLineExit2(await cli('rescore', 'r1', '--db', '/proc/self/environ'), /--db .*: not a results database/);
  });

  it('an empty results.db is not made into a database', async () => {
    const folder = mkdtempSync(join(dir, 'empty-'));
    writeFileSync(join(folder, 'results.db'), '');
    oneLineExit2(await cli('report', folder), /results\.db there is an empty file, not a results database/);
    oneLineExit2(
      await cli('eval', '--suite', 'alrm', '--model', 'oracle', '--out', folder),
      /--out .*: results\.db there is an empty file/,
    );
    expect(readFileSync(join(folder, 'results.db'), 'utf8')).toBe('');
    oneLineExit2(await cli('report', '--leaderboard', '/dev/zero'), /a device, not a results database/);
  });
});

describe('files written', () => {
  it('one in a folder not there yet is written (--md crashed: ENOENT, exit 70); one through a file is one line', async () => {
    const db = mkdtempSync(join(dir, 'db-'));
    const store = openResults(db, { durability: 'process' });
    const run = syntheticAlrmRun(store, { model: 'm', variant: 'TaP', skill: 0.9, latency: 5, trials: 1 }).runId;
    store.close();
    const md = join(dir, 'new', 'folder', 'board.md');
    const r = await cli('report', '--leaderboard', db, '--md', md);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(md, 'utf8')).toContain(run.split('-')[0]!);
    writeFileSync(join(dir, 'plain'), 'x');
    oneLineExit2(await cli('report', run, '--db', db, '--md', join(dir, 'plain', 'r.md')), /--md .*: a part of the path is not a folder/);
  });
});

describe('folders', () => {
  it('a file given for a folder is refused before any work (audit ran and then crashed: EEXIST, exit 70; so did mcp --trace)', async () => {
    const file = join(dir, 'a-file.txt');
    writeFileSync(file, 'x');
    const audit = await cli('audit', '--scene', 'tabletop/fruits', '--calls', '5', '--out', file);
    oneLineExit2(audit, /--out .*a-file\.txt": a file, not a folder/);
    oneLineExit2(await cli('mcp', '--scene', 'tabletop/fruits', '--http', '0', '--trace', file), /--trace .*: a file, not a folder/);
    oneLineExit2(await cli('models', 'list', '--dir', join(file, 'sub')), /--dir .*: a part of the path is not a folder/);
  });

  it('sweep --out naming a file that is no results database is one line (a progress line came first)', async () => {
    const sweep = join(dir, 'sweep.json');
    writeFileSync(sweep, JSON.stringify({ name: 's', suites: ['alrm'], models: ['floor:noop'], sample: 1 }));
    const notDb = join(dir, 'not-a-db.json');
    writeFileSync(notDb, JSON.stringify({ hello: 'world' }));
    oneLineExit2(await cli('sweep', sweep, '--out', notDb), /--out .*not-a-db\.json": a file, not a folder/);
  });

  it("sweep --out naming a .db is one line (the database was made there, then the sweep's folder could not be: EEXIST, exit 70)", async () => {
    const sweep = join(dir, 'sweep-db.json');
    writeFileSync(sweep, JSON.stringify({ name: 's', suites: ['alrm'], models: ['floor:noop'], filter: 'boxes/3', sample: 1 }));
    const out = join(dir, 'sweep-out', 'results.db');
    oneLineExit2(await cli('sweep', sweep, '--out', out), /--out .*results\.db": a sweep's --out is its folder/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('messages of several lines', () => {
  it('a scene file with several problems is one line naming each (it was one line per problem)', async () => {
    const scene = join(dir, 'scene.json');
    writeFileSync(scene, JSON.stringify({ id: 'x', title: 'x' }));
    const r = await cli('tools', '--scene', scene);
    oneLineExit2(r, /scene\.json is not valid: \S+: .*; \S+: /);
  });

  it('oneLine joins a list under its heading', () => {
    expect(oneLine('f is not valid:\n  - a: bad\n  - b: worse\n')).toBe('f is not valid: a: bad; b: worse');
    expect(oneLine('one line')).toBe('one line');
  });

  it('serve on a port in use is one line (the renderer warning came first: two lines)', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    try {
      oneLineExit2(await cli('serve', '--port', String(port)), new RegExp(`^skillbridge: port ${port} is in use`));
      // A robot URL naming a server that is no robot (a model server, as the fuzzer tried): when the first session's
      // scene was still loading as it was closed, that load's failure came first ("the session is closed").
      const notRobot = await startOpenAIServer([], { whenEmpty: { content: 'ok' } });
      const robot = `${notRobot.url}/../`;
      const token = process.env['SKILLBRIDGE_ROBOT_TOKEN'];
      process.env['SKILLBRIDGE_ROBOT_TOKEN'] = 'bad-input-robot-token-0123';
      try {
        oneLineExit2(await cli('serve', '--port', String(port), '--robot', robot), new RegExp(`^skillbridge: port ${port} is in use`));
      } finally {
        await notRobot.close();
        if (token === undefined) delete process.env['SKILLBRIDGE_ROBOT_TOKEN'];
        else process.env['SKILLBRIDGE_ROBOT_TOKEN'] = token;
      }
    } finally {
      busy.close();
    }
  }, 60_000);
});

describe('--robot options read where they apply', () => {
  it('--mapping with a robot HTTP API robot, and --seed with a robot and no shadow, are refused (they were ignored)', async () => {
    oneLineExit2(
      await cli('call', '--robot', 'http://127.0.0.1:9', '--mapping', 'm.json', 'get_objects'),
      /--mapping maps a rosbridge robot/,
    );
    oneLineExit2(await cli('call', '--robot', 'http://127.0.0.1:9', '--seed', '3', 'get_objects'), /--seed with --robot seeds nothing/);
    oneLineExit2(await cli('mcp', '--robot', 'http://127.0.0.1:9', '--seed', '3'), /--seed with --robot seeds nothing/);
  });
});

describe('the queue URL', () => {
  it('a malformed redis:// URL is one line, exit 2 (worker crashed: exit 70)', async () => {
    oneLineExit2(
      await cli('worker', '--queue', 'redis://127.0.0.1:1/x'),
      /--queue: the database number in "redis:\/\/127\.0\.0\.1:1\/x" must be a whole number/,
    );
    oneLineExit2(await cli('worker', '--queue', 'redis://[::1'), /--queue must be a Redis URL like redis:\/\/127\.0\.0\.1:6379/);
  });

  it('a sweep names its runs, so its shards need no --run-id (eval still does)', () => {
    const shard = { command: 'x', positionals: [], flags: { shard: '1/2' } };
    expect(scaleOptions(shard, { namesRuns: true })).toEqual({ shard: { index: 1, count: 2 } });
    expect(() => scaleOptions(shard)).toThrow(/--shard needs --run-id/);
  });
});
