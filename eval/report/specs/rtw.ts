// Robotic Tool Workflows (paper 000): TORO, MAYA and AIMM as workflows. The paper
// reports no numbers; it motivates parameter ranges as guardrails, so we count range
// violations (calls rejected for a value outside a tool's bounds) beside mission success.
import { COMMON_METRICS, type SuiteReportSpec } from '../spec';

export const rtwReport: SuiteReportSpec = {
  suite: 'rtw',
  title: 'Robotic tool workflows: mission success and range violations',
  source: 'Robotic Tool Workflows (paper 000) §III demonstrators, guardrails',
  headline: { metric: 'mission_success', scale: 1, description: 'mission success: the request answered or carried out' },
  metrics: {
    ...COMMON_METRICS,
    mission_success: { key: 'mission_success', label: 'Success', description: 'the request answered or carried out', format: 'percent' },
    range_violations: {
      key: 'range_violations',
      label: 'Range violations',
      description: 'calls with a parameter outside its range, per case',
      format: 'number',
    },
    range_violations_total: {
      key: 'range_violations',
      label: 'Range violations (total)',
      description: 'calls with a parameter outside its range, over all cases',
      format: 'integer',
      aggregate: { kind: 'sum' },
    },
    wrong_category: {
      key: 'wrong_category',
      label: 'Wrong category',
      description: 'the classify step chose the wrong tool category (information / task, getter / setter)',
      format: 'percent',
    },
    time: { key: 'duration_s', label: 'Time (s)', description: 'wall time per case', format: 'seconds' },
  },
  summary: ['mission_success', 'range_violations', 'wrong_category', 'tool_calls', 'time'],
  axes: [
    {
      key: 'request',
      label: 'Request',
      values: [
        { value: 'information', description: 'a question about the robot or the world' },
        { value: 'task', description: 'a command to act' },
        { value: 'getter', description: 'AIMM: read the world model' },
        { value: 'setter', description: 'AIMM: update the world model' },
        { value: 'query', description: 'AIMM: needs a guarded query template' },
      ],
    },
    { key: 'scene', label: 'Scene', values: [] },
  ],
  categoryAxis: 'request',
  tables: [
    {
      id: 'workflows',
      title: 'Workflows',
      caption: 'One row per run (workflow and model): success, guardrail hits and effort per case.',
      rowKeys: ['workflow', 'model'],
      groups: [
        {
          columns: [
            { metric: 'mission_success' },
            { metric: 'range_violations' },
            { metric: 'range_violations_total' },
            { metric: 'wrong_category' },
            { metric: 'tool_calls' },
            { metric: 'time' },
          ],
        },
      ],
    },
  ],
  breakdowns: [
    { id: 'request-scene', title: 'Mission success by request kind and scene', axes: ['request', 'scene'], metric: 'mission_success' },
  ],
  failureClasses: [
    { value: 'range', label: 'Range violation', description: 'a parameter outside its bounds' },
    { value: 'wrong-tool', label: 'Wrong tool', description: 'a tool that does not serve the request' },
    { value: 'wrong-category', label: 'Wrong category', description: 'the classify step chose the wrong branch' },
    { value: 'no-answer', label: 'No answer', description: 'the turn ended without an answer or action' },
  ],
};
