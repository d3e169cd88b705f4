// The runs of the agent panel: the views built from the host's run events (events
// that arrive before run() answers are held for their run), sending a message,
// Stop, approval answers, and exporting or importing a trace for a read-only replay.
import { useEffect, useRef, useState } from 'react';
import type { AppApi, Request } from '../../../../contract/api';
import type { RunEvent } from '../../../../contract/schemas';
import { fromTrace } from '../run-from-trace';
import { type RunView, applyEvent, markAnswered, newRun } from '../run-view';
import { msg } from './model-settings';

export interface AgentRuns {
  runs: RunView[];
  replay: RunView | null;
  running: boolean;
  /** Starts a run; resolves true when the host accepted it. */
  send(req: Request<'run'>): Promise<boolean>;
  stop(): void;
  answer(runId: string, id: string, decision: 'approve' | 'reject', note: string): Promise<boolean>;
  exportTrace(runId: string): Promise<void>;
  importTrace(file: File): Promise<void>;
  closeReplay(): void;
  /** Forgets the runs shown (a new conversation). */
  clear(): void;
}

export function useAgentRuns(api: AppApi, onProblem: (message: string | null) => void): AgentRuns {
  const [runs, setRuns] = useState<RunView[]>([]);
  const [replay, setReplay] = useState<RunView | null>(null);
  const pending = useRef<Map<string, RunEvent[]>>(new Map());

  useEffect(
    () =>
      api.onEvent((e) => {
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
    [api],
  );

  return {
    runs,
    replay,
    running: runs.some((r) => r.running),
    send: async (req) => {
      onProblem(null);
      setReplay(null);
      try {
        const r = await api.run(req);
        setRuns((rs) => {
          let v = { ...newRun(r.runId, req.message, req.model, req.workflow), tracePath: r.tracePath };
          for (const ev of pending.current.get(r.runId) ?? []) v = applyEvent(v, ev);
          pending.current.delete(r.runId);
          return [...rs, v].slice(-20);
        });
        return true;
      } catch (e) {
        onProblem(msg(e));
        return false;
      }
    },
    stop: () => {
      api.stop({}).then(
        (r) => !r.ok && onProblem(r.message),
        (e: unknown) => onProblem(msg(e)),
      );
    },
    answer: async (runId, id, decision, note) => {
      try {
        const r = await api.answerApproval({ id, decision, ...(note.trim() ? { note: note.trim() } : {}) });
        if (!r.ok) onProblem(r.message);
        setRuns((rs) => rs.map((v) => (v.runId === runId ? markAnswered(v, id, decision) : v)));
        return true;
      } catch (e) {
        onProblem(msg(e));
        return false;
      }
    },
    exportTrace: async (runId) => {
      try {
        const t = await api.exportTrace({ runId });
        const url = URL.createObjectURL(new Blob([t.text], { type: 'application/x-ndjson' }));
        const a = document.createElement('a');
        a.href = url;
        a.download = t.name;
        a.click();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
      } catch (e) {
        onProblem(msg(e));
      }
    },
    importTrace: async (file) => {
      try {
        const t = await api.importTrace({ text: await file.text() });
        setReplay(fromTrace(t));
        // A damaged or cut-off trace still replays; say what is missing, and when it comes from another scene.
        const notes = [...(t.notes ?? [])];
        const recorded = typeof t.header['scene'] === 'string' ? t.header['scene'] : null;
        const here = (await api.currentScene({}).catch(() => null))?.id ?? null;
        if (recorded && here && recorded !== here)
          notes.push(
            `it was recorded in scene ${recorded}, not in ${here} loaded here: the view shows ${here}, not the world the run acted in`,
          );
        onProblem(notes.length ? `Imported with notes: ${notes.join('; ')}.` : null);
      } catch (e) {
        onProblem(msg(e));
      }
    },
    closeReplay: () => setReplay(null),
    clear: () => {
      setRuns([]);
      setReplay(null);
    },
  };
}
