// The table of options is truthful: each command, run in process through
// main() with options from its entry, reads every option it was given (an
// option given and not read, in a run that was not refused, is accepted and not
// applied), reads no option its entry lacks, and over the runs reads every
// option its entry lists. Start-up commands run until they serve and are then
// stopped as Ctrl-C stops them; benchmarks and the queue worker have their
// work stubbed (the options are read before it starts). fast-check picks the
// subsets; an option outside an entry is refused before anything is read.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SafetyChain } from '../../agents/runtime/safety';
import { syntheticAlrmRun } from '../../eval/report/synthetic';
import { openResults } from '../../eval/results/index';
import { openRobot } from '../../robot/sources';
import { chosenToken } from '../../base/server-token';
import { fakeGguf } from '../../test/support/model-host';
import { type RosbridgeTestServer, startRosbridgeServer } from '../../test/support/rosbridge-server';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { type RobotApiServer, startRobotApi } from '../robot-api/server';
import { parseWords, watchFlagReads } from './args';
import { DOORS, type Door, type FlagName, GLOBAL_FLAGS, OPTIONS, doorOf } from './command-flags';
import { main } from './main';

/** Work a stub stands in for was reached: the command read its options and went on. */
const REACHED = 'REACHED';
const reached = (what: string) => async (): Promise<never> => {
  throw new Error(`${REACHED} ${what}`);
};
vi.mock('../bench/sim-bench', () => ({ benchSim: reached('benchSim') }));
vi.mock('../bench/agent-bench', () => ({ benchAgent: reached('benchAgent') }));
vi.mock('../bench/eval-bench', () => ({ benchEval: reached('benchEval') }));
vi.mock('../bench/eval-scale-bench', () => ({ benchEvalScale: reached('benchEvalScale') }));
vi.mock('../bench/app-bench', async (original) => ({ ...(await original<object>()), benchApp: reached('benchApp') }));
vi.mock('../bench/robot-bench', () => ({ benchRobot: reached('benchRobot') }));
vi.mock('../bench/camera-bench', async (original) => ({ ...(await original<object>()), benchCamera: reached('benchCamera') }));
vi.mock('../bench/cli-bench', async (original) => ({ ...(await original<object>()), benchCli: reached('benchCli') }));
vi.mock('../../eval/scale/queue-worker', () => ({
  runQueueWorker: async () => ({ done: 0, errors: 0, rssPeakMb: 0 }),
}));
vi.mock('../../eval/scale/queue', async (original) => ({
  ...(await original<object>()),
  checkQueue: async () => undefined,
  claimRun: async () => undefined,
  queueSlots: reached('queueSlots'),
}));

const TOKEN = 'flag-table-token-0123456789';
const QUEUE_SECRET = 'flag-table-queue-secret-0123456789abcdef';
const SCENE = 'tabletop/fruits';
const root = mkdtempSync(join(tmpdir(), 'sb-flag-table-'));
const file = (name: string, data: unknown): string => {
  const p = join(root, name);
  writeFileSync(p, typeof data === 'string' || Buffer.isBuffer(data) ? data : JSON.stringify(data));
  return p;
};
const fresh = (name: string): string => mkdtempSync(join(root, `${name}-`));
const MAPPING = resolve(import.meta.dirname, '../../examples/rosbridge/nav2-moveit.json');
const ROBOTS = resolve(import.meta.dirname, '../../test/fixtures/robots');

interface Variant {
  door: string;
  /** The invocation without its optional parts (made anew for each run: some need a fresh folder). */
  base: () => string[];
  /** Optional parts that all apply together, each one or more options with values the command accepts. */
  parts: string[][];
  /** A start-up command: it is serving once it writes a line matching this; then it gets SIGINT. */
  ready?: RegExp;
  /** The command refuses it after reading the options (nothing listens at a ws:// robot, an MCP server that ends, no such model). */
  refused?: true;
}

let robot: RobotApiServer;
/** A ROS 1 robot whose parameter server holds the UR5e-class fixture's URDF (robots check rosbridge). */
let rosbridge: RosbridgeTestServer;
let closeRobot: () => Promise<void>;
let trace: string;
let evalDir: string;
let runId: string;
let reportDir: string;
let reportRuns: [string, string];
const scripts = fresh('scripts');
const exercises = fresh('exercises');

const turns = file('turns.json', [{ content: 'done' }]);
const script = file('script.json', [{ tool: 'get_objects', args: {} }]);
const answers = file('answers.json', ['yes']);
// An MCP server that exits at once: --mcp is read, then the run is refused (exit 2).
const mcpConfig = file('mcp.json', { mcpServers: { gone: { command: process.execPath, args: ['-e', 'process.exit(0)'] } } });
const prices = file('prices.json', { prices: [{ model: 'floor:noop', inputPerMTok: 1, outputPerMTok: 2 }] });
const robots = file('robots.json', { robots: { arm: { source: { kind: 'sim', scene: SCENE, seed: 2 } } } });
const gguf = file('mine.gguf', fakeGguf(2_000, 3));
/** A recorded red-team run, as the repository keeps one. */
const RED_TEAM_RUN = join(process.cwd(), 'eval/redteam/maxima.json');
const SMALL = ['--suite', 'alrm', '--filter', 'boxes/3', '--sample', '1'];
const sweepFile = file('sweep.json', { name: 'ft', suites: ['alrm'], models: ['floor:noop'], filter: 'boxes/3', sample: 1 });

const VARIANTS = (): Variant[] => [
  { door: 'scenes', base: () => ['scenes'], parts: [['--json']] },
  { door: 'workflows', base: () => ['workflows'], parts: [['--json']] },
  { door: 'tools', base: () => ['tools', '--scene', SCENE], parts: [['--set', 'alrm'], ['--json']] },
  {
    door: 'call',
    base: () => ['call', '--scene', SCENE, 'get_objects'],
    parts: [['--seed', '2'], ['--set', 'alrm'], ['--noise', 'distance=0.01'], ['--json']],
  },
  { door: 'call', base: () => ['call', '--scene', SCENE, '--script', script], parts: [['--seed', '2'], ['--set', 'alrm'], ['--json']] },
  {
    door: 'call',
    base: () => ['call', '--scene', SCENE, '--urdf', join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf'), 'get_objects'],
    parts: [
      ['--robot-config', join(ROBOTS, 'ur5e_like/urdf/ur5e_like.skillbridge.json')],
      ['--package-dir', join(ROBOTS, 'ur5e_like')],
      ['--seed', '2'],
      ['--json'],
    ],
  },
  {
    door: 'call',
    base: () => ['call', '--urdf', 'rosbridge', '--robot', rosbridge.url, '--scene', SCENE, 'get_objects'],
    parts: [
      ['--robot-config', join(ROBOTS, 'ur5e_like/urdf/ur5e_like.skillbridge.json')],
      ['--package-dir', join(ROBOTS, 'ur5e_like')],
      ['--seed', '2'],
      ['--json'],
    ],
  },
  {
    door: 'call',
    base: () => ['call', '--robot', robot.url, 'get_objects'],
    parts: [['--accept-no-estop'], ['--shadow', '--scene', SCENE, '--seed', '2'], ['--set', 'alrm'], ['--json']],
  },
  {
    door: 'call',
    base: () => ['call', '--robot', 'ws://127.0.0.1:1', '--mapping', MAPPING, 'get_objects'],
    parts: [['--json']],
    refused: true,
  },
  {
    door: 'run',
    base: () => ['run', '--scene', SCENE, '--model', `scripted:${turns}`, 'hi'],
    parts: [
      ['--workflow', 'flat'],
      ['--set', 'alrm'],
      ['--seed', '2'],
      ['--trace', join(fresh('trace'), 't.jsonl')],
      ['--approve', 'deny'],
      ['--time-limit', '30'],
      ['--max-iterations', '5'],
      ['--answers', answers],
      ['--json'],
    ],
  },
  {
    door: 'run',
    base: () => ['run', '--scene', SCENE, '--urdf', join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf'), '--model', `scripted:${turns}`, 'hi'],
    parts: [
      ['--robot-config', join(ROBOTS, 'ur5e_like/urdf/ur5e_like.skillbridge.json')],
      ['--package-dir', join(ROBOTS, 'ur5e_like')],
      ['--trace', join(fresh('trace'), 't.jsonl')],
      ['--json'],
    ],
  },
  {
    door: 'run',
    base: () => ['run', '--urdf', 'rosbridge', '--robot', rosbridge.url, '--scene', SCENE, '--model', `scripted:${turns}`, 'hi'],
    parts: [
      ['--robot-config', join(ROBOTS, 'ur5e_like/urdf/ur5e_like.skillbridge.json')],
      ['--package-dir', join(ROBOTS, 'ur5e_like')],
      ['--trace', join(fresh('trace'), 't.jsonl')],
      ['--json'],
    ],
  },
  {
    door: 'run',
    base: () => ['run', '--scene', SCENE, '--model', `scripted:${turns}`, '--mcp', mcpConfig, 'hi'],
    parts: [['--json']],
    refused: true,
  },
  {
    door: 'run',
    base: () => ['run', '--robot', robot.url, '--model', `scripted:${turns}`, '--trace', join(fresh('trace'), 't.jsonl'), 'hi'],
    parts: [['--accept-no-estop'], ['--shadow', '--scene', SCENE], ['--seed', '2'], ['--json']],
  },
  {
    door: 'run',
    base: () => ['run', '--robot', 'ws://127.0.0.1:1', '--mapping', MAPPING, '--model', `scripted:${turns}`, 'hi'],
    parts: [['--json']],
    refused: true,
  },
  { door: 'trace', base: () => ['trace', trace], parts: [['--json']] },
  { door: 'export', base: () => ['export', trace, '--mcap', join(fresh('mcap'), 'r.mcap')], parts: [['--width', '32'], ['--json']] },
  {
    door: 'audit',
    base: () => ['audit', '--scene', SCENE, '--calls', '10'],
    parts: [['--seed', '2'], ['--episode', '0'], ['--out', fresh('audit')], ['--json']],
  },
  {
    door: 'audit',
    base: () => ['audit', '--scene', SCENE, '--calls', '5', '--urdf', join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf')],
    parts: [
      ['--robot-config', join(ROBOTS, 'ur5e_like/urdf/ur5e_like.skillbridge.json')],
      ['--package-dir', join(ROBOTS, 'ur5e_like')],
      ['--seed', '2'],
      ['--json'],
    ],
  },
  { door: 'bench sim', base: () => ['bench', 'sim'], parts: [['--scene', 'reference'], ['--quick'], ['--in-process'], ['--json']] },
  { door: 'bench cli', base: () => ['bench', 'cli'], parts: [['--quick'], ['--json']] },
  { door: 'bench agent', base: () => ['bench', 'agent'], parts: [['--quick'], ['--json']] },
  { door: 'bench app', base: () => ['bench', 'app'], parts: [['--scene', SCENE], ['--quick'], ['--unsettled'], ['--json']] },
  { door: 'bench robot', base: () => ['bench', 'robot'], parts: [['--poses', '5'], ['--seed', '2'], ['--quick'], ['--json']] },
  { door: 'bench eval', base: () => ['bench', 'eval'], parts: [['--suite', 'alrm'], ['--jobs', '1'], ['--json']] },
  { door: 'bench eval --scale', base: () => ['bench', 'eval', '--scale'], parts: [['--suite', 'alrm'], ['--latency', '10'], ['--json']] },
  { door: 'bench camera', base: () => ['bench', 'camera'], parts: [['--scene', SCENE], ['--json']] },
  {
    door: 'eval',
    base: () => ['eval', ...SMALL, '--model', 'floor:noop', '--out', fresh('eval')],
    parts: [
      ['--workflow', 'flat', '--off-protocol'],
      ['--trials', '2'],
      ['--jobs', '1'],
      ['--seed', '2'],
      ['--time-limit', '30'],
      ['--max-iterations', '5'],
      ['--noise', 'distance=0.01,dropout=0.1,failure=0.05'],
      ['--concurrency', '2'],
      ['--rpm', '1000'],
      ['--tpm', '1000000'],
      ['--prices', prices],
      ['--shard', '1/1', '--run-id', 'ft-shard'],
      ['--cache', join(root, 'ft-cache')],
      ['--json'],
    ],
  },
  { door: 'eval', base: () => ['eval', '--resume', runId, '--out', evalDir], parts: [['--jobs', '1'], ['--errors-only'], ['--json']] },
  {
    door: 'eval',
    base: () => [
      'eval',
      ...SMALL,
      '--model',
      'floor:noop',
      '--urdf',
      join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf'),
      '--out',
      fresh('eval'),
    ],
    parts: [
      ['--robot-config', join(ROBOTS, 'ur5e_like/urdf/ur5e_like.skillbridge.json')],
      ['--package-dir', join(ROBOTS, 'ur5e_like')],
      ['--json'],
    ],
  },
  // A judge is read and refused where the suite has no free text to judge (RAIDER's cases take minutes to make).
  {
    door: 'eval',
    base: () => ['eval', ...SMALL, '--model', 'floor:noop', '--judge', `scripted:${turns}`, '--out', fresh('eval')],
    parts: [['--json']],
    refused: true,
  },
  { door: 'eval', base: () => ['eval', ...SMALL, '--model', 'floor:noop', '--queue', 'redis://127.0.0.1:1'], parts: [['--json']] },
  {
    door: 'worker',
    base: () => ['worker', '--queue', 'redis://127.0.0.1:1'],
    parts: [
      ['--concurrency', '2'],
      ['--rpm', '10'],
      ['--tpm', '1000'],
      ['--allow-key-for', 'http://127.0.0.1:9/v1'],
      ['--scripts', scripts],
      ['--private-redis'],
      ['--json'],
    ],
  },
  {
    door: 'sweep',
    base: () => ['sweep', sweepFile, '--out', fresh('sweep')],
    parts: [['--concurrency', '2'], ['--rpm', '1000'], ['--tpm', '1000000'], ['--prices', prices], ['--shard', '1/1'], ['--json']],
  },
  { door: 'sweep', base: () => ['sweep', sweepFile, '--out', fresh('sweep'), '--queue', 'redis://127.0.0.1:1'], parts: [['--json']] },
  {
    door: 'report',
    base: () => ['report', ...reportRuns, '--db', reportDir],
    parts: [
      ['--out', join(fresh('report'), 'r.html')],
      ['--junit', join(fresh('report'), 'j.xml')],
      ['--csv', join(fresh('report'), 'r.csv')],
      ['--md', join(fresh('report'), 'r.md')],
      ['--diff'],
      ['--json'],
    ],
  },
  {
    door: 'report --leaderboard',
    base: () => ['report', '--leaderboard', reportDir],
    parts: [['--md', join(fresh('lb'), 'l.md')], ['--json']],
  },
  {
    door: 'red-team',
    base: () => ['red-team', '--suite', 'dfki', '--budget', '3', '--minutes', '0.05'],
    parts: [
      ['--sample', '8'],
      ['--seed', '2'],
      ['--from', RED_TEAM_RUN],
      ['--out', join(fresh('red-team'), 'r.json')],
      ['--md', join(fresh('red-team'), 'r.md')],
      ['--json'],
    ],
  },
  {
    door: 'red-team --dry-run',
    base: () => ['red-team', '--dry-run', '--from', RED_TEAM_RUN],
    parts: [['--md', join(fresh('red-team'), 'r.md')], ['--json']],
  },
  { door: 'rescore', base: () => ['rescore', runId, '--db', evalDir], parts: [['--dry-run'], ['--json']] },
  { door: 'models list', base: () => ['models', 'list', '--dir', fresh('models')], parts: [['--json']] },
  { door: 'models list', base: () => ['models', '--dir', fresh('models')], parts: [['--json']] },
  { door: 'models pull', base: () => ['models', 'pull', 'no-such-model', '--dir', fresh('models')], parts: [['--json']], refused: true },
  { door: 'models add', base: () => ['models', 'add', gguf, '--dir', fresh('models')], parts: [['--name', 'mine'], ['--json']] },
  {
    door: 'models rm',
    base: () => {
      const d = fresh('models');
      copyFileSync(gguf, join(d, 'mine.gguf'));
      return ['models', 'rm', 'mine', '--dir', d];
    },
    parts: [['--json']],
  },
  {
    door: 'serve',
    base: () => ['serve', '--port', '0'],
    parts: [
      ['--host', '127.0.0.1'],
      ['--scene', SCENE],
      ['--seed', '2'],
      ['--max-sessions', '2'],
      ['--scripts', scripts],
      ['--allow-key-for', 'http://127.0.0.1:9/v1'],
      ['--classroom'],
      ['--exercises', exercises],
      ['--allow-model-pull'],
      ['--verbose'],
    ],
    ready: /http:\/\/127\.0\.0\.1/,
  },
  {
    door: 'serve',
    base: () => ['serve', '--port', '0', '--urdf', join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf')],
    parts: [
      ['--robot-config', join(ROBOTS, 'ur5e_like/urdf/ur5e_like.skillbridge.json')],
      ['--package-dir', join(ROBOTS, 'ur5e_like')],
    ],
    ready: /http:\/\/127\.0\.0\.1/,
  },
  {
    door: 'serve',
    base: () => ['serve', '--port', '0', '--robot', robot.url],
    parts: [['--accept-no-estop']],
    ready: /http:\/\/127\.0\.0\.1/,
  },
  {
    door: 'serve',
    base: () => ['serve', '--port', '0', '--robot', 'ws://127.0.0.1:1', '--mapping', MAPPING],
    parts: [],
    ready: /http:\/\/127\.0\.0\.1/,
  },
  {
    door: 'robot-api',
    base: () => ['robot-api', '--scene', SCENE, '--port', '0'],
    parts: [['--seed', '2'], ['--speed', '2'], ['--read-only'], ['--json']],
    ready: /127\.0\.0\.1/,
  },
  { door: 'robot-api', base: () => ['robot-api', '--scene', SCENE, '--port', '0', '--fast'], parts: [], ready: /127\.0\.0\.1/ },
  {
    door: 'mcp',
    base: () => ['mcp', '--scene', SCENE, '--http', '0'],
    parts: [
      ['--set', 'alrm'],
      ['--seed', '2'],
      ['--max-sessions', '4'],
      ['--approve', 'auto'],
      ['--read-only'],
      ['--paced'],
      ['--trace', fresh('mcp-trace')],
      ['--foxglove', '0'],
      ['--verbose'],
      ['--json'],
    ],
    ready: /http:\/\/127\.0\.0\.1/,
  },
  { door: 'mcp', base: () => ['mcp', '--robots', robots, '--http', '0'], parts: [['--json']], ready: /http:\/\/127\.0\.0\.1/ },
  {
    door: 'mcp',
    base: () => ['mcp', '--robot', robot.url, '--http', '0'],
    parts: [['--accept-no-estop'], ['--shadow', '--scene', SCENE, '--seed', '2'], ['--set', 'alrm']],
    ready: /http:\/\/127\.0\.0\.1/,
  },
  { door: 'mcp', base: () => ['mcp', '--robot', 'ws://127.0.0.1:1', '--mapping', MAPPING, '--http', '0'], parts: [], refused: true },
  {
    door: 'robots check',
    base: () => ['robots', 'check', join(ROBOTS, 'mobile_manipulator/urdf/mobile_manipulator.urdf.xacro')],
    parts: [['--package-dir', `${join(ROBOTS, 'mobile_manipulator')},${join(ROBOTS, 'ur5e_like')}`], ['--json']],
  },
  {
    door: 'robots check rosbridge',
    base: () => ['robots', 'check', 'rosbridge', '--robot', rosbridge.url],
    parts: [['--package-dir', join(ROBOTS, 'ur5e_like')], ['--json']],
  },
  {
    door: 'foxglove',
    base: () => ['foxglove', '--scene', SCENE, '--port', '0'],
    parts: [['--seed', '2'], ['--script', script, '--set', 'alrm'], ['--json']],
    ready: /ws:\/\/127\.0\.0\.1/,
  },
];

interface Outcome {
  argv: string[];
  door: Door;
  code: number;
  /** The command reached a stub standing in for its work (exit 70 with REACHED). */
  stub: boolean;
  /** Not refused: the command went on with the options it was given. */
  ran: boolean;
  err: string;
  out: string;
  given: string[];
  reads: Set<string>;
}

/** Runs one invocation with its option reads watched; a start-up command is stopped once it serves. */
async function watchedRun(argv: string[], ready?: RegExp): Promise<Outcome> {
  const words = parseWords(argv);
  const found = doorOf(words.command, words.positionals, words.flags);
  if (!found) throw new Error(`no entry for ${argv.join(' ')}`);
  const given = Object.keys(words.flags).filter((f) => !GLOBAL_FLAGS.includes(f as never));
  const reads = new Set<string>();
  let out = '';
  let err = '';
  let stopping = false;
  let running = true;
  const seen = (t: string) => {
    if (ready && !stopping && ready.test(t)) {
      stopping = true;
      // After the line the command waits for Ctrl-C; the listener is added right after it writes.
      setTimeout(() => running && process.emit('SIGINT', 'SIGINT'), 50);
    }
  };
  const unwatch = watchFlagReads((f) => reads.add(f));
  const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  let code: number;
  try {
    code = await main(argv, {
      out: (t) => {
        out += `${t}\n`;
        seen(t);
      },
      err: (t) => {
        err += `${t}\n`;
        seen(t);
      },
    });
  } finally {
    unwatch();
    running = false;
    // Signal listeners a command left behind (its process ends in real use) must not hear the next one's Ctrl-C.
    for (const sig of ['SIGINT', 'SIGTERM'] as const)
      for (const l of process.listeners(sig)) if (!before[sig].includes(l)) process.off(sig, l);
  }
  const stub = err.includes(REACHED);
  return { argv, door: found.door, code, stub, ran: code !== 2, err, out, given, reads };
}

/** What is wrong with one run: a crash, an option given and not applied, an option read that its entry lacks. */
function problems(o: Outcome): string[] {
  const at = `${o.argv.join(' ').slice(0, 200)} (exit ${o.code})`;
  const out: string[] = [];
  if (!o.stub && ![0, 1, 2, 3].includes(o.code)) out.push(`${at}: ${o.err.slice(0, 300)}`);
  // Besides its own: an option it refuses with a reason of its own, and the ones that choose between its command's parts.
  const command = o.door.name.split(' ')[0]!;
  const siblings = Object.values(DOORS).filter((d) => d.name.split(' ')[0] === command);
  const allowed = new Set<string>([
    ...o.door.flags,
    ...GLOBAL_FLAGS,
    ...Object.keys(o.door.refuse ?? {}),
    ...siblings.flatMap((d) => d.flags),
  ]);
  for (const r of o.reads) if (!allowed.has(r)) out.push(`${at}: reads --${r}, which "${o.door.name}" does not list`);
  if (o.ran) for (const g of o.given) if (!o.reads.has(g)) out.push(`${at}: --${g} was accepted and never read`);
  return out;
}

beforeAll(async () => {
  process.env['SKILLBRIDGE_ROBOT_TOKEN'] = TOKEN;
  // The queue's shared secret: eval --queue and the worker refuse to run without one.
  process.env['SKILLBRIDGE_QUEUE_SECRET'] = QUEUE_SECRET;
  rosbridge = await startRosbridgeServer({ ros: 1 });
  rosbridge.params.set('/robot_description', readFileSync(join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf'), 'utf8'));
  const opened = await openRobot({ kind: 'sim', scene: SCENE, seed: 1 });
  const chain = new SafetyChain(opened.robot);
  robot = await startRobotApi({ robot: opened.robot, chain, port: 0, token: chosenToken(TOKEN, 'the test') });
  closeRobot = async () => {
    await robot.close();
    chain.dispose();
    await opened.close();
  };
  trace = join(fresh('traces'), 'run.jsonl');
  const ran = await main(['run', '--scene', SCENE, '--model', `scripted:${turns}`, '--trace', trace, 'hi'], {
    out: () => {},
    err: () => {},
  });
  if (ran !== 0) throw new Error('the trace fixture did not run');
  evalDir = fresh('eval-fixture');
  let text = '';
  const e = await main(['eval', ...SMALL, '--model', 'floor:noop', '--out', evalDir, '--json'], { out: (t) => (text += t), err: () => {} });
  if (e !== 0) throw new Error(`the eval fixture did not run: ${text}`);
  runId = (JSON.parse(text) as { runId: string }).runId;
  reportDir = fresh('report-fixture');
  const db = openResults(reportDir, { durability: 'process' });
  reportRuns = [
    syntheticAlrmRun(db, { model: 'ollama:qwen3:8b', variant: 'CaP', skill: 0.8, latency: 12, trials: 1, seed: 9 }).runId,
    syntheticAlrmRun(db, { model: 'ollama:qwen3:14b', variant: 'CaP', skill: 0.95, latency: 12, trials: 1, seed: 10 }).runId,
  ];
  db.close();
}, 120_000);

afterAll(async () => {
  await closeRobot?.();
  await rosbridge?.close();
  rmSync(root, { recursive: true, force: true });
  delete process.env['SKILLBRIDGE_ROBOT_TOKEN'];
  delete process.env['SKILLBRIDGE_QUEUE_SECRET'];
});

describe('the table of options is truthful', () => {
  const seen = new Map<string, Set<string>>();
  const found: string[] = [];
  const note = (o: Outcome) => {
    const s = seen.get(o.door.name) ?? new Set<string>();
    for (const r of o.reads) if (o.given.includes(r)) s.add(r);
    seen.set(o.door.name, s);
    found.push(...problems(o));
  };

  it('each entry with all of its options at once: every option is read, none outside the entry', async () => {
    for (const v of VARIANTS()) {
      const o = await watchedRun([...v.base(), ...v.parts.flat()], v.ready);
      note(o);
      // All of an entry's options at once go through (or are refused where the variant says why).
      if ((o.code === 2) !== Boolean(v.refused))
        found.push(`${o.argv.join(' ').slice(0, 200)}: exit ${o.code}: ${(o.err || o.out).slice(0, 300)}`);
    }
    expect(found.join('\n')).toBe('');
  }, 300_000);

  /** Every option part any variant of the entry gives: a variant may be tried with the others' parts too. */
  const pool = (variants: Variant[], door: string): string[][] => {
    const all = variants.filter((v) => v.door === door).flatMap((v) => v.parts);
    return [...new Map(all.map((p) => [p.filter((w) => w.startsWith('--')).join(' '), p])).values()];
  };

  it("each variant with each part of its entry's other variants: applied, or refused", async () => {
    const variants = VARIANTS();
    for (const v of variants) {
      const own = new Set(v.parts.map((p) => p.filter((w) => w.startsWith('--')).join(' ')));
      for (const p of pool(variants, v.door)) {
        if (own.has(p.filter((w) => w.startsWith('--')).join(' '))) continue;
        note(await watchedRun([...v.base(), ...p], v.ready));
      }
    }
    expect(found.join('\n')).toBe('');
  }, 600_000);

  it('subsets of the parts of an entry, chosen by fast-check', async () => {
    const variants = VARIANTS();
    // Start-up commands take a second or more each; the others a fraction of one.
    const pick = fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...variants.filter((v) => !v.ready)) },
      { weight: 1, arbitrary: fc.constantFrom(...variants.filter((v) => v.ready)) },
    );
    await fc.assert(
      fc.asyncProperty(
        pick.chain((v) =>
          fc.subarray(pool(variants, v.door), { maxLength: Math.min(6, pool(variants, v.door).length) }).map((parts) => ({ v, parts })),
        ),
        async ({ v, parts }) => {
          note(await watchedRun([...v.base(), ...parts.flat()], v.ready));
        },
      ),
      { numRuns: fuzzRuns(25), seed: fuzzSeed(34) },
    );
    expect(found.join('\n')).toBe('');
  }, 600_000);

  it('over the runs, every option of every entry was read', () => {
    const unread = Object.values(DOORS)
      .filter((d) => !d.hidden)
      .flatMap((d) => d.flags.filter((f) => !seen.get(d.name)?.has(f)).map((f) => `${d.name} --${f}`));
    expect(unread).toEqual([]);
  });
});

describe('an option outside an entry', () => {
  const visible = Object.entries(DOORS).filter(([, d]) => !d.hidden);
  const everyFlag = [...new Set(Object.values(DOORS).flatMap((d) => d.flags))];
  /** An invocation of an entry (its name's words), with one option it does not take. */
  const argvOf = (name: string, flag: FlagName): string[] => {
    const words = name === 'report --leaderboard' ? ['report', '--leaderboard', 'dir'] : name.split(' ');
    return [...words, `--${flag}`, ...(OPTIONS[flag].type === 'string' ? ['x'] : [])];
  };

  it('is refused in one line naming it, before the command reads anything', async () => {
    const cases = fc.constantFrom(...visible).chain(([name, d]) => {
      const foreign = everyFlag.filter((f) => !d.flags.includes(f));
      return fc.constantFrom(...foreign).map((flag) => ({ name, flag }));
    });
    await fc.assert(
      fc.asyncProperty(cases, async ({ name, flag }) => {
        const argv = argvOf(name, flag);
        const reads = new Set<string>();
        const unwatch = watchFlagReads((f) => reads.add(f));
        let err = '';
        let code: number;
        try {
          code = await main(argv, { out: () => {}, err: (t) => (err += `${t}\n`) });
        } finally {
          unwatch();
        }
        expect(code, argv.join(' ')).toBe(2);
        expect(err.trim().split('\n'), argv.join(' ')).toHaveLength(1);
        expect(err, argv.join(' ')).toContain(`--${flag}`);
        expect([...reads], argv.join(' ')).toEqual([]);
      }),
      { numRuns: fuzzRuns(200), seed: fuzzSeed(34) },
    );
  });
});
