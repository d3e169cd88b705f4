// skillbridge workflows: every workflow a conversation can run, with the paper and
// section it comes from and the stages a turn may run (the trace's stage names).
import { WORKFLOWS } from '../../../agents/workflows';
import { type Parsed, UsageError } from '../args';
import { type Output, json } from '../output';

export function workflowsCommand(p: Parsed, o: Output): number {
  if (p.positionals.length) throw new UsageError(`"skillbridge workflows" takes no arguments, got "${p.positionals.join(' ')}"`);
  if (p.flags['json']) {
    json(
      o,
      WORKFLOWS.map((w) => ({
        id: w.id,
        title: w.title,
        paper: w.paper,
        section: w.section,
        source: w.source,
        stages: [...w.stages],
        description: w.description,
      })),
    );
    return 0;
  }
  const width = Math.max(...WORKFLOWS.map((w) => w.id.length));
  for (const w of WORKFLOWS) {
    o.out(`${w.id.padEnd(width)}  ${w.title}`);
    o.out(`${''.padEnd(width)}  paper ${w.paper} ${w.section}, ${w.source}; stages: ${w.stages.join(' → ')}`);
  }
  o.out(
    `\n${WORKFLOWS.length} workflows. Run one: skillbridge run --scene S --workflow ID --model SPEC "…"; details: skillbridge workflows --json`,
  );
  return 0;
}
