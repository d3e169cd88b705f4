// The person's side of a workflow's question (RAIDER's recovery `ask`, paper 001
// §3.5): when a run asks, this shows the question and sends the typed answer
// back (answerAsk); the robot's plan waits for it. It listens to the run events
// itself, so the agent panel only places it. The question goes away when it is
// answered, or when its run ends (a stopped run drops its question).
import { useEffect, useState } from 'react';
import type { AppApi } from '../../../contract/api';

interface Question {
  runId: string;
  id: string;
  question: string;
}

export function AskDialog({ api }: { api: AppApi }) {
  const [open, setOpen] = useState<Question | null>(null);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(
    () =>
      api.onEvent((e) => {
        if (e.type !== 'run') return;
        const ev = e.event;
        if (ev.kind === 'ask') {
          setOpen({ runId: ev.runId, id: ev.id, question: ev.question });
          setText('');
          setProblem(null);
        } else if (ev.kind === 'answer' || ev.kind === 'final') {
          setOpen((q) => (q && (ev.kind === 'final' ? q.runId === ev.runId : q.id === ev.id) ? null : q));
        }
      }),
    [api],
  );

  if (!open) return null;
  const send = () => {
    setSending(true);
    api.answerAsk({ id: open.id, answer: text.trim() }).then(
      (r) => {
        setSending(false);
        if (r.ok) setOpen(null);
        else setProblem(r.message);
      },
      (err: unknown) => {
        setSending(false);
        setProblem(err instanceof Error ? err.message : String(err));
      },
    );
  };
  return (
    <div className="approval ask-dialog" role="dialog" aria-label="The robot asks you">
      <div>
        <strong>The robot asks:</strong> {open.question}
      </div>
      <form
        className="field-row"
        onSubmit={(ev) => {
          ev.preventDefault();
          send();
        }}
      >
        <input aria-label="Your answer" value={text} autoFocus placeholder="your answer" onChange={(ev) => setText(ev.target.value)} />
        <button type="submit" disabled={sending || !text.trim()}>
          Answer
        </button>
      </form>
      {problem && (
        <div className="note fail" role="alert">
          {problem}
        </div>
      )}
    </div>
  );
}
