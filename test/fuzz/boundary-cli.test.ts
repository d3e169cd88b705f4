// The command line as a door, attacked from its own table of options: every
// command (and part of one) and each of its string options and arguments, given
// paths that lead outside (absolute, `../`, symlinks, /proc, a FIFO, a folder),
// model specs and URLs naming a loopback listener that records what it
// receives, and odd or huge values; run in process through main() (a few
// through bin/skillbridge.js). Invariants, per invocation: the exit code is one
// the help documents (never 70), no stack trace is printed, bad input (exit 2)
// is one line on stderr, every invocation ends within its bound (a FIFO is not
// waited on), no output quotes the API keys, and the keys reach the listener
// only as spec.ts allows: OPENAI_API_KEY never (it goes to OpenAI alone);
// SKILLBRIDGE_API_KEY never while SKILLBRIDGE_API_BASE_URL names another
// server, and otherwise only to a server the person typed on the command line.
//
// The person at the terminal may name any file, so reads outside are not
// findings here (the page and queue doors forbid them). Options that name files
// to write get only hostile paths inside the fuzzer's own folders: the machine
// running this may be root.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { syntheticAlrmRun } from '../../eval/report/synthetic';
import { openResults } from '../../eval/results/index';
import { DOORS, type Door, OPTIONS } from '../../hosts/cli/command-flags';
import { type OpenAIServer, startOpenAIServer } from '../support/openai-server';
import { fuzzRuns, fuzzSeed } from './support/budget';
import { type CliRun, runCli } from './support/cli-run';
import { type HostileContext, canonicalHostile, hostileString } from './support/hostile';
import { type Outside, makeOutside } from './support/outside';

// The benchmarks' own work is not this door's: stubbed, it ends where the options were read and checked.
const REACHED = 'REACHED the benchmark';
const stub = () => async (): Promise<never> => {
  throw new Error(REACHED);
};
vi.mock('../../hosts/bench/sim-bench', () => ({ benchSim: stub() }));
vi.mock('../../hosts/bench/agent-bench', () => ({ benchAgent: stub() }));
vi.mock('../../hosts/bench/eval-bench', () => ({ benchEval: stub() }));
vi.mock('../../hosts/bench/eval-scale-bench', () => ({ benchEvalScale: stub() }));
vi.mock('../../hosts/bench/app-bench', async (original) => ({ ...(await original<object>()), benchApp: stub() }));
vi.mock('../../hosts/bench/robot-bench', () => ({ benchRobot: stub() }));
vi.mock('../../hosts/bench/camera-bench', async (original) => ({ ...(await original<object>()), benchCamera: stub() }));
vi.mock('../../hosts/bench/cli-bench', async (original) => ({ ...(await original<object>()), benchCli: stub() }));
// The red team's search is its own tests' (minutes of play under load); here its door answers with the recorded maxima.
vi.mock('../../eval/redteam/run', async () => {
  const { readRecord } = await import('../../eval/redteam/record');
  const { resolve } = await import('node:path');
  const maxima = resolve(import.meta.dirname, '../../eval/redteam/maxima.json');
  return { redTeam: () => Promise.resolve(readRecord(maxima)) };
});

const OPENAI_KEY = `sk-openai-canary-${process.pid}-0123456789abcdef`;
const SB_KEY = `sk-sb-canary-${process.pid}-fedcba9876543210`;
const CASE_MS = 20_000;
/** Exit codes the help documents for an invocation that is not interrupted. */
const DOCUMENTED = [0, 1, 2, 3];
const SCENE = 'tabletop/fruits';
const BIN = path.resolve(import.meta.dirname, '../../bin/skillbridge.js');

let outside: Outside;
let listener: OpenAIServer;
let ctx: HostileContext;
let busy: Server;
let busyPort: number;
let redis: { port: number; stop: () => void } | undefined;
let sandbox: string;
let fixtures: Record<string, string>;
const saved: Record<string, string | undefined> = {};
const savedCwd = process.cwd();
/** The UR5e-class fixture as the robot flags give it (absolute: the fuzzer runs in its sandbox). */
const UR5E_FLAGS = [
  '--urdf',
  path.resolve(savedCwd, 'test/fixtures/robots/ur5e_like/urdf/ur5e_like.urdf'),
  '--robot-config',
  path.resolve(savedCwd, 'test/fixtures/robots/ur5e_like/urdf/ur5e_like.skillbridge.json'),
  '--package-dir',
  path.resolve(savedCwd, 'test/fixtures/robots/ur5e_like'),
];
/** One ALRM case with the no-op floor: the cheapest evaluation to attack. */
const EVAL_ONE_CASE = ['eval', '--suite', 'alrm', '--filter', 'boxes/3', '--sample', '1', '--model', 'floor:noop'];

function startRedis(): { port: number; stop: () => void } | undefined {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) return undefined;
  const port = 20_000 + (process.pid % 20_000);
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'], {
    stdio: 'ignore',
  });
  return { port, stop: () => child.kill() };
}

beforeAll(async () => {
  outside = makeOutside();
  listener = await startOpenAIServer([], { whenEmpty: { content: 'ok' } });
  ctx = { outside, listener: listener.url };
  busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  busyPort = (busy.address() as { port: number }).port;
  redis = startRedis();
  for (const k of [
    'OPENAI_API_KEY',
    'SKILLBRIDGE_API_KEY',
    'SKILLBRIDGE_API_BASE_URL',
    'SKILLBRIDGE_ROBOT_TOKEN',
    'SKILLBRIDGE_MODELS_DIR',
    'SKILLBRIDGE_QUEUE_SECRET',
  ])
    saved[k] = process.env[k];
  process.env['OPENAI_API_KEY'] = OPENAI_KEY;
  process.env['SKILLBRIDGE_API_KEY'] = SB_KEY;
  process.env['SKILLBRIDGE_ROBOT_TOKEN'] = 'robot-token-of-the-fuzzer';
  process.env['SKILLBRIDGE_QUEUE_SECRET'] = 'queue-secret-of-the-fuzzer-0123456789abcdef';
  // Relative paths (odd values, "..") land in a folder of the fuzzer's own, not in the checkout.
  sandbox = realpathSync(mkdtempSync(path.join(tmpdir(), 'sb-fuzz-cli-cwd-')));
  process.chdir(sandbox);
  process.env['SKILLBRIDGE_MODELS_DIR'] = path.join(sandbox, 'models');
  const f = (name: string, data: unknown) => {
    const p = path.join(sandbox, name);
    writeFileSync(p, typeof data === 'string' ? data : JSON.stringify(data));
    return p;
  };
  const evalDir = path.join(sandbox, 'eval-results');
  mkdirSync(evalDir);
  fixtures = {
    turns: f('turns.json', [{ content: 'done' }]),
    script: f('script.json', [{ tool: 'get_objects', args: {} }]),
    answers: f('answers.json', ['yes']),
    prices: f('prices.json', { prices: [{ model: 'floor:noop', inputPerMTok: 1, outputPerMTok: 2 }] }),
    robots: f('robots.json', { robots: { arm: { source: { kind: 'sim', scene: SCENE } } } }),
    sweep: f('sweep.json', { name: 'fz', suites: ['alrm'], models: ['floor:noop'], filter: 'boxes/3', sample: 1 }),
    mcp: f('mcp.json', { mcpServers: { gone: { command: process.execPath, args: ['-e', 'process.exit(0)'] } } }),
    mapping: path.resolve(savedCwd, 'examples/rosbridge/nav2-moveit.json'),
    evalDir,
    trace: path.join(sandbox, 'run.jsonl'),
  };
  const quiet = { out: () => undefined, err: () => undefined };
  const { main } = await import('../../hosts/cli/main');
  if ((await main(['run', '--scene', SCENE, '--model', `scripted:${fixtures.turns}`, '--trace', fixtures['trace']!, 'hi'], quiet)) !== 0)
    throw new Error('the trace fixture did not run');
  // A recorded run (made up, as the report tests make theirs): report, rescore and resume read it.
  const db = openResults(evalDir, { durability: 'process' });
  fixtures['runId'] = syntheticAlrmRun(db, { model: 'floor:noop', variant: 'TaP', skill: 0.5, latency: 1, trials: 1 }).runId;
  db.close();
}, 120_000);

afterAll(async () => {
  process.chdir(savedCwd);
  if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  await listener?.close();
  busy?.close();
  redis?.stop();
  outside?.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** An invocation of an entry with valid values; its string options and arguments are the fields the fuzzer attacks. */
interface Base {
  door: string;
  argv: () => string[];
  ready?: RegExp;
}

const SERVING = /https?:\/\/127\.0\.0\.1|ws:\/\/127\.0\.0\.1/;
const BASES = (): Base[] => {
  const x = fixtures;
  const port = String(busyPort);
  return [
    { door: 'tools', argv: () => ['tools', '--scene', SCENE, '--set', 'alrm'] },
    {
      door: 'call',
      argv: () => ['call', '--scene', SCENE, '--seed', '1', '--set', 'alrm', '--noise', 'distance=0.01', 'get_objects', '{}'],
    },
    { door: 'call', argv: () => ['call', '--scene', SCENE, '--script', x.script!] },
    {
      door: 'call',
      argv: () => ['call', '--scene', SCENE, ...UR5E_FLAGS, 'get_objects'],
    },
    { door: 'call', argv: () => ['call', '--robot', 'ws://127.0.0.1:1', '--mapping', x.mapping!, 'get_objects'] },
    {
      door: 'audit',
      argv: () => ['audit', '--scene', SCENE, '--calls', '5', '--seed', '1', '--episode', '0', '--out', path.join(sandbox, 'audit')],
    },
    {
      door: 'audit',
      argv: () => ['audit', '--scene', SCENE, '--calls', '3', ...UR5E_FLAGS],
    },
    {
      door: 'run',
      argv: () => [
        'run',
        '--scene',
        SCENE,
        '--model',
        `scripted:${x.turns}`,
        '--workflow',
        'flat',
        '--set',
        'alrm',
        '--seed',
        '1',
        '--trace',
        path.join(sandbox, 't.jsonl'),
        '--approve',
        'auto',
        '--time-limit',
        '30',
        '--max-iterations',
        '5',
        '--answers',
        x.answers!,
        'hi',
      ],
    },
    {
      door: 'run',
      argv: () => [
        'run',
        '--scene',
        SCENE,
        ...UR5E_FLAGS,
        '--model',
        `scripted:${x.turns}`,
        '--trace',
        path.join(sandbox, 'u.jsonl'),
        'hi',
      ],
    },
    { door: 'run', argv: () => ['run', '--scene', SCENE, '--model', `scripted:${x.turns}`, '--mcp', x.mcp!, 'hi'] },
    { door: 'run', argv: () => ['run', '--robot', 'ws://127.0.0.1:1', '--mapping', x.mapping!, '--model', `scripted:${x.turns}`, 'hi'] },
    { door: 'trace', argv: () => ['trace', x.trace!] },
    { door: 'export', argv: () => ['export', x.trace!, '--mcap', path.join(sandbox, 'r.mcap'), '--width', '32'] },
    { door: 'bench sim', argv: () => ['bench', 'sim', '--scene', SCENE] },
    { door: 'bench app', argv: () => ['bench', 'app', '--scene', SCENE] },
    { door: 'bench eval', argv: () => ['bench', 'eval', '--suite', 'alrm', '--jobs', '1'] },
    { door: 'bench robot', argv: () => ['bench', 'robot', '--poses', '5', '--seed', '2'] },
    { door: 'bench camera', argv: () => ['bench', 'camera', '--scene', SCENE] },
    { door: 'bench eval --scale', argv: () => ['bench', 'eval', '--scale', '--suite', 'alrm', '--latency', '10'] },
    {
      door: 'eval',
      argv: () => [
        ...EVAL_ONE_CASE,
        '--workflow',
        'flat',
        '--off-protocol',
        '--trials',
        '1',
        '--jobs',
        '1',
        '--seed',
        '1',
        '--time-limit',
        '30',
        '--max-iterations',
        '5',
        '--noise',
        'distance=0.01,dropout=0.1',
        '--concurrency',
        '2',
        '--rpm',
        '1000',
        '--tpm',
        '1000000',
        '--prices',
        x.prices!,
        '--shard',
        '1/1',
        '--run-id',
        'fz-run',
        '--cache',
        path.join(sandbox, 'eval-cache'),
        '--out',
        path.join(sandbox, 'eval-out'),
      ],
    },
    {
      door: 'eval',
      argv: () => [...EVAL_ONE_CASE, ...UR5E_FLAGS, '--out', path.join(sandbox, 'urdf-eval')],
    },
    { door: 'eval', argv: () => ['eval', '--resume', x.runId!, '--out', x.evalDir!] },
    { door: 'eval', argv: () => ['eval', '--resume', x.runId!, '--errors-only', '--out', x.evalDir!] },
    // A judge where the suite has none is refused after the spec is parsed: the spec is still a field to attack.
    {
      door: 'eval',
      argv: () => [...EVAL_ONE_CASE, ...['--judge', `scripted:${x.turns}`, '--out', path.join(sandbox, 'eval-judge')]],
    },
    { door: 'eval', argv: () => ['eval', '--suite', 'alrm', '--model', 'floor:noop', '--queue', 'redis://127.0.0.1:1'] },
    ...(redis
      ? [
          {
            door: 'worker',
            // The fuzzer's Redis has no password: --private-redis says no one else reaches it.
            argv: () => [
              'worker',
              '--queue',
              `redis://127.0.0.1:${redis!.port}`,
              '--private-redis',
              '--concurrency',
              '1',
              '--rpm',
              '10',
              '--tpm',
              '1000',
              '--allow-key-for',
              'http://127.0.0.1:9/v1',
              '--scripts',
              outside.allowed.scripts,
            ],
            ready: /worker \S+ on redis:/,
          },
        ]
      : []),
    {
      door: 'sweep',
      argv: () => [
        'sweep',
        x.sweep!,
        '--out',
        path.join(sandbox, 'sweep'),
        '--concurrency',
        '2',
        '--rpm',
        '1000',
        '--tpm',
        '1000000',
        '--prices',
        x.prices!,
        '--shard',
        '1/1',
      ],
    },
    { door: 'sweep', argv: () => ['sweep', x.sweep!, '--out', path.join(sandbox, 'sweep'), '--queue', 'redis://127.0.0.1:1'] },
    {
      door: 'report',
      argv: () => [
        'report',
        x.runId!,
        '--db',
        x.evalDir!,
        '--out',
        path.join(sandbox, 'r.html'),
        '--junit',
        path.join(sandbox, 'j.xml'),
        '--csv',
        path.join(sandbox, 'r.csv'),
        '--md',
        path.join(sandbox, 'r.md'),
      ],
    },
    { door: 'report --leaderboard', argv: () => ['report', '--leaderboard', x.evalDir!, '--md', path.join(sandbox, 'l.md')] },
    { door: 'rescore', argv: () => ['rescore', x.runId!, '--db', x.evalDir!, '--dry-run'] },
    {
      door: 'red-team',
      argv: () => [
        'red-team',
        '--suite',
        'dfki',
        '--budget',
        '1',
        '--minutes',
        '0.01',
        '--out',
        path.join(sandbox, 'rt.json'),
        '--md',
        path.join(sandbox, 'rt.md'),
      ],
    },
    {
      door: 'red-team --dry-run',
      argv: () => [
        'red-team',
        '--dry-run',
        '--from',
        path.join(process.cwd(), 'eval/redteam/maxima.json'),
        '--md',
        path.join(sandbox, 'rt.md'),
      ],
    },
    {
      door: 'robots check',
      argv: () => [
        'robots',
        'check',
        path.resolve(savedCwd, 'test/fixtures/robots/ur5e_like/urdf/ur5e_like.urdf'),
        '--package-dir',
        path.resolve(savedCwd, 'test/fixtures/robots/ur5e_like'),
      ],
    },
    {
      door: 'robots check rosbridge',
      argv: () => [
        'robots',
        'check',
        'rosbridge',
        '--robot',
        'ws://127.0.0.1:1',
        '--package-dir',
        path.resolve(savedCwd, 'test/fixtures/robots/ur5e_like'),
      ],
    },
    { door: 'models list', argv: () => ['models', 'list', '--dir', path.join(sandbox, 'models')] },
    { door: 'models pull', argv: () => ['models', 'pull', 'no-such-model', '--dir', path.join(sandbox, 'models')] },
    { door: 'models rm', argv: () => ['models', 'rm', 'no-such-model', '--dir', path.join(sandbox, 'models')] },
    { door: 'models add', argv: () => ['models', 'add', x.script!, '--name', 'mine', '--dir', path.join(sandbox, 'models')] },
    {
      door: 'serve',
      argv: () => [
        'serve',
        '--port',
        port,
        '--host',
        '127.0.0.1',
        '--scene',
        SCENE,
        '--seed',
        '1',
        '--max-sessions',
        '2',
        '--scripts',
        outside.allowed.scripts,
        '--exercises',
        outside.allowed.exercises,
        '--allow-key-for',
        'http://127.0.0.1:9/v1',
      ],
      ready: SERVING,
    },
    { door: 'serve', argv: () => ['serve', '--port', port, '--robot', 'ws://127.0.0.1:1', '--mapping', x.mapping!], ready: SERVING },
    { door: 'robot-api', argv: () => ['robot-api', '--scene', SCENE, '--port', port, '--seed', '1', '--speed', '2'], ready: SERVING },
    {
      door: 'mcp',
      argv: () => [
        'mcp',
        '--scene',
        SCENE,
        '--set',
        'alrm',
        '--seed',
        '1',
        '--http',
        port,
        '--max-sessions',
        '4',
        '--approve',
        'auto',
        '--trace',
        path.join(sandbox, 'mcp-trace'),
        '--foxglove',
        '0',
      ],
      ready: SERVING,
    },
    { door: 'mcp', argv: () => ['mcp', '--robots', x.robots!, '--http', port], ready: SERVING },
    { door: 'mcp', argv: () => ['mcp', '--robot', 'ws://127.0.0.1:1', '--mapping', x.mapping!, '--http', port], ready: SERVING },
    {
      door: 'foxglove',
      argv: () => ['foxglove', '--scene', SCENE, '--port', port, '--seed', '1', '--script', x.script!, '--set', 'alrm'],
      ready: SERVING,
    },
  ];
};

/** Options that name something written: hostile paths for them stay inside the fuzzer's folders. */
const WRITES = new Set(['trace', 'out', 'mcap', 'junit', 'csv', 'md', 'dir', 'db']);

/** A hostile path for a file written: one inside the sandbox or the outside folder, a FIFO or a folder there; never the machine's own files. */
function forWriting(value: string): string {
  const p = value.replace(/^file:\/\//, '');
  const target = path.resolve(sandbox, p);
  const ours = [sandbox, path.dirname(outside.dir)].some((d) => target === d || target.startsWith(`${d}/`));
  if (ours || target === '/dev/null' || p.length > 4096 || p.includes('\u0000') || p.trim() === '') return value;
  return path.join(outside.dir, `w-${path.basename(p).slice(0, 40) || 'x'}`);
}

interface Field {
  /** The option, or "#N" for the Nth argument. */
  name: string;
  /** Where its value is in the invocation; undefined: the option is added. */
  at: number | undefined;
}

/** The string options and arguments of an invocation, and the entry's string options it does not give. */
function fieldsOf(door: Door, argv: string[]): Field[] {
  const lead = door.name.split(' ').filter((w) => !w.startsWith('--')).length;
  const fields: Field[] = [];
  let arg = 0;
  for (let i = lead; i < argv.length; i++) {
    const w = argv[i]!;
    if (w.startsWith('--')) {
      const f = w.slice(2) as keyof typeof OPTIONS;
      if (OPTIONS[f]?.type === 'string') fields.push({ name: f, at: ++i });
    } else fields.push({ name: `#${arg++}`, at: i });
  }
  const given = new Set(fields.map((f) => f.name));
  for (const f of door.flags) if (OPTIONS[f].type === 'string' && !given.has(f)) fields.push({ name: f, at: undefined });
  return fields;
}

function withValue(argv: string[], field: Field, value: string): string[] {
  const v = WRITES.has(field.name) ? forWriting(value) : value;
  if (field.at === undefined) return [...argv, `--${field.name}`, v];
  const out = [...argv];
  // run's message: an empty one would read turns from stdin, as typed at a terminal.
  out[field.at] = field.name === '#0' && argv[0] === 'run' ? `hi ${v}` : v;
  return out;
}

/** Problems with one invocation; empty when the door held. */
function problems(argv: string[], r: CliRun, bound: boolean): string[] {
  const at = JSON.stringify(argv.map((a) => (a.length > 80 ? `${a.slice(0, 80)}…(${a.length})` : a))).slice(0, 400);
  const out: string[] = [];
  const stubbed = r.code === 70 && r.err.includes(REACHED);
  if (r.code === 'timeout') out.push(`no answer within ${CASE_MS / 1000} s`);
  else if (!stubbed && !DOCUMENTED.includes(r.code)) out.push(`exit ${r.code}: ${r.err.slice(0, 300)}`);
  const text = r.out + r.err;
  if (/^\s+at .+:\d+:\d+\)?$/m.test(text)) out.push(`a stack trace: ${r.err.slice(0, 300)}`);
  // A case set generated before the filter could be checked says so first: progress, not the answer.
  const answer = r.err
    .trim()
    .split('\n')
    .filter((l) => !/^generating the \S+ cases from the world/.test(l));
  if (r.code === 2 && !argv.includes('--json') && answer.length !== 1)
    out.push(`bad input answered in ${answer.length} lines: ${r.err.slice(0, 300)}`);
  if (text.includes(OPENAI_KEY) || text.includes(SB_KEY)) out.push('the output quotes an API key');
  for (const q of listener.requests) {
    const seen = JSON.stringify(q.headers) + JSON.stringify(q.body ?? '');
    if (seen.includes(OPENAI_KEY)) out.push(`OPENAI_API_KEY went to the listener (${q.method} ${q.path})`);
    if (bound && seen.includes(SB_KEY))
      out.push(`SKILLBRIDGE_API_KEY went to the listener while SKILLBRIDGE_API_BASE_URL names another server (${q.method} ${q.path})`);
    // Unbound, the key goes to the server the person typed: a model request there carries it.
    if (q.path.endsWith('/chat/completions')) {
      modelRequests[bound ? 'bound' : 'typed']++;
      if (!bound && q.headers['authorization'] !== `Bearer ${SB_KEY}`)
        out.push(`a model request to the server typed on the command line went without SKILLBRIDGE_API_KEY (${q.path})`);
    }
  }
  return out.map((p) => `${at}: ${p}`);
}

/** Model requests the listener got, while SKILLBRIDGE_API_BASE_URL named another server and while it was unset. */
const modelRequests = { bound: 0, typed: 0 };
let caseNo = 0;
/** Runs one invocation, every other one with SKILLBRIDGE_API_BASE_URL naming another server. */
async function tryCase(argv: string[], ready: RegExp | undefined): Promise<string[]> {
  listener.requests.length = 0;
  const bound = caseNo++ % 2 === 0;
  if (bound) process.env['SKILLBRIDGE_API_BASE_URL'] = 'http://127.0.0.1:9/v1';
  else delete process.env['SKILLBRIDGE_API_BASE_URL'];
  // FUZZ_LOG=FILE: each invocation, written before it runs (a case that blocks the process is the last line).
  if (process.env['FUZZ_LOG']) appendFileSync(process.env['FUZZ_LOG'], `${JSON.stringify(argv).slice(0, 600)}\n`);
  const r = await runCli(argv, { ...(ready ? { ready } : {}), timeoutMs: CASE_MS });
  return problems(argv, r, bound);
}

/** One line per entry, field and kind of problem, with its first example. */
function summarize(found: string[]): string[] {
  const first = new Map<string, string>();
  for (const f of found) {
    const kind = f
      .replace(/^\[.*?\]: /, '')
      .replace(/\d+/g, '#')
      .replace(/\/[^ "]*/g, '<path>')
      .slice(0, 60);
    const key = `${f.slice(0, 30)} | ${kind}`;
    if (!first.has(key)) first.set(key, f.slice(0, 600));
  }
  return [...first.values()];
}

describe('the command line, fuzzed from its table of options', () => {
  it('every entry has a base invocation here, or is internal', () => {
    const based = new Set(BASES().map((b) => b.door));
    const missing = Object.values(DOORS).filter(
      (d) => !d.hidden && !based.has(d.name) && d.flags.some((f) => OPTIONS[f].type === 'string') && !(d.name === 'worker' && !redis),
    );
    expect(missing.map((d) => d.name)).toEqual([]);
  });

  it('sweep: every string option and argument of every entry, given the hostile shapes in turn', async () => {
    // Besides the shared shapes: what only a command line gets (a dash, a queue URL Redis's client would choke on).
    const shapes = [
      ...canonicalHostile(ctx),
      '',
      '-',
      '--json',
      'a\u0000b',
      '%2e%2e%2f..',
      `${ctx.listener}/chat/completions`,
      'redis://127.0.0.1:1/x',
      'redis://[::1',
    ];
    // CI gives each field a rotating few of the shapes (all of them across the fields); FUZZ_RUNS gives each more.
    const perField = Math.min(shapes.length, fuzzRuns(2));
    const found: string[] = [];
    let tried = 0;
    let k = 0;
    const seenFields = new Set<string>();
    for (const b of BASES()) {
      const door = DOORS[b.door]!;
      for (const field of fieldsOf(door, b.argv())) {
        // A field given by two bases of an entry is attacked in the first.
        const key = `${b.door} ${field.name} ${field.at === undefined ? 'added' : 'given'}`;
        if (field.at === undefined && seenFields.has(`${b.door} ${field.name} given`)) continue;
        if (seenFields.has(key)) continue;
        seenFields.add(key);
        for (let i = 0; i < perField; i++, k++) {
          tried++;
          const argv = withValue(b.argv(), field, shapes[k % shapes.length]!);
          found.push(...(await tryCase(argv, b.ready)));
        }
      }
    }
    expect(tried).toBeGreaterThan(150);
    expect(summarize(found)).toEqual([]);
    console.log(
      `boundary-cli sweep: ${tried} invocations, ${found.length} problems, model requests at the listener ${JSON.stringify(modelRequests)}`,
    );
  }, 600_000);

  it('random: an entry, a field and a generated hostile value', async () => {
    const bases = BASES();
    const found: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...bases).chain((b) => {
          const fields = fieldsOf(DOORS[b.door]!, b.argv());
          return fc.tuple(fc.constant(b), fc.constantFrom(...fields), hostileString(ctx));
        }),
        async ([b, field, value]) => {
          found.push(...(await tryCase(withValue(b.argv(), field, value), b.ready)));
        },
      ),
      { numRuns: fuzzRuns(25), seed: fuzzSeed(34) },
    );
    expect(summarize(found)).toEqual([]);
  }, 600_000);

  it('the keys go where spec.ts says: a model server typed on the command line gets SKILLBRIDGE_API_KEY unless it is bound to another; OPENAI_API_KEY never', async () => {
    const spec = `openai-compatible:m@${ctx.listener}`;
    const runs = [
      ['run', '--scene', SCENE, '--model', spec, 'hi'],
      ['eval', '--suite', 'alrm', '--filter', 'boxes/3', '--sample', '1', '--model', spec, '--out', path.join(sandbox, 'keys')],
    ];
    const found: string[] = [];
    const before = { ...modelRequests };
    // Each twice: once with SKILLBRIDGE_API_BASE_URL naming another server, once unset.
    for (const argv of runs) for (let i = 0; i < 2; i++) found.push(...(await tryCase(argv, undefined)));
    expect(found).toEqual([]);
    expect(modelRequests.bound).toBeGreaterThan(before.bound);
    expect(modelRequests.typed).toBeGreaterThan(before.typed);
  }, 120_000);

  it('through bin/skillbridge.js: a FIFO, a /proc file and a huge value end at once in one line, exit 2', () => {
    const cases = [
      ['run', '--scene', SCENE, '--model', `scripted:${fixtures.turns}`, '--answers', outside.files.fifo, 'hi'],
      ['report', '--leaderboard', '/proc/self/environ'],
      ['call', '--scene', 'A'.repeat(100_000), 'get_objects'],
    ];
    for (const argv of cases) {
      const r = spawnSync(process.execPath, [BIN, ...argv], { cwd: sandbox, encoding: 'utf8', timeout: 60_000, env: process.env });
      const at = argv.join(' ').slice(0, 120);
      expect(r.signal, at).toBeNull();
      expect(r.status, `${at}: ${r.stderr}`).toBe(2);
      const lines = r.stderr
        .trim()
        .split('\n')
        .filter((l) => !/built the command-line bundle/.test(l));
      expect(lines, at).toHaveLength(1);
      expect(r.stderr + r.stdout, at).not.toMatch(new RegExp(`${OPENAI_KEY}|${SB_KEY}|^\\s+at `, 'm'));
    }
  }, 240_000);
});
