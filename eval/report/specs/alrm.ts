// ALRM (paper 002 §IV–V, Table III): 3 scenes × 3 tasks × 6 instructions (CAN, LEX,
// SYN, SEM and two HLR), each judged 0/1/2. Per-category success is the mean score / 2
// (Claude-4.1-Opus CaP: 8 ones and 46 twos of 54 → 100/108 = 92.6 %), which is also
// the headline. TaP and CaP are separate runs (the variant), each a row.
import { COMMON_METRICS, type SuiteReportSpec } from '../spec';

const CATEGORIES = ['CAN', 'LEX', 'SYN', 'SEM', 'HLR'];

export const alrmReport: SuiteReportSpec = {
  suite: 'alrm',
  title: 'ALRM: agentic LLM for robotic manipulation',
  source: 'ALRM (paper 002) §IV benchmark, §V-B metrics, Table III',
  headline: { metric: 'alrm_score', scale: 0.5, description: 'success rate: mean judged score (0, 1 or 2) divided by 2' },
  metrics: {
    ...COMMON_METRICS,
    alrm_score: {
      key: 'alrm_score',
      label: 'Score',
      description: 'judged score: 0 no subtask solved, 1 some, 2 all (Table II)',
      format: 'number',
    },
    score0: { key: 'alrm_score', label: '0', description: 'cases scored 0', format: 'integer', aggregate: { kind: 'count', value: 0 } },
    score1: { key: 'alrm_score', label: '1', description: 'cases scored 1', format: 'integer', aggregate: { kind: 'count', value: 1 } },
    score2: { key: 'alrm_score', label: '2', description: 'cases scored 2', format: 'integer', aggregate: { kind: 'count', value: 2 } },
    success_rate: { key: 'score', label: 'AVG', description: 'success rate: mean score / 2', format: 'percent' },
    latency: { key: 'duration_s', label: 'Latency (s)', description: 'time to complete a task', format: 'seconds' },
  },
  summary: ['success_rate', 'latency', 'tokens_in', 'tokens_out'],
  axes: [
    {
      key: 'category',
      label: 'Paraphrase category',
      values: [
        { value: 'CAN', label: 'CAN', description: 'canonical instruction' },
        { value: 'LEX', label: 'LEX', description: 'lexical: synonyms for nouns and verbs' },
        { value: 'SYN', label: 'SYN', description: 'syntactical: another sentence structure' },
        { value: 'SEM', label: 'SEM', description: 'semantics: typos, informal phrasing, chit-chat, preferences' },
        { value: 'HLR', label: 'HLR', description: 'high-level reasoning: objects or actions to be inferred' },
      ],
    },
    { key: 'scene', label: 'Environment', values: [{ value: 'utensils' }, { value: 'boxes' }, { value: 'fruits' }] },
    { key: 'task', label: 'Task', values: [{ value: '1' }, { value: '2' }, { value: '3' }] },
  ],
  categoryAxis: 'category',
  // A task (scene + task number) is said in six paraphrases: its cases stand or fall together.
  task: ['scene', 'task'],
  tables: [
    {
      id: 'table-iii',
      title: 'Performance across modes, models and paraphrase categories',
      caption:
        'Success rate as score counts (0, 1, 2) and per-category percentages (CAN, LEX, SYN, SEM, HLR, AVG); latency in seconds. Layout of paper 002 Table III.',
      rowKeys: ['variant', 'model'],
      groups: [
        { label: 'Score (counts)', columns: [{ metric: 'score0' }, { metric: 'score1' }, { metric: 'score2' }] },
        {
          label: 'Per category (%)',
          columns: [
            ...CATEGORIES.map((c) => ({ metric: 'success_rate', label: c, where: { axis: 'category', value: c } })),
            { metric: 'success_rate', label: 'AVG' },
          ],
        },
        { label: 'Latency', columns: [{ metric: 'latency', label: 's' }] },
      ],
    },
  ],
  breakdowns: [
    {
      id: 'scene-category',
      title: 'Success rate by environment and paraphrase category',
      axes: ['scene', 'category'],
      metric: 'success_rate',
    },
    { id: 'scene-task', title: 'Success rate by environment and task', axes: ['scene', 'task'], metric: 'success_rate' },
  ],
  // The paper names no failure classes: these are the scorer's.
  failureClasses: [
    { value: 'none-done', label: 'None done', description: 'no subtask holds in the world at the end' },
    { value: 'partial', label: 'Partial', description: 'some subtasks hold, not all (or one was done out of order)' },
    {
      value: 'irrelevant-action',
      label: 'Irrelevant action',
      description: 'every subtask holds, but an object outside the task was picked',
    },
    { value: 'model-error', label: 'Model error', description: 'a model call failed: a miss whatever state the world is in' },
  ],
};
