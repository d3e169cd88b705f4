// The trace panel: every tool call of the runs shown, with its arguments, result,
// timing, tokens, approval and warnings.
import type { RunView, ToolEntry } from '../run-view';
import { short } from './conversation-view';

export function TracePanel({ runs }: { runs: RunView[] }) {
  const rows: Array<{ run: RunView; tool: ToolEntry; tokens: number | null }> = [];
  for (const run of runs) {
    for (const e of run.entries) {
      if (e.k !== 'tool') continue;
      const a = run.entries.find((x) => x.k === 'assistant' && x.iteration === e.iteration && x.usage);
      rows.push({ run, tool: e, tokens: a?.k === 'assistant' && a.usage ? a.usage.totalTokens : null });
    }
  }
  const tracePath = runs[runs.length - 1]?.tracePath;
  return (
    <section className="trace" aria-label="Trace" data-testid="trace-panel">
      <h3>Trace</h3>
      {tracePath && <div className="muted">file: {tracePath}</div>}
      {!rows.length && <p className="muted">No tool calls yet.</p>}
      <ol className="trace-rows">
        {rows.map(({ run, tool, tokens }) => (
          <li
            key={`${run.runId}-${tool.callId}`}
            className={`trace-row ${tool.result ? (tool.result.ok ? 'ok' : 'fail') : 'running'}`}
            data-testid="trace-row"
            data-tool={tool.name}
          >
            <div>
              <strong>{tool.name}</strong> <code>{short(tool.args)}</code>
            </div>
            <div className="result" data-testid="trace-result">
              {tool.result ? `${tool.result.status}: ${short(tool.result.content, 600)}` : 'running…'}
            </div>
            <div className="muted">
              turn {tool.iteration + 1}
              {tool.result ? ` · ${tool.result.durationMs} ms` : ''}
              {tokens !== null ? ` · ${tokens} tokens` : ''}
              {tool.approval ? ` · ${tool.approval}` : ''}
            </div>
            {tool.warnings.map((w) => (
              <div key={w} className="warning">
                ! {w}
              </div>
            ))}
          </li>
        ))}
      </ol>
    </section>
  );
}
