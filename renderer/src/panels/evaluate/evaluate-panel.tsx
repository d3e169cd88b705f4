// The Evaluate view: pick a suite, a sample size and the current model, watch
// the run's progress (counts, running score, ETA), open its report, and click a
// case to replay it in the 3D view. The host runs the evaluation on its own
// thread; progress arrives as { type: 'eval' } events.
import { useCallback, useEffect, useState } from 'react';
import type { AppApi } from '../../../../contract/api';
import type { CaseTranscript, EvalCaseRow, EvalEvent, EvalRunInfo, SuiteInfo } from '../../../../contract/eval';
import type { AppEvent } from '../../../../contract/schemas';
import type { RunReplay } from '../../../../contract/teaching';
import { drawnReport } from './report-figures';

type Progress = Extract<EvalEvent, { kind: 'progress' }>;

/** The Agent tab's model, as it stores it (its settings, read only here): the spec the Evaluate view starts with. */
export function currentModelSpec(): string {
  try {
    const s = JSON.parse(globalThis.localStorage?.getItem('skillbridge.agent.settings') ?? 'null') as {
      preset?: string;
      model?: string;
      baseURL?: string;
      file?: string;
    } | null;
    if (!s?.preset) return 'oracle';
    if (s.preset === 'scripted') return s.file?.trim() ? `scripted:${s.file.trim()}` : 'oracle';
    if (s.preset === 'custom')
      return s.model?.trim() && s.baseURL?.trim() ? `openai-compatible:${s.model.trim()}@${s.baseURL.trim()}` : 'oracle';
    return s.model?.trim() ? `${s.preset}:${s.model.trim()}` : 'oracle';
  } catch {
    return 'oracle';
  }
}

function msg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function seconds(ms: number | null): string {
  if (ms === null) return '–';
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)} %`);

export function EvaluatePanel({ api, onWatch }: { api: AppApi; onWatch?: (replay: RunReplay) => void }) {
  const [suites, setSuites] = useState<SuiteInfo[]>([]);
  const [suite, setSuite] = useState('');
  const [workflow, setWorkflow] = useState('');
  const [sample, setSample] = useState(10);
  const [model, setModel] = useState(() => currentModelSpec());
  const [progress, setProgress] = useState<Progress | null>(null);
  const [running, setRunning] = useState(false);
  const [runs, setRuns] = useState<EvalRunInfo[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [cases, setCases] = useState<EvalCaseRow[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [report, setReport] = useState<string | null>(null);
  const [transcript, setTranscript] = useState<CaseTranscript | null>(null);

  const refreshRuns = useCallback(() => {
    api.listEvalRuns({}).then(setRuns, (e: unknown) => setNote(msg(e)));
  }, [api]);

  useEffect(() => {
    api.listSuites({}).then(
      (list) => {
        setSuites(list);
        const first = list[0];
        if (first) {
          setSuite(first.id);
          setWorkflow(first.defaultWorkflow);
        }
      },
      (e: unknown) => setNote(msg(e)),
    );
    refreshRuns();
  }, [api, refreshRuns]);

  const showCases = useCallback(
    (runId: string) => {
      setSelected(runId);
      api.evalCases({ runId }).then(setCases, (e: unknown) => setNote(msg(e)));
    },
    [api],
  );

  useEffect(
    () =>
      api.onEvent((e: AppEvent) => {
        if (e.type !== 'eval') return;
        const ev = e.event;
        if (ev.kind === 'progress') {
          setProgress(ev);
          setRunning(true);
        } else if (ev.kind === 'ended') {
          setRunning(false);
          setNote(
            ev.error
              ? `the run failed: ${ev.error}`
              : `${ev.run.runId} ${ev.run.status}: score ${pct(ev.run.score)} over ${ev.run.cases} cases`,
          );
          refreshRuns();
          showCases(ev.run.runId);
        } else setNote(ev.text);
      }),
    [api, refreshRuns, showCases],
  );

  const current = suites.find((s) => s.id === suite);

  const start = () => {
    setNote(null);
    setProgress(null);
    api.startEval({ suite, model: model.trim(), workflow, sample }).then(
      (r) => {
        setRunning(true);
        setSelected(r.runId);
      },
      (e: unknown) => setNote(msg(e)),
    );
  };

  const openReport = (runId: string) => {
    api
      .evalReport({ runId })
      .then((r) => drawnReport(r.html))
      .then(
        (html) => {
          // A window of its own where the host allows one; otherwise the page shows here.
          const url = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
          const w = globalThis.open?.(url, '_blank');
          if (!w) setReport(html);
        },
        (e: unknown) => setNote(msg(e)),
      );
  };

  const openTranscript = (row: EvalCaseRow) => {
    if (!selected) return;
    api.caseTranscript({ runId: selected, caseId: row.caseId, trial: row.trial }).then(setTranscript, (e: unknown) => setNote(msg(e)));
  };

  const replay = (row: EvalCaseRow) => {
    if (!selected) return;
    // The case's recorded trace on the replay timeline; the live world is left as it is.
    api.caseReplay({ runId: selected, caseId: row.caseId, trial: row.trial }).then(
      (r) => {
        setNote(`watching ${row.caseId}${row.trial > 1 ? ` #${row.trial}` : ''} as recorded (${r.run.toolCalls} calls)`);
        onWatch?.(r);
      },
      (e: unknown) => setNote(msg(e)),
    );
  };

  return (
    <section className="panel evaluate" aria-label="Evaluate">
      <div className="panel-head">
        <h3>Evaluate</h3>
      </div>
      <div className="form-grid">
        <label>
          Suite
          <select
            aria-label="Suite"
            value={suite}
            onChange={(e) => {
              setSuite(e.target.value);
              setWorkflow(suites.find((s) => s.id === e.target.value)?.defaultWorkflow ?? '');
            }}
          >
            {suites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.id} — {s.title}
              </option>
            ))}
          </select>
        </label>
        <label>
          Workflow
          <select aria-label="Workflow" value={workflow} onChange={(e) => setWorkflow(e.target.value)}>
            {(current ? [current.defaultWorkflow, ...current.workflows.filter((w) => w !== current.defaultWorkflow)] : []).map((w) => (
              <option key={w} value={w}>
                {w}
              </option>
            ))}
          </select>
        </label>
        <label>
          Sample size
          <input
            aria-label="Sample size"
            type="number"
            min={1}
            max={1000}
            value={sample}
            onChange={(e) => setSample(Math.max(1, Math.round(Number(e.target.value) || 1)))}
          />
        </label>
        <label>
          Model
          <input
            aria-label="Model"
            value={model}
            onChange={(e) => setModel(e.target.value)}
            placeholder="ollama:qwen3:8b, openai:…, oracle"
          />
        </label>
      </div>
      <div className="row">
        <button type="button" onClick={start} disabled={running || !suite || !model.trim()}>
          Start
        </button>
        <button
          type="button"
          onClick={() =>
            api.stopEval({}).then(
              (r) => setNote(r.message),
              (e: unknown) => setNote(msg(e)),
            )
          }
          disabled={!running}
        >
          Stop
        </button>
        <button type="button" onClick={() => setModel(currentModelSpec())} title="The model set in the Agent tab">
          Use the Agent tab's model
        </button>
      </div>
      {progress && (
        <div className="eval-progress" role="status" aria-label="Progress">
          <progress max={progress.total} value={progress.done} />
          <span>
            {progress.done}/{progress.total} cases · score {pct(progress.score)} · {progress.errors} errors · ETA {seconds(progress.etaMs)}
          </span>
          {progress.last && (
            <span className="muted">
              last: {progress.last.caseId} {progress.last.status === 'ok' ? (progress.last.score ?? 0).toFixed(2) : progress.last.status}
            </span>
          )}
        </div>
      )}
      {note && <p className="note">{note}</p>}
      <h4>Runs</h4>
      <ul className="eval-runs">
        {runs.map((r) => (
          <li key={r.runId} className={r.runId === selected ? 'selected' : ''}>
            <button type="button" className="link" onClick={() => showCases(r.runId)}>
              {r.suite} · {r.workflow} · {r.model}
            </button>{' '}
            <span>
              {r.status}, {pct(r.score)} over {r.cases} cases{r.errors ? `, ${r.errors} errors` : ''}
            </span>{' '}
            <button type="button" onClick={() => openReport(r.runId)}>
              Report
            </button>
          </li>
        ))}
      </ul>
      {selected && cases.length > 0 && (
        <>
          <h4>Cases of {selected} (click one to watch its recorded trace)</h4>
          <table className="eval-cases">
            <thead>
              <tr>
                <th>case</th>
                <th>status</th>
                <th>score</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {cases.map((c) => (
                <tr key={`${c.caseId}#${c.trial}`} onClick={() => replay(c)} title={c.error ?? c.failureClass ?? ''}>
                  <td>
                    <button type="button" className="link">
                      {c.caseId}
                      {c.trial > 1 ? ` #${c.trial}` : ''}
                    </button>
                  </td>
                  <td>{c.status}</td>
                  <td>{c.score === null ? '–' : c.score.toFixed(2)}</td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Transcript of ${c.caseId}${c.trial > 1 ? ` #${c.trial}` : ''}`}
                      onClick={(e) => {
                        // The row's own click replays the case; this button shows its transcript instead.
                        e.stopPropagation();
                        openTranscript(c);
                      }}
                    >
                      Transcript
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {transcript && <TranscriptView transcript={transcript} onClose={() => setTranscript(null)} />}
      {report && (
        <div className="eval-report">
          <button type="button" onClick={() => setReport(null)}>
            Close report
          </button>
          <iframe title="Report" sandbox="" srcDoc={report} />
        </div>
      )}
    </section>
  );
}

/** A case × trial's transcript: the verdict (score and what decided it), then the conversation step by step. */
function TranscriptView({ transcript: t, onClose }: { transcript: CaseTranscript; onClose: () => void }) {
  return (
    <section className="eval-transcript" aria-label="Transcript">
      <div className="panel-head">
        <h4>
          Transcript of {t.caseId}
          {t.trial > 1 ? ` #${t.trial}` : ''}
        </h4>
        <button type="button" onClick={onClose}>
          Close transcript
        </button>
      </div>
      <table className="eval-verdict" aria-label="Score">
        <tbody>
          {t.verdict.map(([k, v]) => (
            <tr key={k}>
              <th>{k}</th>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ol className="eval-steps" aria-label="Conversation">
        {t.steps.map((s, i) => (
          <li key={i} className={`step step-${s.kind}${s.prior ? ' prior' : ''}`} data-kind={s.kind}>
            <div className="step-title">{s.title}</div>
            {s.reasoning && (
              <details>
                <summary>reasoning</summary>
                <pre>{s.reasoning}</pre>
              </details>
            )}
            {s.text &&
              (s.kind === 'system' ? (
                // The system prompt is long and the same for every case: folded, as the reasoning is.
                <details>
                  <summary>system prompt</summary>
                  <pre className="step-text">{s.text}</pre>
                </details>
              ) : (
                <pre className="step-text">{s.text}</pre>
              ))}
            {s.code !== undefined && <pre className="step-code">{s.code}</pre>}
          </li>
        ))}
      </ol>
      {t.problems.map((p) => (
        <p key={p} className="note">
          {p}
        </p>
      ))}
    </section>
  );
}
