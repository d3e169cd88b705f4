// The tool console: pick a tool set and a tool, fill the form generated from its
// JSON Schema (or write the arguments as JSON), call it, and read exactly what a
// model would read back, validation messages included.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AppApi } from '../../../contract/api';
import type { SceneMeta, ToolCallResult, ToolInfo, ToolSetInfo } from '../../../contract/schemas';
import { plainSetName } from './plain-names';
import { type Field, buildArgs, fieldsOf, initialValues } from './schema-fields';

export interface ToolConsoleProps {
  api: AppApi;
  meta: SceneMeta | null;
  /** Watching another group: calls would act on its robot, so the console is off and says why. */
  watching?: string | null | undefined;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function FieldInput({ field, value, onChange, listId }: { field: Field; value: string; onChange: (v: string) => void; listId: string }) {
  const id = `arg-${field.name}`;
  const label = (
    <label htmlFor={id}>
      {field.name}
      {field.required ? (
        <span className="req" title="required">
          {' '}
          *
        </span>
      ) : (
        <span className="opt"> (optional)</span>
      )}
    </label>
  );
  let input;
  if (field.kind === 'enum' || field.kind === 'boolean') {
    const options = field.kind === 'boolean' ? ['true', 'false'] : field.options;
    input = (
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{field.required ? '(choose)' : '(leave out)'}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'json') {
    input = (
      <textarea id={id} rows={3} value={value} placeholder="JSON value" onChange={(e) => onChange(e.target.value)} spellCheck={false} />
    );
  } else {
    const placeholder =
      field.kind === 'vector'
        ? field.length
          ? `${field.length} numbers, e.g. ${Array.from({ length: field.length }, () => '0').join(', ')}`
          : 'numbers, comma-separated'
        : field.kind === 'string'
          ? ''
          : field.kind;
    input = (
      <input
        id={id}
        type="text"
        inputMode={field.kind === 'number' || field.kind === 'integer' ? 'decimal' : undefined}
        list={field.kind === 'string' ? listId : undefined}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
      />
    );
  }
  return (
    <div className="field">
      {label}
      {input}
      {field.description && <div className="field-help">{field.description}</div>}
    </div>
  );
}

export function ToolConsole({ api, meta, watching = null }: ToolConsoleProps) {
  const [sets, setSets] = useState<ToolSetInfo[]>([]);
  const [setId, setSetId] = useState<string | undefined>(undefined);
  const [tools, setTools] = useState<ToolInfo[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [jsonMode, setJsonMode] = useState(false);
  const [jsonText, setJsonText] = useState('{}');
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<ToolCallResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [history, setHistory] = useState<ToolCallResult[]>([]);

  useEffect(() => {
    if (!meta) return;
    let live = true;
    api
      .listToolSets({})
      .then((s) => {
        if (!live) return;
        setSets(s);
        setSetId(meta.toolSet);
      })
      .catch((e: unknown) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, [api, meta]);

  useEffect(() => {
    if (!meta || !setId) return;
    let live = true;
    api
      .listTools({ set: setId })
      .then((t) => {
        if (!live) return;
        setTools(t);
        setSelected((cur) => (cur && t.some((x) => x.name === cur) ? cur : (t[0]?.name ?? null)));
        setError(null);
      })
      .catch((e: unknown) => {
        if (!live) return;
        setTools([]);
        setError(errorText(e));
      });
    return () => {
      live = false;
    };
  }, [api, meta, setId]);

  // A new scene (or a reset) starts a clean console: the last result belongs to the old world.
  useEffect(() => {
    setResult(null);
    setHistory([]);
    setError(null);
  }, [meta?.generation]);

  const tool = tools.find((t) => t.name === selected) ?? null;
  // Keyed by the schema, not the object: a refetched list with the same tool keeps what the person typed.
  const schemaKey = tool ? `${tool.name}:${JSON.stringify(tool.parameters)}` : '';
  const fields = useMemo(() => (tool ? fieldsOf(tool.parameters) : []), [schemaKey]);

  useEffect(() => {
    const v = initialValues(fields);
    setValues(v);
    setJsonText(JSON.stringify(buildArgs(fields, v), null, 2));
  }, [fields]);

  const switchMode = () => {
    if (!jsonMode) setJsonText(JSON.stringify(buildArgs(fields, values), null, 2));
    setJsonMode(!jsonMode);
  };

  const call = useCallback(async () => {
    if (!tool) return;
    setRunning(true);
    setError(null);
    // JSON mode sends the text as a model would: malformed JSON gets the tool's own reply.
    const args = jsonMode ? jsonText : buildArgs(fields, values);
    try {
      const r = await api.callTool({ name: tool.name, args, ...(setId ? { set: setId } : {}) });
      setResult(r);
      setHistory((h) => [r, ...h].slice(0, 12));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setRunning(false);
    }
  }, [api, tool, jsonMode, jsonText, fields, values, setId]);

  const names = useMemo(() => {
    if (!meta) return [];
    return [
      ...meta.objects.filter((o) => !o.hidden).flatMap((o) => (o.name !== o.id ? [o.id, o.name] : [o.id])),
      ...meta.locations.map((l) => l.id),
      ...meta.people.map((p) => p.name),
    ];
  }, [meta]);

  const byCategory = (c: ToolInfo['category']) => tools.filter((t) => t.category === c);

  return (
    <section className="panel tool-console" aria-label="Tool console">
      {watching !== null && (
        <p className="note" role="status" data-testid="console-watching">
          You are watching {watching}: the tool console is off here, because a call would move their robot. Go back to your own session to
          call tools.
        </p>
      )}
      <header className="panel-head">
        <h2>Tool console</h2>
        <select aria-label="Tool set" value={setId ?? ''} onChange={(e) => setSetId(e.target.value)}>
          {sets.map((s) => (
            <option key={s.id} value={s.id} disabled={!s.available} title={s.reason ?? s.description}>
              {plainSetName(s)}
              {s.isDefault ? ' (scene default)' : ''}
              {s.available ? '' : ' (unavailable)'}
            </option>
          ))}
        </select>
      </header>
      <div className="tool-list" role="listbox" aria-label="Tools">
        {(['information', 'action'] as const).map((c) =>
          byCategory(c).length ? (
            <div key={c} className="tool-group">
              <div className="tool-group-title">{c === 'information' ? 'Information' : 'Actions'}</div>
              {byCategory(c).map((t) => (
                <button
                  key={t.name}
                  type="button"
                  role="option"
                  aria-selected={t.name === selected}
                  className={t.name === selected ? 'tool-item selected' : 'tool-item'}
                  onClick={() => setSelected(t.name)}
                  title={t.description}
                >
                  {t.name}
                </button>
              ))}
            </div>
          ) : null,
        )}
      </div>
      {tool && (
        <form
          className="tool-form"
          onSubmit={(e) => {
            e.preventDefault();
            void call();
          }}
        >
          <div className="tool-title">
            <code>{tool.name}</code> <span className={`badge ${tool.category}`}>{tool.category}</span>
          </div>
          <p className="tool-desc">{tool.description}</p>
          <details className="tool-card">
            <summary>Tool card</summary>
            <dl>
              <dt>When to use</dt>
              <dd>{tool.card.whenToUse}</dd>
              <dt>Inputs</dt>
              <dd>{tool.card.inputs}</dd>
              <dt>Outputs</dt>
              <dd>{tool.card.outputs}</dd>
              {tool.card.constraints && (
                <>
                  <dt>Constraints</dt>
                  <dd>{tool.card.constraints}</dd>
                </>
              )}
              <dt>Mode · dimension</dt>
              <dd>
                {tool.card.mode} · {tool.card.dimension}
                {tool.card.requires.length ? ` · needs ${tool.card.requires.join(', ')}` : ''}
              </dd>
            </dl>
            <details>
              <summary>JSON Schema (what the model sees)</summary>
              <pre className="schema">{JSON.stringify(tool.parameters, null, 2)}</pre>
            </details>
          </details>
          <div className="mode-row">
            <label className="check">
              <input type="checkbox" checked={jsonMode} onChange={switchMode} /> Edit arguments as JSON
            </label>
          </div>
          {jsonMode ? (
            <textarea
              aria-label="Arguments (JSON)"
              className="json-args"
              rows={6}
              value={jsonText}
              onChange={(e) => setJsonText(e.target.value)}
              spellCheck={false}
            />
          ) : fields.length ? (
            fields.map((f) => (
              <FieldInput
                key={f.name}
                field={f}
                value={values[f.name] ?? ''}
                listId="scene-names"
                onChange={(v) => setValues((cur) => ({ ...cur, [f.name]: v }))}
              />
            ))
          ) : (
            <p className="muted">This tool takes no arguments.</p>
          )}
          <datalist id="scene-names">
            {names.map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
          <div className="button-row">
            <button type="submit" className="primary" disabled={running || watching !== null}>
              {running ? 'Running…' : `Call ${tool.name}`}
            </button>
            {running && (
              <button type="button" onClick={() => void api.cancelToolCall({})}>
                Stop
              </button>
            )}
          </div>
        </form>
      )}
      {error && (
        <div className="error" role="alert">
          {error}
        </div>
      )}
      {result && (
        <div className={`result ${result.ok ? 'ok' : 'fail'}`} aria-live="polite" data-testid="tool-result">
          <div className="result-head">
            <span className="status">{result.ok ? '✓ ok' : '✗ failed'}</span> <code>{result.tool}</code>
            <span className="muted">
              {' '}
              · {(result.elapsedMs / 1000).toFixed(2)} s wall · {result.simSeconds.toFixed(2)} s simulated
            </span>
          </div>
          <div className="muted small">What the model reads:</div>
          <pre className="result-content">{result.content}</pre>
          {result.data !== undefined && (
            <details>
              <summary>Structured data</summary>
              <pre>{JSON.stringify(result.data, null, 2)}</pre>
            </details>
          )}
        </div>
      )}
      {history.length > 1 && (
        <details className="history">
          <summary>Earlier calls ({history.length - 1})</summary>
          <ul>
            {history.slice(1).map((h) => (
              <li key={h.callId}>
                <button type="button" className="link" onClick={() => setResult(h)}>
                  {h.ok ? '✓' : '✗'} {h.tool}
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
