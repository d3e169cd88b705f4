// RAIDER (paper 001 §4): issue detection and explanation over the taxonomy of
// issue type (IA, IU1–IU6, IN) × query type (QS, QU) × abstraction (AS, AN, AR, AC).
// Det is the headline; baselines (Precond, LLMVisualObs, VQA, LLMAgentVQA) and the
// prompt ablations (BASIC, QGEN, GRND, QGEN_GRND) are separate runs, each a row.
import { COMMON_METRICS, type SuiteReportSpec } from '../spec';

const pct = 'percent' as const;

export const raiderReport: SuiteReportSpec = {
  suite: 'raider',
  title: 'RAIDER: action issue detection, explanation and recovery',
  source: 'RAIDER (paper 001) §4.1–4.3, Table 1, Figures 10–12',
  headline: {
    metric: 'det_kappa',
    scale: 1,
    caseMetric: 'expl',
    description:
      "Det κ: Cohen's κ of the verdict (ambiguity / unfeasibility / none) against the gold over the finished cases — a constant answer scores 0; a case's own score (and pass^k) is its structured Expl",
  },
  metrics: {
    ...COMMON_METRICS,
    det_kappa: {
      key: 'verdict',
      label: 'Det κ',
      description: "chance-corrected issue detection: Cohen's κ of the verdict category against the gold (the paper's Det is beside it)",
      format: 'ratio',
      aggregate: { kind: 'kappa', predicted: 'verdict', actual: 'verdict_gold' },
    },
    grnd: {
      key: 'grnd',
      label: 'Grnd',
      description: 'grounding success: of the cases that need grounding, grounded to the right objects or the ambiguity detected',
      format: pct,
    },
    det: {
      key: 'det',
      label: 'Det (raw)',
      description:
        'the paper\'s issue detection success: the verdict\'s category is right (a constant "unfeasibility" gets 6 types of 8); raw: not credit',
      format: pct,
      raw: true,
    },
    expl: {
      key: 'expl',
      label: 'Expl',
      description:
        'explanation success: the structured answer names the issue type and exactly the objects involved (a false object or a second issue loses)',
      format: pct,
    },
    time: { key: 'duration_s', label: 'Time (s)', description: 'time to detect and explain the issue', format: 'seconds' },
    expl_judge: {
      key: 'expl_judge',
      label: 'Expl (judge)',
      description: "explanation judged correct by the user's own model (eval --judge), reported apart from the structural Expl",
      format: pct,
      optional: true,
    },
    recov_plan: {
      key: 'recov_plan',
      label: 'Recov_Plan',
      description: "a recovery, from a correct structured explanation, that reaches the action's goal when run in the physics (§4.3)",
      format: pct,
    },
  },
  summary: ['det_kappa', 'grnd', 'det', 'expl', 'time', 'recov_plan', 'expl_judge'],
  axes: [
    {
      key: 'issue',
      label: 'Issue type',
      values: [
        { value: 'IA', description: 'ambiguity: two or more items match the query' },
        { value: 'IN', description: 'no issue' },
        { value: 'IU1', description: 'target not within reach' },
        { value: 'IU2', description: 'target obstructed' },
        { value: 'IU3', description: 'target not present' },
        { value: 'IU4', description: 'target in the wrong state' },
        { value: 'IU5', description: 'common sense: target with wrong properties' },
        { value: 'IU6', description: 'robot issue, e.g. holding or not holding an object' },
      ],
    },
    {
      key: 'query',
      label: 'Query type',
      values: [
        { value: 'QS', description: 'structured, e.g. open(microwave)' },
        { value: 'QU', description: 'unstructured natural language' },
      ],
    },
    {
      key: 'abstraction',
      label: 'Abstraction',
      values: [
        { value: 'AS', description: 'specific arguments' },
        { value: 'AN', description: 'argument by category or attribute' },
        { value: 'AR', description: 'argument by spatial relationship' },
        { value: 'AC', description: 'argument by conditioned state' },
      ],
    },
  ],
  categoryAxis: 'issue',
  tables: [
    {
      id: 'methods',
      title: 'Method comparison and prompt ablations',
      caption:
        'Grounding, issue detection and explanation success (%) and time per case, one row per run: RAIDER, its baselines and its prompt ablations (paper 001 Figures 10 and 11).',
      rowKeys: ['variant', 'model'],
      groups: [
        {
          columns: [
            { metric: 'det_kappa' },
            { metric: 'grnd' },
            { metric: 'det' },
            { metric: 'expl' },
            { metric: 'time' },
            { metric: 'recov_plan' },
          ],
        },
        { label: 'Free-text judge (optional)', columns: [{ metric: 'expl_judge' }] },
      ],
    },
    {
      id: 'by-issue',
      title: 'Explanation success by issue type',
      caption: 'Expl (%) per issue type, as paper 001 Table 1.',
      rowKeys: ['variant', 'model'],
      groups: [
        {
          label: 'Expl by issue type (%)',
          columns: ['IA', 'IN', 'IU1', 'IU2', 'IU3', 'IU4', 'IU5', 'IU6'].map((v) => ({
            metric: 'expl',
            label: v,
            where: { axis: 'issue', value: v },
          })),
        },
      ],
    },
  ],
  breakdowns: [
    { id: 'cell', title: 'Det per taxonomy cell (issue × query × abstraction)', axes: ['issue', 'query', 'abstraction'], metric: 'det' },
    { id: 'query-abstraction', title: 'Expl by abstraction level and query type', axes: ['abstraction', 'query'], metric: 'expl' },
  ],
  failureClasses: [
    { value: 'GR', label: 'Grounding', description: 'the query was not grounded to the right objects' },
    { value: 'MC', label: 'Missed check', description: 'a necessary check was omitted' },
    { value: 'WR', label: 'Wrong reasoning', description: 'all information gathered, wrong conclusion' },
    { value: 'WF', label: 'Wrong tool-call format', description: 'tool calls did not follow the format' },
  ],
};
