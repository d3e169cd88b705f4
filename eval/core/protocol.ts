// A suite's protocol: the workflows and tool sets its scores are defined for
// (its paper's setup, or its own where it has no paper). Another workflow runs
// the same cases through other tools (ALRM through ETP's 43-tool registry) and
// its score does not compare with the paper's or with on-protocol runs, so the
// runner refuses it unless asked (--off-protocol) and then marks the run in the
// results database and in every table and report.
import type { EvalCase } from './case';
import { OFF_PROTOCOL } from '../results/off-protocol';
import type { SuiteProtocol } from './suite';

export { OFF_PROTOCOL, isOffProtocol, markedVariant } from '../results/off-protocol';

/** The suite's protocol; a suite that declares none is defined for the workflows it lists. */
export function protocolOf(suite: { workflows: readonly string[]; protocol?: SuiteProtocol }): SuiteProtocol {
  return suite.protocol ?? { workflows: suite.workflows, toolSets: [] };
}

/**
 * Why a run of `workflow` over `cases` is off the suite's protocol (one line
 * naming the allowed workflows and tool sets and --off-protocol), or undefined.
 */
export function offProtocolReason(
  suite: { id: string; workflows: readonly string[]; protocol?: SuiteProtocol },
  workflow: string,
  cases: readonly Pick<EvalCase, 'id' | 'toolSet'>[] = [],
): string | undefined {
  const p = protocolOf(suite);
  const allowed = `${suite.id} is defined for workflow${p.workflows.length === 1 ? '' : 's'} ${p.workflows.join(', ')}${
    p.toolSets.length ? ` with tool set${p.toolSets.length === 1 ? '' : 's'} ${p.toolSets.join(', ')}` : ''
  }`;
  const fix = `add --off-protocol to run it anyway, marked "${OFF_PROTOCOL}" in the results and every report`;
  if (!p.workflows.includes(workflow)) return `workflow "${workflow}" is off the ${suite.id} protocol: ${allowed}; ${fix}`;
  const odd = p.toolSets.length ? cases.find((c) => c.toolSet !== undefined && !p.toolSets.includes(c.toolSet)) : undefined;
  if (odd) return `case ${odd.id} uses tool set "${odd.toolSet}", off the ${suite.id} protocol: ${allowed}; ${fix}`;
  return undefined;
}
