// The conversation of the agent panel: the person's messages, the model's text
// (a thinking model's reasoning collapsed above it), tool calls with their
// outcome, warnings, approval prompts (Approve / Reject with a note), stops,
// errors and how each run ended.
import { OUTCOME_WORDS } from '../../../../contract/run-outcome';
import type { Entry, RunView } from '../run-view';

export function short(v: unknown, max = 400): string {
  const t = typeof v === 'string' ? v : JSON.stringify(v ?? {});
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** Brings a new element into sight once, when it appears (a stable ref callback: React calls it on mount only). */
function intoView(el: HTMLElement | null): void {
  el?.scrollIntoView?.({ block: 'nearest' });
}

export interface ApprovalProps {
  note: string;
  setNote: (s: string) => void;
  onAnswer: (id: string, d: 'approve' | 'reject') => void;
}

export function ConversationView({ run, ...approval }: { run: RunView } & ApprovalProps) {
  // The answer and a model error are shown once: in the line they arrived in, not again in the summary.
  const said = new Set(run.entries.flatMap((e) => (e.k === 'assistant' || e.k === 'error' ? [e.k === 'error' ? e.message : e.text] : [])));
  return (
    <div className="turn" data-run={run.runId}>
      {run.entries.map((e, i) => (
        <ConversationEntry key={i} entry={e} readOnly={run.imported} ended={!run.running} said={said} {...approval} />
      ))}
      {run.running && <div className="muted">running…</div>}
    </div>
  );
}

function ConversationEntry({
  entry: e,
  readOnly,
  ended,
  said,
  note,
  setNote,
  onAnswer,
}: { entry: Entry; readOnly: boolean; ended: boolean; said: ReadonlySet<string> } & ApprovalProps) {
  switch (e.k) {
    case 'user':
      return <div className="msg user">you: {e.text}</div>;
    case 'assistant':
      // A nested agent's text (an executor's report) reaches the person through its caller, so it shows in the trace only.
      return (e.text || e.reasoning) && !e.stage.includes('/') ? (
        <>
          {e.reasoning && (
            // Collapsed: the reasoning of a thinking model can run to pages.
            <details className="msg thinking" data-testid="assistant-thinking">
              <summary>
                thinking{e.streaming && !e.text ? '…' : ''} <span className="muted">({e.reasoning.length} characters)</span>
              </summary>
              <div className="thinking-text">{e.reasoning}</div>
            </details>
          )}
          {e.text && (
            <div className="msg assistant" data-testid="assistant-text" data-stage={e.stage}>
              {/* A multi-agent run names who spoke: the planner, the critic… */}
              {e.stage && e.stage !== 'agent' ? e.stage : 'model'}: {e.text}
              {e.streaming && <span className="cursor">▍</span>}
            </div>
          )}
        </>
      ) : null;
    case 'tool':
      return (
        <div className={`msg tool ${e.result ? (e.result.ok ? 'ok' : 'fail') : ''}`}>
          → {e.name}({short(e.args, 120)}) {e.result ? (e.result.ok ? '✓' : `✗ ${e.result.status}`) : '…'}
        </div>
      );
    case 'divergence':
      return (
        <div className="msg warning divergence">
          ≠ shadow: {e.subject} — predicted {e.predicted}; the robot reports {e.actual}
        </div>
      );
    case 'warning':
      return (
        <div className="msg warning">
          ! {e.code}: {e.message}
        </div>
      );
    case 'note':
      return (
        <div className="msg note" data-stage={e.stage}>
          {e.stage ? <span className="muted">{e.stage}: </span> : null}
          {e.text}
        </div>
      );
    case 'code':
      return (
        <div className={`msg tool ${e.ok ? 'ok' : 'fail'}`}>
          ▤ program {e.id}: {e.calls.length} call{e.calls.length === 1 ? '' : 's'} {e.ok ? '✓' : `✗ ${e.error?.kind ?? ''}`}
        </div>
      );
    case 'approval':
      return (
        <div
          className={`approval${ended && !e.answered ? ' expired' : ''}`}
          role="group"
          aria-label={`Approve ${e.tool}`}
          ref={e.answered || readOnly || ended ? undefined : intoView}
        >
          <div>
            <strong>Approve {e.tool}</strong>({short(e.args, 200)})? <span className="muted">{e.reason}</span>
          </div>
          {e.answered || readOnly || ended ? (
            // A run that ended (a stop, an error) while it waited takes its question with it: nothing is left to answer.
            <div className="muted" data-testid="approval-outcome">
              {e.answered === 'approve'
                ? 'approved'
                : e.answered === 'reject'
                  ? 'rejected'
                  : ended
                    ? 'not answered: the run ended while it waited'
                    : 'asked'}
            </div>
          ) : (
            <div className="field-row">
              <input
                aria-label="Approval note"
                value={note}
                placeholder="note for the model (optional)"
                onChange={(ev) => setNote(ev.target.value)}
              />
              <button type="button" onClick={() => onAnswer(e.id, 'approve')}>
                Approve
              </button>
              <button type="button" className="danger" onClick={() => onAnswer(e.id, 'reject')}>
                Reject
              </button>
            </div>
          )}
        </div>
      );
    case 'stop':
      return <div className="msg stop">■ stopped: {e.message}</div>;
    case 'error':
      return <div className="msg error">error: {e.message}</div>;
    case 'end':
      return (
        <div
          className={`msg end ${e.reason} outcome-${e.outcome}`}
          data-testid="run-end"
          data-reason={e.reason}
          data-outcome={e.outcome}
          ref={readOnly ? undefined : intoView}
        >
          {endLine(e, said)}
          <div className="muted">
            {e.iterations} model turns, {e.toolCalls} tool call{e.toolCalls === 1 ? '' : 's'}
            {e.ran !== e.toolCalls ? ` (${e.ran} ran)` : ''}, {e.usage.totalTokens} tokens, {(e.durationMs / 1000).toFixed(1)} s
          </div>
        </div>
      );
  }
}

/**
 * The run's end in words, from its own records: a green "✓ goal met" only when a
 * goal check decided so; an answer nothing checked says so, and one the world
 * contradicts, a rejected, refused or failed call each says what happened.
 */
function endLine(e: Extract<Entry, { k: 'end' }>, said: ReadonlySet<string>): string {
  const { mark, words } = OUTCOME_WORDS[e.outcome];
  const answer = said.has(e.text) || !e.text ? '' : ` (answer: “${e.text}”)`;
  const calls = `${e.toolCalls} tool call${e.toolCalls === 1 ? '' : 's'}`;
  switch (e.outcome) {
    case 'met':
      return `${mark} ${words}: ${e.goal?.title ?? ''}`;
    case 'contradicted':
      return `${mark} ${words}: ${e.goal?.detail ?? ''}${answer}`;
    case 'answered':
      return `${mark} ${words}${answer}`;
    case 'rejected':
    case 'refused':
    case 'failed':
      // The model answered, but calls it relied on did not succeed: its answer is its word, not a result.
      return `${mark} ${words}: ${e.failed} of ${calls} did not succeed; the answer is the model's word, not a result${answer}`;
    default:
      return `${mark} run ended (${e.reason})${said.has(e.detail) ? '' : `: ${e.detail}`}`;
  }
}
