// The DFKI planner–executor (paper 003 §6): Mobipick indoor experiments and the
// Valdemar farm. The paper is qualitative and names success rates, rule (constraint)
// violations and recoveries as the metrics to come (§8); we add steps taken.
import { COMMON_METRICS, type SuiteReportSpec } from '../spec';

export const dfkiReport: SuiteReportSpec = {
  suite: 'dfki',
  title: 'Planner–executor: mission success, rule violations and recoveries',
  source: 'Agentic AI for robot control (paper 003) §6 experiments, §7–8 limitations and metrics',
  headline: { metric: 'mission_success', scale: 1, description: 'mission success: the goal reached without a safety rule broken' },
  metrics: {
    ...COMMON_METRICS,
    mission_success: { key: 'mission_success', label: 'Success', description: 'the mission completed', format: 'percent' },
    violations: { key: 'rule_violations', label: 'Violations', description: 'domain rules broken per mission', format: 'number' },
    violations_total: {
      key: 'rule_violations',
      label: 'Violations (total)',
      description: 'domain rules broken over all missions',
      format: 'integer',
      aggregate: { kind: 'sum' },
    },
    recoveries: { key: 'recoveries', label: 'Recoveries', description: 'failed actions recovered from per mission', format: 'number' },
    steps: { key: 'steps', label: 'Steps', description: 'act() calls per mission', format: 'number' },
    event_checks: { key: 'event_checks', label: 'Event checks', description: 'check_events calls per mission', format: 'number' },
    time: { key: 'duration_s', label: 'Time (s)', description: 'wall time per mission', format: 'seconds' },
  },
  summary: ['mission_success', 'violations', 'recoveries', 'steps', 'time'],
  axes: [
    {
      key: 'experiment',
      label: 'Experiment',
      values: [
        { value: 'nominal', label: 'Nominal', description: 'Exp. 1: the multimeter into the box, to table 2' },
        { value: 'ambiguity', label: 'Ambiguity & events', description: 'Exp. 2: "a tool to screw with", e-stop, preference change' },
        {
          value: 'constraint',
          label: 'Constraint-aware placement',
          description: 'Exp. 3: perceive the target table before carrying a full box',
        },
        { value: 'long-horizon', label: 'Long horizon', description: 'Exp. 4: all objects to table 2' },
        { value: 'farm-scan', label: 'Farm scan', description: 'Valdemar: scan the points of interest' },
        { value: 'farm-battery', label: 'Farm battery', description: 'Valdemar: low battery, dock and charge' },
      ],
    },
    { key: 'platform', label: 'Platform', values: [{ value: 'mobipick' }, { value: 'valdemar' }] },
    {
      key: 'event',
      label: 'Injected event',
      values: [{ value: 'none' }, { value: 'estop' }, { value: 'intervention' }, { value: 'battery' }, { value: 'moved' }],
    },
  ],
  categoryAxis: 'experiment',
  tables: [
    {
      id: 'missions',
      title: 'Missions',
      caption: 'Mission success (%) per experiment of paper 003 §6, rule violations, recoveries and steps per mission.',
      rowKeys: ['variant', 'model'],
      groups: [
        {
          label: 'Success by experiment (%)',
          columns: ['nominal', 'ambiguity', 'constraint', 'long-horizon', 'farm-scan', 'farm-battery'].map((v) => ({
            metric: 'mission_success',
            label: v,
            where: { axis: 'experiment', value: v },
          })),
        },
        {
          label: 'All missions',
          columns: [
            { metric: 'mission_success' },
            { metric: 'violations' },
            { metric: 'recoveries' },
            { metric: 'steps' },
            { metric: 'time' },
          ],
        },
      ],
    },
  ],
  breakdowns: [
    {
      id: 'experiment-event',
      title: 'Mission success by experiment and injected event',
      axes: ['experiment', 'event'],
      metric: 'mission_success',
    },
  ],
  failureClasses: [
    { value: 'instruction', label: 'Instruction following', description: 'the plan did not do what was asked' },
    { value: 'blind-placement', label: 'Blind placement', description: 'placed without perceiving free space first (§6 Exp. 1, 4)' },
    { value: 'stale-state', label: 'Stale state', description: 'acted on outdated observations' },
    { value: 'constraint', label: 'Constraint violation', description: 'a safety rule of the prompt broken (§7)' },
    { value: 'events', label: 'Event handling', description: 'events not checked, or checked irregularly (§7)' },
  ],
};
