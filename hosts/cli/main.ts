// The skillbridge command line. Every failure ends as one line on stderr and a
// non-zero exit code: 2 for bad input, 1 for a tool call that failed, 70 for a bug.
import { UnknownToolSetError } from '../../agents/tools/sets';
import { ResultsError } from '../../eval/results/index';
import { SceneDataError } from '../../scenes/validation';
import { HELP, UsageError, parse } from './args';
import { EvalInputError } from '../../eval/runner/runner';
import { benchCommand } from './commands/bench';
import { evalCommand } from './commands/eval';
import { callCommand } from './commands/call';
import { runCommand } from './commands/run';
import { scenesCommand } from './commands/scenes';
import { reportCommand } from './commands/report';
import { serveCommand } from './commands/serve';
import { toolsCommand } from './commands/tools';
import { traceCommand } from './commands/trace';
import { type Output, json, stdio } from './output';

export async function main(argv: string[], o: Output = stdio): Promise<number> {
  try {
    const p = parse(argv);
    if (p.flags['help'] || p.command === 'help') {
      o.out(HELP);
      return 0;
    }
    if (p.flags['version']) {
      o.out('skillbridge 0.1.0');
      return 0;
    }
    switch (p.command) {
      case 'scenes':
        return scenesCommand(p, o);
      case 'tools':
        return await toolsCommand(p, o);
      case 'call':
        return await callCommand(p, o);
      case 'bench':
        return await benchCommand(p, o);
      case 'run':
        return await runCommand(p, o);
      case 'trace':
        return traceCommand(p, o);
      case 'serve':
        return await serveCommand(p, o);
      case 'report':
        return reportCommand(p, o);
      case 'eval':
        return await evalCommand(p, o);
      default:
        throw new UsageError(
          `unknown command "${p.command}". Commands: scenes, tools, call, run, trace, eval, report, bench, serve. Run "skillbridge help".`,
        );
    }
  } catch (e) {
    const code =
      e instanceof UsageError
        ? 'usage'
        : e instanceof UnknownToolSetError
          ? 'unknown-tool-set'
          : e instanceof SceneDataError
            ? 'scene'
            : e instanceof ResultsError || e instanceof EvalInputError
              ? e.code
              : undefined;
    if (code) {
      // Under --json a bad input is a JSON object on stdout, as the command's answer would be.
      if (argv.includes('--json')) json(o, { error: { code, message: (e as Error).message } });
      else o.err(`skillbridge: ${(e as Error).message}`);
      return 2;
    }
    o.err(
      `skillbridge: internal error: ${(e as Error).message ?? String(e)}${process.env['SKILLBRIDGE_DEBUG'] ? `\n${(e as Error).stack}` : ' (set SKILLBRIDGE_DEBUG=1 for details)'}`,
    );
    return 70;
  }
}
