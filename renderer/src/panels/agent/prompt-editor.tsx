// The workflow's system prompt, shown and editable: an edit applies to this
// session's runs, and can be saved as a named preset (kept in the browser's
// storage) and loaded again.
import { useState } from 'react';
import type { WorkflowInfo } from '../../../../contract/schemas';

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

/** Edited system prompts by workflow id; absent = the workflow's own prompt. */
export type PromptEdits = Record<string, string>;

export function PromptEditor({
  wf,
  edits,
  setEdits,
}: {
  wf: WorkflowInfo;
  edits: PromptEdits;
  setEdits: (f: (m: PromptEdits) => PromptEdits) => void;
}) {
  const [presets, setPresets] = useState<PromptPreset[]>(() => loadPromptPresets());
  const [presetName, setPresetName] = useState('');
  return (
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
  );
}
