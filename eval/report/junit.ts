// JUnit XML for CI dashboards: a testsuite per run, a testcase per case × trial.
// A trial that ran but did not succeed is a <failure>, one that crashed an <error>,
// one stopped by Ctrl-C is <skipped>.
import type { LoadedRun } from './load';
import { reportSpecFor } from './specs';
import { headline, headlineInterval } from './stats';
import { runLabel } from './tables';
import { OFF_PROTOCOL, isOffProtocol } from '../results/off-protocol';

function xml(s: string): string {
  // Characters XML 1.0 cannot carry at all are dropped.
  const clean = s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');
  return clean.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

const seconds = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(3);

/** The headline and its 95 % interval, for dashboards that read properties. */
function headlineProps(suite: string, results: LoadedRun['results']): Record<string, string> {
  const spec = reportSpecFor(suite);
  const h = headline(spec, results).value;
  const iv = headlineInterval(spec, results);
  if (h === null) return {};
  return {
    score: h.toFixed(4),
    ...(iv ? { score_low: iv.low.toFixed(4), score_high: iv.high.toFixed(4), interval: `${iv.method} 95%` } : {}),
  };
}

export function junitXml(runs: LoadedRun[]): string {
  let tests = 0;
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  let time = 0;
  const suites = runs.map(({ run, results }) => {
    const f = results.filter((r) => r.status === 'ok' && !r.success).length;
    const e = results.filter((r) => r.status === 'error').length;
    const s = results.filter((r) => r.status === 'stopped').length;
    const t = results.reduce((a, r) => a + (r.durationMs ?? 0), 0);
    tests += results.length;
    failures += f;
    errors += e;
    skipped += s;
    time += t;
    const props = {
      suite: run.suite,
      model: run.model,
      workflow: run.workflow,
      variant: run.variant ?? '',
      protocol: isOffProtocol(run) ? OFF_PROTOCOL : 'on protocol',
      commit: run.commit ?? '',
      seed: String(run.seed),
      ...headlineProps(run.suite, results),
    };
    const cases = results.map((r) => {
      const open = `    <testcase classname="${xml(`${run.suite}.${run.runId}`)}" name="${xml(`${r.caseId}#${r.trial}`)}" time="${seconds(r.durationMs)}"`;
      const detail = [r.failureClass ? `failure class: ${r.failureClass}` : '', r.tracePath ? `trace: ${r.tracePath}` : '']
        .filter(Boolean)
        .join('\n');
      if (r.status === 'stopped') return `${open}>\n      <skipped message="stopped before the trial finished"/>\n    </testcase>`;
      if (r.status === 'error')
        return `${open}>\n      <error message="${xml(r.error ?? 'error')}" type="${xml(r.errorKind ?? r.failureClass ?? 'error')}">${xml(detail)}</error>\n    </testcase>`;
      if (!r.success) {
        return `${open}>\n      <failure message="${xml(`score ${r.score ?? '—'}${r.failureClass ? ` (${r.failureClass})` : ''}`)}" type="${xml(r.failureClass ?? 'failed')}">${xml(detail)}</failure>\n    </testcase>`;
      }
      return `${open}/>`;
    });
    return [
      `  <testsuite name="${xml(`${runLabel(run)} [${run.runId}]`)}" tests="${results.length}" failures="${f}" errors="${e}" skipped="${s}" time="${seconds(t)}" timestamp="${xml(run.startedAt.slice(0, 19))}">`,
      '    <properties>',
      ...Object.entries(props).map(([k, v]) => `      <property name="${k}" value="${xml(v)}"/>`),
      '    </properties>',
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="skillbridge eval" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(time)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
