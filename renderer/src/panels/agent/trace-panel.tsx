// The trace panel: what each run did, nested by stage (router → planner → its
// executor → critic): every tool call with its arguments, result, timing, tokens,
// approval and warnings; the workflow's own steps (a route, a verdict, a
// preemption); and sandboxed programs with their code and each API call's result,
// under the tool call that ran them.
import type { ReactNode } from 'react';
import type { CodeEntry, Entry, RunView, ToolEntry } from '../run-view';
import { short } from './conversation-view';
import { type PictureApi, RunPictures } from './run-pictures';
import { type StageGroup, stageTree } from './stage-tree';

type Item = ToolEntry | CodeEntry | Extract<Entry, { k: 'note' }>;

export function TracePanel({ runs, api }: { runs: RunView[]; api?: PictureApi }) {
  const tracePath = runs[runs.length - 1]?.tracePath;
  const any = runs.some((r) => r.entries.some((e) => e.k === 'tool' || e.k === 'code' || e.k === 'note'));
  return (
    <section className="trace" aria-label="Trace" data-testid="trace-panel">
      <h3>Trace</h3>
      {tracePath && <div className="muted">file: {tracePath}</div>}
      {!any && <p className="muted">No tool calls yet.</p>}
      {runs.map((run) => (
        <RunTrace key={run.runId} run={run} api={api} />
      ))}
    </section>
  );
}

function RunTrace({ run, api }: { run: RunView; api: PictureApi | undefined }) {
  const tools = new Set(run.entries.filter((e): e is ToolEntry => e.k === 'tool').map((e) => e.callId));
  // A program run by a tool call is shown inside that call's row, not on its own.
  const items = run.entries.filter(
    (e): e is Item => e.k === 'tool' || e.k === 'note' || (e.k === 'code' && !(e.callId && tools.has(e.callId))),
  );
  const programs = run.entries.filter((e): e is CodeEntry => e.k === 'code' && e.callId !== undefined && tools.has(e.callId));
  const tokens = (t: ToolEntry): number | null => {
    const a = run.entries.find((x) => x.k === 'assistant' && x.stage === t.stage && x.iteration === t.iteration && x.usage);
    return a?.k === 'assistant' && a.usage ? a.usage.totalTokens : null;
  };
  const pictures = (t: ToolEntry) =>
    t.pictures?.length ? <RunPictures api={api} runId={run.runId} tool={t.name} pictures={t.pictures} /> : null;
  return <Group group={stageTree(items)} tokens={tokens} programs={programs} pictures={pictures} />;
}

type Pictures = (t: ToolEntry) => ReactNode;

function Group({
  group,
  tokens,
  programs,
  pictures,
}: {
  group: StageGroup<Item>;
  tokens: (t: ToolEntry) => number | null;
  programs: CodeEntry[];
  pictures: Pictures;
}) {
  const list = (
    <ol className="trace-rows">
      {group.parts.map((p, i) =>
        'group' in p ? (
          <li key={`g${i}`} className="trace-stage-item">
            <Group group={p.group} tokens={tokens} programs={programs} pictures={pictures} />
          </li>
        ) : p.item.k === 'tool' ? (
          <ToolRow
            key={p.item.callId}
            tool={p.item}
            tokens={tokens(p.item)}
            programs={programsOf(programs, p.item.callId)}
            pictures={pictures(p.item)}
          />
        ) : p.item.k === 'code' ? (
          <li key={`c${i}`} className={`trace-row ${p.item.ok ? 'ok' : 'fail'}`}>
            <Program run={p.item} />
          </li>
        ) : (
          <li key={`n${i}`} className="trace-note" data-testid="trace-note">
            {p.item.text}
          </li>
        ),
      )}
    </ol>
  );
  if (!group.stage) return list;
  return (
    <section className="trace-stage" data-testid="trace-stage" data-stage={group.stage} aria-label={`stage ${group.stage}`}>
      <h4>{group.name}</h4>
      {list}
    </section>
  );
}

function programsOf(programs: CodeEntry[], callId: string): CodeEntry[] {
  return programs.filter((c) => c.callId === callId);
}

function ToolRow({
  tool,
  tokens,
  programs,
  pictures,
}: {
  tool: ToolEntry;
  tokens: number | null;
  programs: CodeEntry[];
  pictures: ReactNode;
}) {
  return (
    <li className={`trace-row ${tool.result ? (tool.result.ok ? 'ok' : 'fail') : 'running'}`} data-testid="trace-row" data-tool={tool.name}>
      <div>
        <strong>{tool.name}</strong> <code>{short(tool.args)}</code>
      </div>
      {programs.map((p) => (
        <Program key={p.id} run={p} />
      ))}
      <div className="trace-result" data-testid="trace-result">
        {tool.result ? `${tool.result.status}: ${short(tool.result.content, 600)}` : 'running…'}
      </div>
      {pictures}
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
  );
}

function Program({ run }: { run: CodeEntry }) {
  return (
    <div className="code-run" data-testid="code-run" data-ok={String(run.ok)}>
      <div className="muted">
        program {run.id} · {run.calls.length} call{run.calls.length === 1 ? '' : 's'} · {run.durationMs} ms
      </div>
      <pre className="code">{run.code}</pre>
      <ol className="code-calls">
        {run.calls.map((c) => (
          <li key={c.seq} className={c.ok ? 'ok' : 'fail'} data-testid="code-call">
            <code>
              {c.name}({short(c.args, 160)})
            </code>{' '}
            {c.ok ? `→ ${short(c.result ?? '', 300)}` : `✗ ${short(c.error ?? '', 300)}`}
            <span className="muted"> · {c.durationMs} ms</span>
          </li>
        ))}
      </ol>
      {run.output && <pre className="code-output">{run.output}</pre>}
      <div className={run.ok ? 'muted' : 'warning'}>
        {run.ok
          ? 'ran to the end'
          : `ended: ${run.error?.kind ?? 'error'}${run.error?.line ? ` at line ${run.error.line}` : ''} — ${run.error?.message ?? ''}`}
      </div>
    </div>
  );
}
