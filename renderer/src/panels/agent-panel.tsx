// The agent panel: choose a model (presets, Test connection) and a workflow (its
// system prompt shown), send a message, and watch the run: streamed model text,
// approval prompts, and a trace of every tool call with its arguments, result,
// warnings, timing and tokens. Stop ends the model request and the skill at
// once. Traces export as JSONL and import for a read-only replay. The parts live
// in ./agent/: model settings, the prompt editor, the conversation, the trace
// panel and the runs hook; this file composes them.
import { useCallback, useEffect, useState } from 'react';
import type { AppApi } from '../../../contract/api';
import type { ApprovalMode, ToolSetInfo, WorkflowInfo } from '../../../contract/schemas';
import { ConversationView } from './agent/conversation-view';
import { ModelSettingsPanel, NoModelNotice, useModelSettings } from './agent/model-settings';
import { type PromptEdits, PromptEditor } from './agent/prompt-editor';
import { TracePanel } from './agent/trace-panel';
import { useAgentRuns } from './agent/use-agent-runs';
import { WorkflowAbout, WorkflowPicker } from './agent/workflow-picker';
import { AskDialog } from './ask-dialog';
import { plainSetName } from './plain-names';

export { PRESETS, keyBaseURL, scriptName, specOf, type ModelSettings, type Preset } from './agent/model-settings';
export { loadPromptPresets, type PromptPreset } from './agent/prompt-editor';

export function AgentPanel({ api, desktop }: { api: AppApi; desktop: boolean }) {
  const choice = useModelSettings();
  const { spec } = choice;
  const [workflows, setWorkflows] = useState<WorkflowInfo[]>([]);
  const [workflow, setWorkflow] = useState('rtw/basic');
  const [sets, setSets] = useState<ToolSetInfo[]>([]);
  const [toolSet, setToolSet] = useState('');
  const [approval, setApproval] = useState<ApprovalMode>('auto');
  const [text, setText] = useState('');
  /** The next run starts a new conversation (the model forgets earlier turns; the world stays). */
  const [fresh, setFresh] = useState(false);
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [edits, setEdits] = useState<PromptEdits>({});
  const runs = useAgentRuns(api, setProblem);
  const current = runs.runs[runs.runs.length - 1];

  const refreshLists = useCallback(() => {
    // A list asked for while the host is still loading a scene can fail: ask again shortly (a few times), so the
    // picker never stays on a stand-in list.
    const load = (tries: number) =>
      Promise.all([api.listWorkflows({}).then(setWorkflows), api.listToolSets({}).then(setSets)]).catch(() => {
        if (tries > 0) setTimeout(() => void load(tries - 1), 1000);
      });
    void load(5);
  }, [api]);

  useEffect(() => {
    refreshLists();
    return api.onEvent((e) => {
      if (e.type === 'scene_loaded') refreshLists();
    });
  }, [api, refreshLists]);

  const send = async () => {
    const message = text.trim();
    if (!message || !spec) return;
    const edited = edits[workflow];
    const own = workflows.find((w) => w.id === workflow)?.systemPrompt;
    const ok = await runs.send({
      message,
      workflow,
      model: spec,
      approval,
      ...(toolSet ? { toolSet } : {}),
      ...(edited && edited !== own ? { systemPrompt: edited } : {}),
      ...(fresh ? { fresh: true } : {}),
      ...choice.scriptFields(),
    });
    if (ok) {
      setText('');
      setFresh(false);
    }
  };

  const wf = workflows.find((w) => w.id === workflow);
  const shown = runs.replay ? [runs.replay] : runs.runs;

  return (
    <section className="panel chat agent" aria-label="Agent">
      <ModelSettingsPanel api={api} desktop={desktop} choice={choice} onProblem={setProblem} />
      {!spec && <NoModelNotice desktop={desktop} />}

      <div className="field-row">
        <WorkflowPicker workflows={workflows} value={workflow} onChange={setWorkflow} />
        <label>
          Tools
          <select aria-label="Tool set" value={toolSet} onChange={(e) => setToolSet(e.target.value)}>
            <option value="">scene default</option>
            {sets.map((s) => (
              <option key={s.id} value={s.id} disabled={!s.available}>
                {plainSetName(s)}
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
      {wf && <WorkflowAbout wf={wf} />}
      {wf && <PromptEditor wf={wf} edits={edits} setEdits={setEdits} />}

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
        <button type="submit" disabled={!text.trim() || !spec || runs.running}>
          Send
        </button>
        <button type="button" className="danger" onClick={runs.stop} disabled={!runs.running}>
          Stop
        </button>
        <button
          type="button"
          title="The model forgets the conversation; the scene stays as it is"
          disabled={runs.running || fresh}
          onClick={() => {
            runs.clear();
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
        {current && !current.running && !runs.replay && (
          <button type="button" onClick={() => void runs.exportTrace(current.runId)}>
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
              if (f) void runs.importTrace(f);
              e.target.value = '';
            }}
          />
        </label>
        {runs.replay && (
          <button type="button" className="link" onClick={runs.closeReplay}>
            close replay
          </button>
        )}
      </div>
      {runs.replay && (
        <div className="note" role="status">
          Replay of run {runs.replay.runId} ({runs.replay.workflow || 'workflow ?'}, {runs.replay.model || 'model ?'}) — read-only.
        </div>
      )}

      <div className="conversation" aria-label="Conversation" data-testid="conversation">
        {shown.map((r) => (
          <ConversationView
            key={r.runId}
            run={r}
            note={note}
            setNote={setNote}
            onAnswer={(id, d) => void runs.answer(r.runId, id, d, note).then(() => setNote(''))}
          />
        ))}
      </div>
      <TracePanel runs={shown} api={api} />
    </section>
  );
}
