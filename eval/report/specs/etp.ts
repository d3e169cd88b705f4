// Embodied Tool Protocol / EmbodiedToolBench (paper 004 §3.2, Table 3): four tasks,
// each with its own metrics. A case carries only its task's metrics; aggregates skip
// the rest. Need recognition's precision, recall and F1 are over all its cases (from
// need_pred and need_true, 0/1); chain F1 and OCR are per-case means, as defined there.
// The headline is TUSR over the tool-execution cases.
import { COMMON_METRICS, type MetricSpec, type SuiteReportSpec } from '../spec';

const ratio = 'ratio' as const;
const need = (kind: 'accuracy' | 'precision' | 'recall' | 'f1', label: string, raw?: true): MetricSpec => ({
  key: 'need_pred',
  label: raw ? `${label} (raw)` : label,
  description: `tool-need recognition ${kind} (prediction need_pred against need_true)${raw ? "; raw: a constant answer scores well on it, so it is the paper's figure, not credit" : ''}`,
  format: ratio,
  aggregate: { kind, predicted: 'need_pred', actual: 'need_true' },
  ...(raw ? { raw } : {}),
});
/** The paper's chain figures over tool names alone (no arguments, no effect in the world): raw. */
const nameSet = (key: string, label: string, description: string): MetricSpec => ({
  key,
  label: `${label} (name set, raw)`,
  description: `${description}; raw: tool names only, not checked against the gold calls or the world`,
  format: ratio,
  raw: true,
});

export const etpReport: SuiteReportSpec = {
  suite: 'etp',
  title: 'EmbodiedToolBench: tool need, selection, execution and chain composition',
  source: 'Embodied Tool Protocol (paper 004) §3.2 tasks and metrics, Table 3, §4.5 error analysis',
  headline: {
    metric: 'tusr',
    scale: 1,
    where: { axis: 'task', value: 'execution' },
    description: 'TUSR: tool-execution cases whose invocation is valid and whose next action matches (ISR ∧ AMR)',
  },
  caseScoreFallback: ['need_correct', 'csr', 'chain_goal'],
  metrics: {
    ...COMMON_METRICS,
    need_acc: need('accuracy', 'Acc.'),
    need_prec: need('precision', 'Prec.', true),
    need_rec: need('recall', 'Rec.', true),
    need_f1: need('f1', 'F1', true),
    need_correct: { key: 'need_correct', label: 'Need ok', description: 'the need decision matches the label', format: ratio },
    csr: { key: 'csr', label: 'CSR', description: 'correct selection rate: the right tool of four candidates', format: ratio },
    isr: { key: 'isr', label: 'ISR', description: 'input construction: a well-formed invocation', format: ratio },
    amr: { key: 'amr', label: 'AMR', description: 'action match: the next action after the tool output matches', format: ratio },
    tusr: { key: 'tusr', label: 'TUSR', description: 'tool usage success: ISR and AMR both', format: ratio },
    chain_acc: {
      key: 'chain_acc',
      label: 'Acc.',
      description: 'the predicted tool set equals the minimal set and the chain reached its goal in the world',
      format: ratio,
    },
    chain_goal: { key: 'chain_goal', label: 'Goal', description: "the chain's goal holds in the world at the end", format: ratio },
    chain_prec: nameSet('chain_precision', 'Prec.', 'precision of the predicted tool set'),
    chain_rec: nameSet('chain_recall', 'Rec.', 'recall of the predicted tool set'),
    chain_f1: nameSet('chain_f1', 'F1', 'per-case F1 of the predicted tool set'),
    ocr: { key: 'ocr', label: 'OC', description: 'order consistency: ordering constraints respected', format: ratio },
  },
  summary: ['need_f1', 'csr', 'isr', 'amr', 'tusr', 'chain_goal', 'chain_acc', 'chain_f1', 'ocr'],
  axes: [
    {
      key: 'task',
      label: 'Task',
      values: [
        { value: 'need', label: 'Tool-need recognition' },
        { value: 'selection', label: 'Tool selection' },
        { value: 'execution', label: 'Tool execution' },
        { value: 'chain', label: 'Tool-chain composition' },
      ],
    },
    { key: 'difficulty', label: 'Difficulty', values: [{ value: 'easy' }, { value: 'medium' }, { value: 'hard' }] },
    {
      key: 'capability',
      label: 'Capability',
      values: [{ value: 'perception' }, { value: 'cognition' }, { value: 'reasoning' }, { value: 'execution' }],
    },
    // Our scenes stand in for EB-ALFRED, EB-Habitat, EB-Navigation and EB-Manipulation.
    { key: 'scene', label: 'Scene', values: [] },
  ],
  categoryAxis: 'task',
  tables: [
    {
      id: 'table-3',
      title: 'Tool-use competence',
      caption: 'One row per run; abbreviations as paper 004 §3.2. Layout of paper 004 Table 3.',
      rowKeys: ['model', 'variant'],
      groups: [
        {
          label: 'Tool-need recognition',
          columns: [{ metric: 'need_acc' }, { metric: 'need_prec' }, { metric: 'need_rec' }, { metric: 'need_f1' }],
        },
        { label: 'Tool selection', columns: [{ metric: 'csr' }] },
        { label: 'Tool execution', columns: [{ metric: 'isr' }, { metric: 'amr' }, { metric: 'tusr' }] },
        {
          label: 'Tool-chain composition',
          columns: [
            { metric: 'chain_goal' },
            { metric: 'chain_acc' },
            { metric: 'chain_prec' },
            { metric: 'chain_rec' },
            { metric: 'chain_f1' },
            { metric: 'ocr' },
          ],
        },
      ],
    },
  ],
  breakdowns: [
    { id: 'task-difficulty', title: 'Case score by task and difficulty', axes: ['task', 'difficulty'], metric: 'score' },
    { id: 'capability-scene', title: 'Case score by capability and scene', axes: ['capability', 'scene'], metric: 'score' },
  ],
  failureClasses: [
    { value: 'missed', label: 'Missed tool invocation', description: 'a needed tool was not called' },
    { value: 'invalid', label: 'Invalid tool call', description: 'the call did not validate' },
    { value: 'wrong-selection', label: 'Wrong selection', description: 'another tool than the right one' },
    { value: 'ignored-output', label: 'Ignored output', description: "the tool's result was not acted upon" },
    { value: 'tool-bias', label: 'Tool-induced bias', description: 'a misleading tool output was followed' },
  ],
};
