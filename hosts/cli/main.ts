// The skillbridge command line. Every failure ends as one line on stderr and a
// non-zero exit code: 2 for bad input, 1 for a tool call that failed, 70 for a bug.
import { phase } from '../../base/phase';
import { ResultsError } from '../../eval/results/errors';
import { EvalInputError } from '../../eval/runner/errors';
import { SceneDataError } from '../../scenes/validation';
import { FlagRefused, HELP, type Parsed, UsageError, parse } from './args';
import { ClosedOutputError, type Output, directStdio, json, stdio } from './output';

type Command = (p: Parsed, o: Output) => number | Promise<number>;

// Each command's modules load on first use: `scenes` never loads Rapier or the
// model client, and in the bundle each command is its own chunk.
const COMMANDS: Record<string, () => Promise<Command>> = {
  scenes: async () => (await import('./commands/scenes')).scenesCommand,
  tools: async () => (await import('./commands/tools')).toolsCommand,
  call: async () => (await import('./commands/call')).callCommand,
  bench: async () => (await import('./commands/bench')).benchCommand,
  run: async () => (await import('./commands/run')).runCommand,
  trace: async () => (await import('./commands/trace')).traceCommand,
  serve: async () => (await import('./commands/serve')).serveCommand,
  workflows: async () => (await import('./commands/workflows')).workflowsCommand,
  report: async () => (await import('./commands/report')).reportCommand,
  audit: async () => (await import('./commands/audit')).auditCommand,
  eval: async () => (await import('./commands/eval')).evalCommand,
  export: async () => (await import('./commands/export')).exportCommand,
  foxglove: async () => (await import('./commands/foxglove')).foxgloveCommand,
  mcp: async () => (await import('./commands/mcp')).mcpCommand,
  'robot-api': async () => (await import('./commands/robot-api')).robotApiCommand,
  worker: async () => (await import('./commands/worker')).workerCommand,
  models: async () => (await import('./commands/models')).modelsCommand,
  rescore: async () => (await import('./commands/rescore')).rescoreCommand,
  'red-team': async () => (await import('./commands/red-team')).redTeamCommand,
  sweep: async () => (await import('./commands/sweep')).sweepCommand,
  robots: async () => (await import('./commands/robots')).robotsCommand,
};

/** Commands that parse a handful of inputs and exit. */
const ONE_SHOT = new Set(['scenes', 'tools', 'call']);

/** Whether bin/skillbridge.js may end the process as soon as main returns: a one-shot command holds nothing open. */
export function exitsWhenDone(argv: string[]): boolean {
  try {
    return ONE_SHOT.has(parse(argv).command);
  } catch {
    return true; // a usage error: one line on stderr
  }
}

export async function main(argv: string[], out: Output = stdio): Promise<number> {
  let o = out;
  try {
    const p = parse(argv);
    // A one-shot command writes straight to the descriptors (output.ts), and the process ends when it returns.
    if (o === stdio && ONE_SHOT.has(p.command)) o = directStdio;
    // --version asks for the version alone: `skillbridge --version` (no command) too.
    if (p.flags['version'] && !p.flags['help']) {
      o.out('skillbridge 0.1.0');
      return 0;
    }
    if (p.flags['help'] || p.command === 'help') {
      o.out(HELP);
      return 0;
    }
    const load = Object.hasOwn(COMMANDS, p.command) ? COMMANDS[p.command] : undefined;
    if (!load)
      throw new UsageError(
        `unknown command "${p.command}". Commands: scenes, tools, workflows, call, run, trace, export, eval, report, rescore, red-team, audit, bench, serve, worker, sweep, models, robots, mcp, foxglove, robot-api. Run "skillbridge help".`,
      );
    // zod compiles each object schema into a function on its first parse: worth it in a
    // process that parses thousands of times, a loss in one that parses a few dozen.
    // Set before the command's schemas are built (they read it when constructed).
    if (ONE_SHOT.has(p.command)) (await import('zod')).config({ jitless: true });
    // A call on a scene compiles Rapier's wasm on V8's background threads while this
    // thread loads the command and the scene; a failure surfaces where the world is built.
    if (p.command === 'call' && !p.flags['robot']) void import('../../sim/rapier').then((r) => r.loadRapier()).catch(() => undefined);
    const command = await load();
    phase('command-loaded');
    return await command(p, o);
  } catch (e) {
    // The reader went away (`| head`): end quietly, as Unix tools do.
    if (e instanceof ClosedOutputError) return 0;
    const code =
      e instanceof UsageError
        ? 'usage'
        : (await isUnknownToolSet(e))
          ? 'unknown-tool-set'
          : e instanceof SceneDataError
            ? 'scene'
            : e instanceof ResultsError || e instanceof EvalInputError
              ? e.code
              : undefined;
    return say(() => {
      if (code) {
        // Under --json a bad input is a JSON object on stdout, as the command's answer would be.
        // (Not when --json itself was refused: that command does not speak JSON.)
        const asJson = argv.includes('--json') && !(e instanceof FlagRefused && e.flag === 'json');
        if (asJson) json(o, { error: { code, message: (e as Error).message } });
        else o.err(`skillbridge: ${oneLine((e as Error).message)}`);
        return 2;
      }
      o.err(
        `skillbridge: internal error: ${(e as Error).message ?? String(e)}${process.env['SKILLBRIDGE_DEBUG'] ? `\n${(e as Error).stack}` : ' (set SKILLBRIDGE_DEBUG=1 for details)'}`,
      );
      return 70;
    });
  }
}

/** A message of several lines (a list of problems) as the one line bad input gets: "X is not valid: a: …; b: …". */
export function oneLine(message: string): string {
  const [first = '', ...rest] = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return rest.length ? `${first} ${rest.map((l) => l.replace(/^- /, '')).join('; ')}` : first;
}

/** Reports a failure; should the output have been closed meanwhile, the exit code still tells it. */
function say(report: () => number): number {
  try {
    return report();
  } catch (e) {
    if (e instanceof ClosedOutputError) return 1;
    throw e;
  }
}

/** Only a command that loaded the tool sets can throw this, so on that path the import is free. */
async function isUnknownToolSet(e: unknown): Promise<boolean> {
  if (!(e instanceof Error) || e instanceof UsageError) return false;
  try {
    return e instanceof (await import('../../agents/tools/sets')).UnknownToolSetError;
  } catch {
    return false;
  }
}
