// The runs of this session: every run with how it ended, to watch again in 3D
// (one, or two side by side), or to export its trace. While runs are watched,
// their trace follows the timeline here.
import { useCallback, useEffect, useState } from 'react';
import type { AppApi } from '../../../contract/api';
import { OUTCOME_WORDS, type RunOutcome } from '../../../contract/run-outcome';
import type { RunSummary } from '../../../contract/teaching';
import type { ReplayRun } from './replay';
import { type ReplayClock, ReplayTrace } from './replay-view';

export function RunsPanel({
  api,
  watching,
  clock,
  onWatch,
}: {
  api: AppApi;
  watching: ReplayRun[];
  clock: ReplayClock;
  onWatch: (runIds: string[]) => Promise<void>;
}) {
  const [runs, setRuns] = useState<RunSummary[]>([]);
  const [picked, setPicked] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = useCallback(() => api.listRuns({}).then(setRuns, () => undefined), [api]);

  useEffect(() => {
    void refresh();
    return api.onEvent((e) => {
      if (e.type === 'run' && (e.event.kind === 'started' || e.event.kind === 'final')) void refresh();
    });
  }, [api, refresh]);

  const exportTrace = async (runId: string) => {
    try {
      const t = await api.exportTrace({ runId });
      const url = URL.createObjectURL(new Blob([t.text], { type: 'application/x-ndjson' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = t.name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };
  const watch = (ids: string[]) => {
    setProblem(null);
    onWatch(ids).catch((e: unknown) => setProblem(e instanceof Error ? e.message : String(e)));
  };
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));

  return (
    <section className="panel runs" aria-label="Runs">
      {watching.length > 0 && (
        <>
          <h3>Watching {watching.length === 2 ? 'two runs side by side' : 'a run'}</h3>
          <ReplayTrace runs={watching} clock={clock} api={api} />
        </>
      )}
      <div className="panel-head">
        <h3>Runs of this session</h3>
        <button type="button" disabled={picked.length !== 2} onClick={() => watch(picked)} title="Tick two runs to compare them">
          Compare two
        </button>
      </div>
      {runs.length === 0 && <p className="muted">No runs yet. Every agent run of this session is kept here, to watch again in 3D.</p>}
      <ol className="run-list">
        {[...runs].reverse().map((r) => (
          <li key={r.runId} className={`run-item ${r.outcome ?? r.reason ?? 'running'}`} data-testid="run-item" data-outcome={r.outcome}>
            <label className="check">
              <input
                type="checkbox"
                checked={picked.includes(r.runId)}
                onChange={() => toggle(r.runId)}
                aria-label={`Compare ${r.message}`}
              />
              <span>
                <strong>{r.message}</strong>
                <span className="muted small">
                  {' '}
                  {new Date(r.startedAt).toLocaleTimeString()} · {r.model} · {r.toolCalls} call{r.toolCalls === 1 ? '' : 's'} ·{' '}
                  {r.running ? 'running' : r.outcome ? <OutcomeMark outcome={r.outcome} /> : r.reason}
                  {r.durationMs ? ` · ${(r.durationMs / 1000).toFixed(1)} s` : ''}
                </span>
              </span>
            </label>
            <div className="row">
              <button type="button" onClick={() => watch([r.runId])} disabled={!r.poses && r.running}>
                Watch
              </button>
              <button type="button" onClick={() => void exportTrace(r.runId)}>
                Export
              </button>
            </div>
          </li>
        ))}
      </ol>
      {problem && (
        <div className="note fail" role="alert">
          {problem}
        </div>
      )}
    </section>
  );
}

/** A run's end as its mark and words ("✗ a call was rejected"), the same the agent panel shows. */
function OutcomeMark({ outcome }: { outcome: RunOutcome }) {
  const { mark, words } = OUTCOME_WORDS[outcome];
  return (
    <span className="run-mark" data-testid="run-mark">
      {mark} {words}
    </span>
  );
}
