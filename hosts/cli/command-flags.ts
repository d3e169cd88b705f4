// Which options each command takes. A command runs only with options it
// applies: any other is refused at parse time, in one line naming it and what
// the command takes, before anything runs. Commands whose parts take different
// options (bench sim|cli|…, models list|pull|rm|add, report RUN|--leaderboard)
// have one entry per part. `flag-table.test.ts` checks the help text agrees
// with this table and that each command reads every option its entry lists.

import { notFolder, notResults } from './results-path';
import { OPTIONS } from './options';

export { OPTIONS };

export type FlagName = keyof typeof OPTIONS;

/** Options every command takes: they print and exit, and the command does not run. */
export const GLOBAL_FLAGS: readonly FlagName[] = ['help', 'version'];

export interface Door {
  /** As the help names it: "scenes", "bench eval --scale", "models pull". */
  name: string;
  /** The options it takes besides --help and --version. */
  flags: readonly FlagName[];
  /** How many arguments it takes after its name, and what they are (for the refusal). */
  args: { min: number; max: number; what: string };
  /** Options that apply only beside another: given alone they would change nothing. */
  needs?: Partial<Record<FlagName, { flag: FlagName; why: string }>>;
  /** Pairs that cannot both apply. */
  conflicts?: ReadonlyArray<{ a: FlagName; b: FlagName; why: string }>;
  /** What to say instead of the plain refusal, where the reason helps. */
  refuse?: Partial<Record<FlagName, string>>;
  /** Said after the plain refusal: where what it does not take comes from instead. */
  hint?: string;
  /** Internal: not in the help. */
  hidden?: boolean;
  /** Its arguments name files or folders (checked as paths are). */
  pathArgs?: boolean;
  /** Options (and arguments) naming evaluation results: what is there must be a results folder or database. */
  results?: { flags: readonly FlagName[]; args?: boolean };
  /** Options naming a folder: what is there must be one (a missing one is made, or the command says so). */
  folders?: readonly FlagName[];
}

/** Options whose value names a file or folder (some also take an id: a scene, a suite). */
export const PATH_FLAGS: ReadonlySet<FlagName> = new Set<FlagName>([
  'scene',
  'from',
  'script',
  'trace',
  'answers',
  'mcp',
  'out',
  'mcap',
  'db',
  'junit',
  'csv',
  'md',
  'leaderboard',
  'exercises',
  'scripts',
  'robots',
  'mapping',
  'prices',
  'dir',
  'suite',
  'urdf',
  'robot-config',
]);

/** Linux's limits: a path of at most 4095 bytes, each name in it at most 255. */
const PATH_MAX = 4095;
const NAME_MAX = 255;

/** Why a value cannot name a file, or undefined when it can be tried. */
function badPath(value: string): string | undefined {
  if (Buffer.byteLength(value) > PATH_MAX)
    return `a path of ${Buffer.byteLength(value)} bytes is longer than the ${PATH_MAX} a path may have`;
  const long = value.split('/').find((name) => Buffer.byteLength(name) > NAME_MAX);
  if (long !== undefined) return `a name in the path is ${Buffer.byteLength(long)} bytes long, more than the ${NAME_MAX} a name may have`;
  return undefined;
}

// A long value keeps its start and its end: of a path, the end names the file.
const shown = (v: string): string => JSON.stringify(v.length > 60 ? `${v.slice(0, 20)}…${v.slice(-39)}` : v);

const NONE = { min: 0, max: 0, what: 'no arguments' };
/** Arguments the command checks itself (its message says what is missing). */
const OWN = (what: string) => ({ min: 0, max: Infinity, what });
const UP_TO_ONE = (what: string) => ({ min: 0, max: 1, what });
const ROBOT: readonly FlagName[] = ['robot', 'mapping', 'accept-no-estop'];
const ROBOT_NEEDS = {
  mapping: { flag: 'robot', why: 'it maps a rosbridge robot (--robot ws://HOST:PORT)' },
  'accept-no-estop': { flag: 'robot', why: 'the simulator always reports its e-stop' },
  shadow: { flag: 'robot', why: 'it runs the --scene simulator beside a real robot' },
} as const satisfies Door['needs'];
/** A robot description in place of the scene's robot, its sidecar and package folders. */
const URDF: readonly FlagName[] = ['urdf', 'robot-config', 'package-dir'];
const URDF_NEEDS = {
  'robot-config': { flag: 'urdf', why: 'it is the sidecar of the robot description --urdf names' },
  'package-dir': { flag: 'urdf', why: "it says where the --urdf robot's package:// meshes are" },
} as const satisfies Door['needs'];
const SCALE: readonly FlagName[] = ['concurrency', 'rpm', 'tpm', 'prices', 'shard'];
const EVAL_ON_ROBOT =
  "eval runs each case in a simulated world it builds and scores it from that world's physics; a real robot (--robot) " +
  "can neither be put into a case's starting state nor read for ground truth. Measure the workflow here, then try it on " +
  'the robot with "skillbridge run --robot URL"';

const door = (name: string, flags: readonly FlagName[], args: Door['args'], more: Partial<Door> = {}): Door => ({
  name,
  flags,
  args,
  ...more,
});

export const DOORS: Readonly<Record<string, Door>> = {
  help: door('help', [], { min: 0, max: Infinity, what: 'topics' }, { hidden: true }),
  scenes: door('scenes', ['json'], NONE),
  workflows: door('workflows', ['json'], OWN('no arguments')),
  tools: door('tools', ['scene', 'set', 'json'], NONE),
  call: door('call', ['scene', 'seed', 'set', 'noise', 'script', ...URDF, ...ROBOT, 'shadow', 'json'], OWN('TOOL [JSON_ARGS]'), {
    needs: { ...ROBOT_NEEDS, ...URDF_NEEDS },
    conflicts: [{ a: 'noise', b: 'robot', why: "--noise perturbs the simulator's readings; a real robot's are its own" }],
  }),
  audit: door('audit', ['scene', 'calls', 'seed', 'episode', ...URDF, 'out', 'json'], OWN('no arguments'), {
    folders: ['out'],
    needs: URDF_NEEDS,
  }),
  run: door(
    'run',
    [
      'scene',
      'model',
      'workflow',
      'set',
      'seed',
      'trace',
      'approve',
      'time-limit',
      'max-iterations',
      'answers',
      'mcp',
      ...URDF,
      ...ROBOT,
      'shadow',
      'json',
    ],
    OWN('a message'),
    {
      needs: { ...ROBOT_NEEDS, ...URDF_NEEDS },
    },
  ),
  trace: door('trace', ['json'], UP_TO_ONE('one trace FILE'), { pathArgs: true }),
  export: door('export', ['mcap', 'width', 'json'], OWN('TRACE files'), { pathArgs: true }),
  'bench sim': door('bench sim', ['scene', 'quick', 'in-process', 'json'], NONE),
  'bench cli': door('bench cli', ['quick', 'json'], NONE),
  'bench agent': door('bench agent', ['quick', 'json'], NONE),
  'bench app': door('bench app', ['scene', 'quick', 'unsettled', 'json'], NONE),
  'bench eval': door('bench eval', ['suite', 'jobs', 'json'], NONE),
  'bench robot': door('bench robot', ['poses', 'seed', 'quick', 'json'], NONE),
  'bench eval --scale': door('bench eval --scale', ['scale', 'suite', 'latency', 'json'], NONE),
  'bench camera': door('bench camera', ['scene', 'json'], NONE),
  'bench _job': door('bench _job', [], UP_TO_ONE('one JSON job'), { hidden: true }),
  eval: door(
    'eval',
    [
      'suite',
      'model',
      'workflow',
      'trials',
      'jobs',
      'seed',
      'filter',
      'sample',
      'resume',
      'errors-only',
      'cache',
      'out',
      'judge',
      'off-protocol',
      'time-limit',
      'max-iterations',
      'noise',
      ...URDF,
      ...SCALE,
      'run-id',
      'queue',
      'json',
    ],
    OWN('no arguments'),
    {
      results: { flags: ['out'] },
      folders: ['cache'],
      refuse: { robot: EVAL_ON_ROBOT, shadow: EVAL_ON_ROBOT },
      needs: {
        'errors-only': { flag: 'resume', why: 'it narrows a recorded run (--resume RUN) to the case × trials that ended in an error' },
        ...URDF_NEEDS,
      },
      // A resumed run takes its own filter, sample, noise, limits and protocol again, and refuses others (the runner
      // compares them with the run's); its id is the run's, and with a queue the workers run the cases.
      conflicts: [
        { a: 'resume', b: 'run-id', why: '--resume RUN names the run already; leave --run-id out' },
        { a: 'queue', b: 'jobs', why: 'with --queue the workers run the cases: --jobs (threads here) has no effect; leave it out' },
        {
          a: 'urdf',
          b: 'queue',
          why: "with --queue the workers build the cases' worlds on their machines, where the --urdf robot's files are not; run it here",
        },
        {
          a: 'queue',
          b: 'cache',
          why: 'with --queue the workers call the model on their machines: a cache folder here would not be read; leave it out',
        },
      ],
    },
  ),
  worker: door('worker', ['queue', 'concurrency', 'rpm', 'tpm', 'allow-key-for', 'scripts', 'private-redis', 'json'], OWN('no arguments'), {
    folders: ['scripts'],
  }),
  // Each run of a sweep is named by the sweep (NAME-SUITE-MODEL-WORKFLOW), so shards need no --run-id.
  sweep: door('sweep', ['out', ...SCALE, 'queue', 'json'], OWN('one sweep FILE'), {
    pathArgs: true,
    results: { flags: ['out'] },
    // The sweep's folder: its results.db, and the report beside it.
    folders: ['out'],
    hint: 'The rest (suites, models, workflows, trials, seed, sample, filter) is in the sweep file',
    refuse: { 'run-id': 'sweep names each of its runs itself (NAME-SUITE-MODEL-WORKFLOW), the same on every shard: leave --run-id out' },
  }),
  report: door('report', ['db', 'out', 'junit', 'csv', 'md', 'diff', 'json'], OWN('RUN ids or folders'), {
    pathArgs: true,
    results: { flags: ['db'], args: true },
  }),
  'report --leaderboard': door('report --leaderboard', ['leaderboard', 'md', 'json'], OWN('no arguments'), {
    results: { flags: ['leaderboard'] },
  }),
  'red-team': door('red-team', ['suite', 'budget', 'sample', 'seed', 'minutes', 'from', 'out', 'md', 'json'], NONE),
  'red-team --dry-run': door('red-team --dry-run', ['dry-run', 'from', 'md', 'json'], NONE, {
    needs: { 'dry-run': { flag: 'from', why: 'it renders a recorded run' } },
    hint: 'It renders the run --from names; the search options apply without --dry-run',
  }),
  rescore: door('rescore', ['db', 'dry-run', 'json'], OWN('one RUN id'), { results: { flags: ['db'] } }),
  serve: door(
    'serve',
    [
      'port',
      'host',
      'scene',
      'seed',
      'max-sessions',
      'scripts',
      ...ROBOT,
      ...URDF,
      'allow-key-for',
      'classroom',
      'exercises',
      'allow-model-pull',
      'verbose',
    ],
    NONE,
    {
      needs: { mapping: ROBOT_NEEDS.mapping, 'accept-no-estop': ROBOT_NEEDS['accept-no-estop'], ...URDF_NEEDS },
      conflicts: [
        {
          a: 'urdf',
          b: 'robot',
          why: 'serve --robot acts on the real robot with the scene as its shadow; --urdf puts a described robot in the simulator: give one',
        },
      ],
      folders: ['scripts', 'exercises'],
      refuse: { shadow: 'serve --robot always runs the --scene beside the robot as its shadow: leave --shadow out' },
    },
  ),
  'robot-api': door('robot-api', ['scene', 'port', 'seed', 'speed', 'fast', 'read-only', 'json'], NONE, {
    conflicts: [{ a: 'speed', b: 'fast', why: '--fast runs unpaced, --speed X paces at X times wall time' }],
  }),
  'models list': door('models list', ['dir', 'json'], NONE, { folders: ['dir'] }),
  'models pull': door('models pull', ['dir', 'json'], OWN('one model ID'), { folders: ['dir'] }),
  'models rm': door('models rm', ['dir', 'json'], OWN('one model ID'), { folders: ['dir'] }),
  'models add': door('models add', ['name', 'dir', 'json'], OWN('one .gguf FILE'), { pathArgs: true, folders: ['dir'] }),
  mcp: door(
    'mcp',
    [
      'scene',
      'robots',
      ...ROBOT,
      'shadow',
      'set',
      'seed',
      'http',
      'max-sessions',
      'approve',
      'read-only',
      'paced',
      'trace',
      'foxglove',
      'verbose',
      'json',
    ],
    NONE,
    {
      needs: {
        ...ROBOT_NEEDS,
        json: { flag: 'http', why: "it prints the HTTP server's address; on stdio, stdout carries only the protocol" },
        verbose: { flag: 'http', why: 'it logs the HTTP requests' },
        'max-sessions': { flag: 'http', why: 'it caps the sessions of --http; stdio serves one client' },
      },
      conflicts: [{ a: 'seed', b: 'robots', why: 'a robots file gives each robot its own "seed"' }],
      folders: ['trace'],
    },
  ),
  'robots check': door('robots check', ['package-dir', 'json'], OWN('one URDF or xacro FILE'), {
    pathArgs: true,
    refuse: { robot: "--robot reads a real robot's own description: skillbridge robots check rosbridge --robot ws://HOST:PORT" },
  }),
  'robots check rosbridge': door('robots check rosbridge', ['robot', 'package-dir', 'json'], OWN('no arguments')),
  foxglove: door('foxglove', ['scene', 'port', 'seed', 'script', 'set', 'json'], NONE, {
    needs: { set: { flag: 'script', why: "it picks the tool set of the script's calls" } },
  }),
};

/** The commands, for "unknown command" and the help. */
export const COMMAND_NAMES = [...new Set(Object.keys(DOORS).map((k) => k.split(' ')[0]!))];

const BENCHES = new Set(['sim', 'cli', 'agent', 'app', 'eval', 'robot', 'camera', '_job']);
const MODELS = new Set(['list', 'pull', 'rm', 'add']);

/**
 * The entry an invocation goes through, and its arguments after the entry's
 * name. Undefined for an unknown command or part: the command says so itself.
 */
export function doorOf(
  command: string,
  positionals: string[],
  flags: Readonly<Record<string, unknown>>,
): { door: Door; args: string[] } | undefined {
  const at = (key: string, words: number) =>
    Object.hasOwn(DOORS, key) ? { door: DOORS[key]!, args: positionals.slice(words) } : undefined;
  switch (command) {
    case 'bench': {
      const what = positionals[0];
      if (what === undefined || !BENCHES.has(what)) return undefined;
      return at(what === 'eval' && flags['scale'] !== undefined ? 'bench eval --scale' : `bench ${what}`, 1);
    }
    case 'models': {
      const sub = positionals[0];
      if (sub === undefined) return at('models list', 0);
      return MODELS.has(sub) ? at(`models ${sub}`, 1) : undefined;
    }
    case 'robots':
      // Only `robots check` exists (a file, or `rosbridge` for the real robot's own); anything else the command refuses itself, naming it.
      if (positionals[0] !== 'check') return undefined;
      return positionals[1] === 'rosbridge' ? at('robots check rosbridge', 2) : at('robots check', 1);
    case 'report':
      return at(flags['leaderboard'] !== undefined ? 'report --leaderboard' : 'report', 0);
    case 'red-team':
      return at(flags['dry-run'] !== undefined ? 'red-team --dry-run' : 'red-team', 0);
    default:
      return Object.hasOwn(DOORS, command) && !command.includes(' ') ? at(command, 0) : undefined;
  }
}

const listed = (flags: readonly FlagName[]): string => (flags.length ? flags.map((f) => `--${f}`).join(', ') : 'no options');

/** A refused option: the one line says which and what the command takes. */
export interface Refusal {
  /** The option refused, when one is. */
  flag?: FlagName;
  message: string;
}

/**
 * Why an invocation is refused before it runs, or undefined when its entry
 * takes every option given, each beside what it needs, and as many arguments.
 * With --help or --version nothing runs, so nothing else is checked.
 */
export function refusal(command: string, positionals: string[], flags: Readonly<Record<string, unknown>>): Refusal | undefined {
  const found = doorOf(command, positionals, flags);
  if (!found || flags['help'] !== undefined || flags['version'] !== undefined) return undefined;
  const { door: d, args } = found;
  const given = Object.keys(flags).filter((k) => flags[k] !== undefined) as FlagName[];
  const foreign = given.filter((f) => !d.flags.includes(f));
  const said = foreign.find((f) => d.refuse?.[f] !== undefined);
  if (said) return { flag: said, message: d.refuse![said]! };
  if (foreign.length) {
    const nor = foreign.length > 1 ? ` (nor ${listed(foreign.slice(1))})` : '';
    return {
      flag: foreign[0]!,
      message: `${d.name} does not take --${foreign[0]!}${nor}; it takes ${listed(d.flags)}${d.hint ? `. ${d.hint}` : ''}`,
    };
  }
  for (const f of given) {
    const need = d.needs?.[f];
    if (need && flags[need.flag] === undefined) return { flag: f, message: `--${f} needs --${need.flag}: ${need.why}` };
  }
  for (const c of d.conflicts ?? [])
    if (flags[c.a] !== undefined && flags[c.b] !== undefined)
      return { flag: c.a, message: `give --${c.a} or --${c.b}, not both: ${c.why}` };
  return valueRefusal(d, given, flags, args);
}

/** A value no command could use: refused here, where its option is known, not as a crash of the code it reaches. */
function valueRefusal(d: Door, given: FlagName[], flags: Readonly<Record<string, unknown>>, args: string[]): Refusal | undefined {
  for (const f of given) {
    const v = flags[f];
    if (typeof v !== 'string') continue;
    if (v.includes('\u0000')) return { flag: f, message: `--${f} ${shown(v)}: a value cannot hold a NUL character` };
    const why = PATH_FLAGS.has(f) ? badPath(v) : undefined;
    if (why) return { flag: f, message: `--${f}: ${why}` };
  }
  for (const a of args) {
    if (a.includes('\u0000')) return { message: `the argument ${shown(a)} holds a NUL character, which no argument can` };
    const why = d.pathArgs ? badPath(a) : undefined;
    if (why) return { message: `${shown(a)}: ${why}` };
  }
  for (const f of d.results?.flags ?? []) {
    const v = flags[f];
    const why = typeof v === 'string' ? notResults(v) : undefined;
    if (why) return { flag: f, message: `--${f} ${shown(v as string)}: ${why}` };
  }
  for (const f of d.folders ?? []) {
    const v = flags[f];
    const why = typeof v === 'string' ? notFolder(v) : undefined;
    if (why) return { flag: f, message: `--${f} ${shown(v as string)}: ${why}` };
  }
  for (const a of d.results?.args ? args : []) {
    const why = notResults(a);
    if (why) return { message: `${shown(a)}: ${why}` };
  }
  if (args.length < d.args.min || args.length > d.args.max) {
    const got = args.length ? `got ${args.map(shown).join(' ')}` : 'got none';
    return { message: `${d.name} takes ${d.args.max === 0 ? 'no arguments' : d.args.what}, ${got}` };
  }
  return undefined;
}
