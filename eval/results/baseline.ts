// Baselines are not models: a workflow that calls no model (a paper's fixed
// baseline) is recorded under its own name ("baseline:…"), never the model spec
// it was run with, and the reference policies (the oracle, the floors) are
// baselines too, so a leaderboard never ranks them among the models.

/** The prefix of the names model-free workflows' runs are recorded under. */
export const BASELINE_PREFIX = 'baseline:';

/** Whether a recorded run's model is a baseline: a model-free workflow's name, the oracle or a floor. */
export function isBaselineModel(model: string): boolean {
  const m = model.trim().toLowerCase();
  return m.startsWith(BASELINE_PREFIX) || m === 'oracle' || m.startsWith('floor:');
}

/** The model spec a run was started with: a baseline's run keeps it in its arguments (its model is the baseline's name). */
export function startedWith(run: { model: string; args: Record<string, unknown> }): string {
  const spec = run.args['modelSpec'];
  return typeof spec === 'string' ? spec : run.model;
}
