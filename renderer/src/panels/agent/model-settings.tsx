// The model half of the agent panel: provider presets, the model name or script
// file, the API key (stored by the desktop app, never shown to this window), the
// capability probe ("Test connection") and Ollama detection. The settings persist
// in the browser's storage.
import { useEffect, useState } from 'react';
import type { AppApi } from '../../../../contract/api';
import type { LocalModels, ProbeResult } from '../../../../contract/schemas';
import { LocalModelsPanel } from './local-models';

export type Preset = 'openai' | 'ollama' | 'lmstudio' | 'llamacpp' | 'vllm' | 'custom' | 'scripted' | 'local';

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
  {
    id: 'local',
    label: 'In the app (GGUF)',
    model: 'qwen2.5-1.5b-instruct',
    hint: 'Runs a GGUF model inside the app, offline, no server: download one below once, then Use it.',
  },
  { id: 'custom', label: 'Custom base URL', model: 'model', hint: 'Any OpenAI-compatible server (SKILLBRIDGE_API_KEY if it needs a key).' },
  {
    id: 'scripted',
    label: 'Scripted file',
    model: '',
    hint: 'Replays assistant turns from a .json file you choose (tests, demos); its content is sent to the host.',
  },
];

export interface ModelSettings {
  preset: Preset;
  model: string;
  baseURL: string;
  file: string;
  /** The person says the model reads images: its spec ends with `+images` and it gets the robot's camera. */
  images?: boolean;
}

/** The base URL a stored key belongs to: a key is sent to that server and no other. */
export function keyBaseURL(s: ModelSettings): string | null {
  if (s.preset === 'openai') return 'https://api.openai.com/v1';
  if (s.preset === 'custom' && /^https?:\/\/\S+$/.test(s.baseURL.trim())) return s.baseURL.trim().replace(/\/+$/, '');
  return null;
}

export function specOf(s: ModelSettings): string {
  const spec = baseSpec(s);
  // A model run in the app reads no images; a spec that says it already is left as it is.
  return spec && s.images && s.preset !== 'local' && !/\+images$/i.test(spec) ? `${spec}+images` : spec;
}

function baseSpec(s: ModelSettings): string {
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

export function msg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export interface ModelChoice {
  settings: ModelSettings;
  set: (patch: Partial<ModelSettings>) => void;
  /** What a run is sent with. */
  spec: string;
  /** The uploaded script of a scripted model (kept for this page only). */
  script: string;
  setScript: (text: string) => void;
  /** The script to send with a run or probe, when a scripted model is chosen. */
  scriptFields: () => { script?: string };
}

/** The model settings, kept in the browser's storage, and the uploaded script of a scripted model. */
export function useModelSettings(): ModelChoice {
  const [settings, setSettings] = useState<ModelSettings>(
    () => loadSettings() ?? { preset: 'ollama', model: '', baseURL: 'http://127.0.0.1:8080/v1', file: '' },
  );
  const [script, setScript] = useState('');
  useEffect(() => {
    try {
      globalThis.localStorage?.setItem(STORE, JSON.stringify(settings));
    } catch {
      // storage may be off; the settings just do not persist
    }
  }, [settings]);
  return {
    settings,
    set: (patch) => setSettings((s) => ({ ...s, ...patch })),
    spec: specOf(settings),
    script,
    setScript,
    scriptFields: () => (settings.preset === 'scripted' && script ? { script } : {}),
  };
}

export function ModelSettingsPanel({
  api,
  desktop,
  choice,
  onProblem,
}: {
  api: AppApi;
  desktop: boolean;
  choice: ModelChoice;
  onProblem: (message: string) => void;
}) {
  const { settings, set, spec, script, setScript } = choice;
  const [open, setOpen] = useState(() => !spec);
  const [probe, setProbe] = useState<ProbeResult | null>(null);
  const [probing, setProbing] = useState(false);
  const [local, setLocal] = useState<LocalModels | null>(null);
  const [keyStored, setKeyStored] = useState<boolean | null>(null);
  const [key, setKey] = useState('');
  const preset = PRESETS.find((p) => p.id === settings.preset)!;

  useEffect(() => {
    api.detectModels({}).then(setLocal, () => undefined);
  }, [api]);

  const keyURL = keyBaseURL(settings);
  useEffect(() => {
    if (!desktop || !keyURL) return;
    api.hasApiKey({ baseURL: keyURL }).then(
      (r) => setKeyStored(r.stored),
      () => setKeyStored(null),
    );
  }, [api, desktop, keyURL]);

  const testConnection = async () => {
    if (!spec) return;
    setProbing(true);
    setProbe(null);
    try {
      setProbe(await api.probeModel({ spec, ...choice.scriptFields() }));
    } catch (e) {
      onProblem(msg(e));
    } finally {
      setProbing(false);
    }
  };

  return (
    <details className="agent-settings" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
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
                  (err: unknown) => onProblem(msg(err)),
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
      {settings.preset === 'local' && (
        <LocalModelsPanel api={api} selected={settings.model.trim()} onSelect={(id) => set({ model: id })} onProblem={onProblem} />
      )}
      {settings.preset === 'custom' && (
        <label>
          Base URL
          <input aria-label="Base URL" value={settings.baseURL} onChange={(e) => set({ baseURL: e.target.value })} />
        </label>
      )}
      {settings.preset !== 'local' && (
        <label className="check">
          <input type="checkbox" checked={settings.images ?? false} onChange={(e) => set({ images: e.target.checked })} /> Reads images
          (adds +images: the model gets the robot&apos;s camera)
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
                (err: unknown) => onProblem(msg(err)),
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
            Web mode: the key comes from the environment of "skillbridge serve": OPENAI_API_KEY for OpenAI; SKILLBRIDGE_API_KEY only for the
            server in SKILLBRIDGE_API_BASE_URL or one started with --allow-key-for URL. The browser never sees it.
          </p>
        ))}
      <div className="field-row">
        <button type="button" onClick={() => void testConnection()} disabled={!spec || probing}>
          {probing ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      {probe && <ProbeReport probe={probe} />}
    </details>
  );
}

function ProbeReport({ probe }: { probe: ProbeResult }) {
  return (
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
      <div data-testid="probe-images">
        Sees images:{' '}
        {probe.imageInput.known ? (
          probe.imageInput.value ? (
            'yes'
          ) : (
            'no'
          )
        ) : (
          <span title={probe.imageInput.why}>not probed ({probe.imageInput.why})</span>
        )}
      </div>
      {probe.notes.map((n) => (
        <div key={n} className="muted">
          {n}
        </div>
      ))}
    </div>
  );
}

/** What to do when no model is chosen yet. */
export function NoModelNotice({ desktop }: { desktop: boolean }) {
  return (
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
          Press Test connection, choose a workflow and type a task. The robot acts in the view while messages, tool calls and results appear
          here.
        </li>
      </ol>
    </div>
  );
}
