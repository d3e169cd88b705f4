// The agent panel: choose a model (presets, Test connection) and a workflow (its
// system prompt shown), send a message, and watch the run: streamed model text,
// approval prompts, and a trace of every tool call with its arguments, result,
// warnings, timing and tokens. Stop ends the model request and the skill at
// once. Traces export as JSONL and import for a read-only replay.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppApi } from '../../../contract/api';
import type { ApprovalMode, LocalModels, ProbeResult, ToolSetInfo, WorkflowInfo } from '../../../contract/schemas';
import { AskDialog } from './ask-dialog';
import { type Entry, type RunView, type ToolEntry, applyEvent, fromTrace, markAnswered, newRun } from './run-view';

export type Preset = 'openai' | 'ollama' | 'lmstudio' | 'llamacpp' | 'vllm' | 'custom' | 'scripted';

export const PRESETS: Array<{ id: Preset; label: string; model: string; hint: string }> = [
  { id: 'openai', label: 'OpenAI', model: 'gpt-4.1-mini', hint: 'Needs an API key (OPENAI_API_KEY).' },
  { id: 'ollama', label: 'Ollama', model: 'qwen3:8b', hint: 'Local: `ollama serve`, then `ollama pull MODEL`.' },
  { id: 'lmstudio', label: 'LM Studio', model: 'qwen3-8b', hint: 'Local: start the LM Studio server (port 1234).' },
  { id: 'llamacpp', label: 'llama.cpp', model: 'local', hint: 'Local: `llama-server -m MODEL.gguf --jinja --port 8080`.' },
  {
    id: 'vllm',
    label: 'vLLM',
    model: 'Qwen/Qwen3-8B',
    hint: 'Local: `vllm serve MODEL --enable-auto-tool-choice --tool-call-parser hermes`.',
  },
  { id: 'custom', label: 'Custom base URL', model: 'model', hint: 'Any OpenAI-compatible server (SKILLBRIDGE_API_KEY if it needs a key).' },
  {
    id: 'scripted',
    label: 'Scripted file',
    model: '',
    hint: 'Replays assistant turns from a .json file you choose (tests, demos); its content is sent to the host.',
  },
];

/** A saved system prompt for one workflow (kept in the browser's storage). */
export interface PromptPreset {
  name: string;
  workflow: string;
  prompt: string;
}

const PRESET_KEY = 'skillbridge.promptPresets';

export function loadPromptPresets(): PromptPreset[] {
  try {
    const raw: unknown = JSON.parse(globalThis.localStorage?.getItem(PRESET_KEY) ?? '[]');
    if (!Array.isArray(raw)) return [];
    return raw.filter(
      (p): p is PromptPreset =>
        typeof p === 'object' && p !== null && typeof p.name === 'string' && typeof p.workflow === 'string' && typeof p.prompt === 'string',
    );
  } catch {
    return [];
  }
}

function savePromptPresets(list: readonly PromptPreset[]): void {
  try {
    globalThis.localStorage?.setItem(PRESET_KEY, JSON.stringify(list));
  } catch {
    // Storage full or disabled: the edit still applies to this session.
  }
}

export interface ModelSettings {
  preset: Preset;
  model: string;
  baseURL: string;
  file: string;
}

/** The base URL a stored key belongs to: a key is sent to that server and no other. */
export function keyBaseURL(s: ModelSettings): string | null {
  if (s.preset === 'openai') return 'https://api.openai.com/v1';
  if (s.preset === 'custom' && /^https?:\/\/\S+$/.test(s.baseURL.trim())) return s.baseURL.trim().replace(/\/+$/, '');
  return null;
}

export function specOf(s: ModelSettings): string {
  if (s.preset === 'scripted') return s.file.trim() ? `scripted:${s.file.trim()}` : '';
  if (s.preset === 'custom') return s.model.trim() && s.baseURL.trim() ? `openai-compatible:${s.model.trim()}@${s.baseURL.trim()}` : '';
  return s.model.trim() ? `${s.preset}:${s.model.trim()}` : '';
}

const STORE = 'skillbridge.agent.settings';

function loadSettings(): ModelSettings | null {
  try {
    const v = JSON.parse(globalThis.localStorage?.getItem(STORE) ?? 'null') as ModelSettings | null;
    return v && PRESETS.some((p) => p.id === v.preset) ? v : null;
  } catch {
    return null;
  }
}

/** A script's file name as the model spec names it (scripted:NAME). */
export function scriptName(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? 'script.json';
  const clean = base.replace(/[^\w.-]/g, '_').replace(/^\.+/, '');
  return /\.json$/i.test(clean) ? clean : `${clean || 'script'}.json`;
}

function msg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function short(v: unknown, max = 400): string {
  const t = typeof v === 'string' ? v : JSON.stringify(v ?? {});
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

export function AgentPanel({ api, desktop }: { api: AppApi; desktop: boolean }) {
  const [settings, setSettings] = useState<ModelSettings>(
    () => loadSettings() ?? { preset: 'ollama', model: '', baseURL: 'http://127.0.0.1:8080/v1', file: '' },
  );
  const [settingsOpen, setSettingsOpen] = useState(() => !specOf(settings));
  const [workflows, setWorkflows] = useState<WorkflowInfo[]>([]);
  const [workflow, setWorkflow] = useState('rtw/basic');
  const [sets, setSets] = useState<ToolSetInfo[]>([]);
  const [toolSet, setToolSet] = useState('');
  const [approval, setApproval] = useState<ApprovalMode>('auto');
  const [probe, setProbe] = useState<ProbeResult | null>(null);
  const [probing, setProbing] = useState(false);
  const [local, setLocal] = useState<LocalModels | null>(null);
  const [keyStored, setKeyStored] = useState<boolean | null>(null);
  const [key, setKey] = useState('');
  /** The uploaded script of a scripted model (kept for this page only). */
  const [script, setScript] = useState('');
  const [text, setText] = useState('');
  const [runs, setRuns] = useState<RunView[]>([]);
  /** The next run starts a new conversation (the model forgets earlier turns; the world stays). */
  const [fresh, setFresh] = useState(false);
  const [replay, setReplay] = useState<RunView | null>(null);
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  /** Edited system prompts by workflow id; absent = the workflow's own prompt. */
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [presets, setPresets] = useState<PromptPreset[]>(() => loadPromptPresets());
  const [presetName, setPresetName] = useState('');
  const pending = useRef<Map<string, Parameters<typeof applyEvent>[1][]>>(new Map());

  const spec = specOf(settings);
  const preset = PRESETS.find((p) => p.id === settings.preset)!;
  const running = runs.some((r) => r.running);
  const current = runs[runs.length - 1];

  useEffect(() => {
    try {
      globalThis.localStorage?.setItem(STORE, JSON.stringify(settings));
    } catch {
      // storage may be off; the settings just do not persist
    }
  }, [settings]);

  const refreshLists = useCallback(() => {
    api.listWorkflows({}).then(setWorkflows, () => undefined);
    api.listToolSets({}).then(setSets, () => undefined);
  }, [api]);

  useEffect(() => {
    refreshLists();
    api.detectModels({}).then(setLocal, () => undefined);
  }, [api, refreshLists]);

  const keyURL = keyBaseURL(settings);
  useEffect(() => {
    if (!desktop || !keyURL) return;
    api.hasApiKey({ baseURL: keyURL }).then(
      (r) => setKeyStored(r.stored),
      () => setKeyStored(null),
    );
  }, [api, desktop, keyURL]);

  useEffect(
    () =>
      api.onEvent((e) => {
        if (e.type === 'scene_loaded') refreshLists();
        if (e.type !== 'run') return;
        const ev = e.event;
        setRuns((rs) => {
          const i = rs.findIndex((r) => r.runId === ev.runId);
          if (i < 0) {
            // Events can arrive before run() answers: keep them for the run's view.
            const q = pending.current.get(ev.runId) ?? [];
            q.push(ev);
            pending.current.set(ev.runId, q);
            return rs;
          }
          const out = rs.slice();
          out[i] = applyEvent(out[i]!, ev);
          return out;
        });
      }),
    [api, refreshLists],
  );

  const send = async () => {
    const message = text.trim();
    if (!message || !spec) return;
    setProblem(null);
    setReplay(null);
    try {
      const edited = edits[workflow];
      const own = workflows.find((w) => w.id === workflow)?.systemPrompt;
      const r = await api.run({
        message,
        workflow,
        model: spec,
        approval,
        ...(toolSet ? { toolSet } : {}),
        ...(edited && edited !== own ? { systemPrompt: edited } : {}),
        ...(fresh ? { fresh: true } : {}),
        ...(settings.preset === 'scripted' && script ? { script } : {}),
      });
      setText('');
      setFresh(false);
      setRuns((rs) => {
        let v = { ...newRun(r.runId, message, spec, workflow), tracePath: r.tracePath };
        for (const ev of pending.current.get(r.runId) ?? []) v = applyEvent(v, ev);
        pending.current.delete(r.runId);
        return [...rs, v].slice(-20);
      });
    } catch (e) {
      setProblem(msg(e));
    }
  };

  const stop = () => {
    api.stop({}).then(
      (r) => !r.ok && setProblem(r.message),
      (e: unknown) => setProblem(msg(e)),
    );
  };

  const answer = (runId: string, id: string, decision: 'approve' | 'reject') => {
    api.answerApproval({ id, decision, ...(note.trim() ? { note: note.trim() } : {}) }).then(
      (r) => {
        if (!r.ok) setProblem(r.message);
        setRuns((rs) => rs.map((v) => (v.runId === runId ? markAnswered(v, id, decision) : v)));
        setNote('');
      },
      (e: unknown) => setProblem(msg(e)),
    );
  };

  const testConnection = async () => {
    if (!spec) return;
    setProbing(true);
    setProbe(null);
    try {
      setProbe(await api.probeModel({ spec, ...(settings.preset === 'scripted' && script ? { script } : {}) }));
    } catch (e) {
      setProblem(msg(e));
    } finally {
      setProbing(false);
    }
  };

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
      setProblem(msg(e));
    }
  };

  const importTrace = async (file: File) => {
    try {
      const t = await api.importTrace({ text: await file.text() });
      setReplay(fromTrace(t));
      // A damaged or cut-off trace still replays; say what is missing.
      setProblem(t.notes?.length ? `Imported with notes: ${t.notes.join('; ')}.` : null);
    } catch (e) {
      setProblem(msg(e));
    }
  };

  const set = (patch: Partial<ModelSettings>) => setSettings((s) => ({ ...s, ...patch }));
  const wf = workflows.find((w) => w.id === workflow);
  const shown = replay ? [replay] : runs;

  return (
    <section className="panel chat agent" aria-label="Agent">
      <details className="agent-settings" open={settingsOpen} onToggle={(e) => setSettingsOpen(e.currentTarget.open)}>
        <summary>
          Model: <code>{spec || 'none chosen'}</code>
        </summary>
        <div className="field-row">
          <label>
            Provider
            <select
              aria-label="Model provider"
              value={settings.preset}
              onChange={(e) => set({ preset: e.target.value as Preset, model: '' })}
            >
              {PRESETS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
            </select>
          </label>
          {settings.preset === 'scripted' ? (
            <label>
              Script file{settings.file ? ` (${settings.file}${script ? '' : ', choose it again'})` : ''}
              <input
                aria-label="Script file"
                type="file"
                accept=".json,application/json"
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  if (!f) return;
                  // The page cannot name files on the host: the script's content goes with the run.
                  f.text().then(
                    (t) => {
                      setScript(t);
                      set({ file: scriptName(f.name) });
                    },
                    (err: unknown) => setProblem(msg(err)),
                  );
                }}
              />
            </label>
          ) : (
            <label>
              Model
              <input
                aria-label="Model name"
                value={settings.model}
                placeholder={preset.model}
                list={settings.preset === 'ollama' ? 'ollama-models' : undefined}
                onChange={(e) => set({ model: e.target.value })}
              />
            </label>
          )}
        </div>
        {settings.preset === 'custom' && (
          <label>
            Base URL
            <input aria-label="Base URL" value={settings.baseURL} onChange={(e) => set({ baseURL: e.target.value })} />
          </label>
        )}
        <datalist id="ollama-models">
          {local?.ollama.models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        <p className="muted">
          {preset.hint}{' '}
          {local?.ollama.reachable
            ? `Ollama is running here with ${local.ollama.models.length} model${local.ollama.models.length === 1 ? '' : 's'}.`
            : settings.preset === 'ollama'
              ? 'Ollama was not found on 127.0.0.1:11434.'
              : ''}
        </p>
        {(settings.preset === 'openai' || settings.preset === 'custom') &&
          (desktop ? (
            <form
              className="field-row"
              onSubmit={(e) => {
                e.preventDefault();
                if (!keyURL) return;
                api.setApiKey({ baseURL: keyURL, key }).then(
                  (r) => {
                    setKeyStored(r.ok);
                    setKey('');
                  },
                  (err: unknown) => setProblem(msg(err)),
                );
              }}
            >
              <input
                aria-label="API key"
                type="password"
                value={key}
                placeholder={keyStored ? 'a key is stored' : 'API key'}
                onChange={(e) => setKey(e.target.value)}
              />
              <button type="submit" disabled={!key}>
                Store key
              </button>
            </form>
          ) : (
            <p className="muted">
              Web mode: the key comes from the environment of "skillbridge serve": OPENAI_API_KEY for OpenAI; SKILLBRIDGE_API_KEY only for
              the server in SKILLBRIDGE_API_BASE_URL or one started with --allow-key-for URL. The browser never sees it.
            </p>
          ))}
        <div className="field-row">
          <button type="button" onClick={() => void testConnection()} disabled={!spec || probing}>
            {probing ? 'Testing…' : 'Test connection'}
          </button>
        </div>
        {probe && (
          <div className={probe.error ? 'note fail' : 'note ok'} role="status" data-testid="probe-result">
            {probe.error ? (
              <>
                <strong>{probe.reachable ? 'Reachable, but: ' : 'Not reachable: '}</strong>
                {probe.error.message}
                {probe.error.fix && <div>Fix: {probe.error.fix}</div>}
              </>
            ) : (
              <>
                <strong>Reachable</strong>
                {probe.latencyMs ? ` (${probe.latencyMs} ms)` : ''}. Native tool calls: {probe.nativeToolCalls ? 'yes' : 'no'}
                {probe.nativeToolCalls ? '' : `; text fallback: ${probe.textToolCalls ? 'yes' : 'no'}`}.
              </>
            )}
            {probe.notes.map((n) => (
              <div key={n} className="muted">
                {n}
              </div>
            ))}
          </div>
        )}
      </details>

      {!spec && (
        <div className="notice" role="note">
          <h3>No model connected</h3>
          <ol>
            <li>
              Choose a provider above: OpenAI, or a local OpenAI-compatible server — Ollama, LM Studio, llama.cpp (
              <code>llama-server --jinja --port 8080</code>), vLLM — or any base URL.
            </li>
            <li>
              {desktop
                ? 'For OpenAI, store the API key above: the desktop app keeps it encrypted where the OS offers a keyring (it says which when you store it), sends it to that server only, and never shows it to this window.'
                : 'For OpenAI, give the key to "skillbridge serve" through the environment (OPENAI_API_KEY); the browser never sees it.'}
            </li>
            <li>
              Press Test connection, choose a workflow and type a task. The robot acts in the view while messages, tool calls and results
              appear here.
            </li>
          </ol>
        </div>
      )}

      <div className="field-row">
        <label>
          Workflow
          <select aria-label="Workflow" value={workflow} onChange={(e) => setWorkflow(e.target.value)}>
            {(workflows.length ? workflows : [{ id: 'rtw/basic', title: 'rtw/basic' }]).map((w) => (
              <option key={w.id} value={w.id}>
                {w.title}
              </option>
            ))}
          </select>
        </label>
        <label>
          Tools
          <select aria-label="Tool set" value={toolSet} onChange={(e) => setToolSet(e.target.value)}>
            <option value="">scene default</option>
            {sets.map((s) => (
              <option key={s.id} value={s.id} disabled={!s.available}>
                {s.id}
                {s.available ? '' : ' (unavailable)'}
              </option>
            ))}
          </select>
        </label>
        <label>
          Approval
          <select aria-label="Approval" value={approval} onChange={(e) => setApproval(e.target.value as ApprovalMode)}>
            <option value="auto">run all calls</option>
            <option value="ask">ask before actions</option>
            <option value="deny">no actions</option>
          </select>
        </label>
      </div>
      {wf && (
        <details className="system-prompt">
          <summary>System prompt ({wf.title})</summary>
          <p className="muted">{wf.description}</p>
          <textarea
            data-testid="system-prompt"
            aria-label="System prompt"
            rows={8}
            value={edits[wf.id] ?? wf.systemPrompt}
            onChange={(e) => setEdits((m) => ({ ...m, [wf.id]: e.target.value }))}
          />
          <div className="row">
            <button type="button" disabled={edits[wf.id] === undefined} onClick={() => setEdits(({ [wf.id]: _drop, ...rest }) => rest)}>
              Use the workflow's prompt
            </button>
            <input aria-label="Preset name" placeholder="preset name" value={presetName} onChange={(e) => setPresetName(e.target.value)} />
            <button
              type="button"
              disabled={!presetName.trim()}
              onClick={() => {
                const item = { name: presetName.trim(), workflow: wf.id, prompt: edits[wf.id] ?? wf.systemPrompt };
                const next = [...presets.filter((p) => !(p.name === item.name && p.workflow === item.workflow)), item];
                setPresets(next);
                savePromptPresets(next);
                setPresetName('');
              }}
            >
              Save as preset
            </button>
            {presets.some((p) => p.workflow === wf.id) && (
              <select
                aria-label="Prompt preset"
                value=""
                onChange={(e) => {
                  const p = presets.find((x) => x.workflow === wf.id && x.name === e.target.value);
                  if (p) setEdits((m) => ({ ...m, [wf.id]: p.prompt }));
                }}
              >
                <option value="">load a preset…</option>
                {presets
                  .filter((p) => p.workflow === wf.id)
                  .map((p) => (
                    <option key={p.name} value={p.name}>
                      {p.name}
                    </option>
                  ))}
              </select>
            )}
          </div>
        </details>
      )}

      <form
        className="chat-form"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <textarea
          aria-label="Message to the agent"
          rows={2}
          value={text}
          placeholder="e.g. put the lemon in the bowl"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void send();
            }
          }}
        />
        <button type="submit" disabled={!text.trim() || !spec || running}>
          Send
        </button>
        <button type="button" className="danger" onClick={stop} disabled={!running}>
          Stop
        </button>
        <button
          type="button"
          title="The model forgets the conversation; the scene stays as it is"
          disabled={running || fresh}
          onClick={() => {
            setRuns([]);
            setReplay(null);
            setFresh(true);
          }}
        >
          New conversation
        </button>
      </form>
      {problem && (
        <div className="note fail" role="alert">
          {problem}
        </div>
      )}
      <AskDialog api={api} />

      <div className="field-row trace-tools">
        {current && !current.running && !replay && (
          <button type="button" onClick={() => void exportTrace(current.runId)}>
            Export trace
          </button>
        )}
        <label className="file-button">
          Import trace
          <input
            type="file"
            aria-label="Import trace"
            accept=".jsonl,.json,application/x-ndjson"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void importTrace(f);
              e.target.value = '';
            }}
          />
        </label>
        {replay && (
          <button type="button" className="link" onClick={() => setReplay(null)}>
            close replay
          </button>
        )}
      </div>
      {replay && (
        <div className="note" role="status">
          Replay of run {replay.runId} ({replay.workflow || 'workflow ?'}, {replay.model || 'model ?'}) — read-only.
        </div>
      )}

      <div className="conversation" aria-label="Conversation" data-testid="conversation">
        {shown.map((r) => (
          <Conversation key={r.runId} run={r} note={note} setNote={setNote} onAnswer={(id, d) => answer(r.runId, id, d)} />
        ))}
      </div>
      <TracePanel runs={shown} />
    </section>
  );
}

function Conversation({
  run,
  note,
  setNote,
  onAnswer,
}: {
  run: RunView;
  note: string;
  setNote: (s: string) => void;
  onAnswer: (id: string, d: 'approve' | 'reject') => void;
}) {
  return (
    <div className="turn" data-run={run.runId}>
      {run.entries.map((e, i) => (
        <ConversationEntry key={i} entry={e} readOnly={run.imported} note={note} setNote={setNote} onAnswer={onAnswer} />
      ))}
      {run.running && <div className="muted">running…</div>}
    </div>
  );
}

function ConversationEntry({
  entry: e,
  readOnly,
  note,
  setNote,
  onAnswer,
}: {
  entry: Entry;
  readOnly: boolean;
  note: string;
  setNote: (s: string) => void;
  onAnswer: (id: string, d: 'approve' | 'reject') => void;
}) {
  switch (e.k) {
    case 'user':
      return <div className="msg user">you: {e.text}</div>;
    case 'assistant':
      return e.text || e.reasoning ? (
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
            <div className="msg assistant" data-testid="assistant-text">
              model: {e.text}
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
    case 'warning':
      return (
        <div className="msg warning">
          ! {e.code}: {e.message}
        </div>
      );
    case 'approval':
      return (
        <div className="approval" role="group" aria-label={`Approve ${e.tool}`}>
          <div>
            <strong>Approve {e.tool}</strong>({short(e.args, 200)})? <span className="muted">{e.reason}</span>
          </div>
          {e.answered || readOnly ? (
            <div className="muted">{e.answered === 'approve' ? 'approved' : e.answered === 'reject' ? 'rejected' : 'asked'}</div>
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
        <div className={`msg end ${e.reason}`} data-testid="run-end" data-reason={e.reason}>
          {e.reason === 'done' ? `answer: ${e.text}` : `run ended (${e.reason}): ${e.detail}`}
          <div className="muted">
            {e.iterations} model turns, {e.toolCalls} tool calls, {e.usage.totalTokens} tokens, {(e.durationMs / 1000).toFixed(1)} s
          </div>
        </div>
      );
  }
}

function TracePanel({ runs }: { runs: RunView[] }) {
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
