// Exercise cards for the scene: a task in plain words, checked automatically on
// the world's facts and the tool calls made (✓ / ✗, with what is missing). A
// check runs when chosen, after each run and after each tool call. A teacher
// adds a card as a small JSON file.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppApi } from '../../../contract/api';
import type { ExerciseInfo, ExerciseResult, GoalCheckInfo } from '../../../contract/teaching';

function CheckTree({ c, top = false }: { c: GoalCheckInfo; top?: boolean }) {
  return (
    <li className={`check-item ${c.ok ? 'ok' : 'fail'}`} data-testid={top ? 'exercise-check' : 'goal-check'} data-ok={String(c.ok)}>
      <span className="mark" aria-label={c.ok ? 'done' : 'not done'}>
        {c.ok ? '✓' : '✗'}
      </span>{' '}
      {c.label}
      {!c.ok && c.missing && <span className="missing"> — {c.missing}</span>}
      {c.children && (
        <ul>
          {c.children.map((x, i) => (
            <CheckTree key={i} c={x} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function ExercisesPanel({ api, sceneId, readOnly }: { api: AppApi; sceneId: string | null; readOnly: boolean }) {
  const [cards, setCards] = useState<ExerciseInfo[]>([]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [result, setResult] = useState<ExerciseResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  /** Each card's last verdict in this world; a reset or a new scene forgets them (unknown until checked again). */
  const [marks, setMarks] = useState<Record<string, boolean>>({});
  const chosenRef = useRef(chosen);
  chosenRef.current = chosen;

  const refresh = useCallback(() => api.listExercises({}).then(setCards, () => undefined), [api]);
  const check = useCallback(
    async (id: string | null = chosenRef.current) => {
      if (!id) return;
      try {
        const r = await api.checkExercise({ id });
        setResult(r);
        setMarks((m) => ({ ...m, [id]: r.ok }));
        setProblem(null);
      } catch (e) {
        setProblem(e instanceof Error ? e.message : String(e));
      }
    },
    [api],
  );

  useEffect(() => {
    void refresh();
    setResult(null);
    setChosen(null);
    setMarks({});
  }, [refresh, sceneId]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void check(), 400);
    };
    const off = api.onEvent((e) => {
      if (e.type === 'scene_loaded') {
        // A reset rebuilt the world: a ✓ earned in the old one says nothing about this one.
        clearTimeout(timer);
        setResult(null);
        setMarks({});
        return;
      }
      if ((e.type === 'tool_activity' && e.phase === 'end') || (e.type === 'run' && e.event.kind === 'final') || e.type === 'robot_event')
        soon();
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [api, check]);

  const upload = async (file: File) => {
    try {
      const info = await api.addExercise({ text: await file.text() });
      await refresh();
      setProblem(info.scene === sceneId ? null : `Added "${info.title}" for ${info.scene}; load that scene to see it.`);
      if (info.scene === sceneId) {
        setChosen(info.id);
        void check(info.id);
      }
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };

  const card = cards.find((c) => c.id === chosen);
  return (
    <section className="panel exercises" aria-label="Tasks">
      <h3>Tasks for this scene</h3>
      {cards.length === 0 && <p className="muted">No task cards for this scene yet. Add one below.</p>}
      <ul className="card-list">
        {cards.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              className={c.id === chosen ? 'card-item selected' : 'card-item'}
              aria-pressed={c.id === chosen}
              onClick={() => {
                setChosen(c.id);
                setResult(null);
                void check(c.id);
              }}
            >
              <span
                className={`card-mark ${marks[c.id] === undefined ? 'unchecked' : marks[c.id] ? 'ok' : 'fail'}`}
                data-testid="card-mark"
                aria-label={marks[c.id] === undefined ? 'not checked' : marks[c.id] ? 'done' : 'not done'}
              >
                {marks[c.id] === undefined ? '○' : marks[c.id] ? '✓' : '✗'}
              </span>{' '}
              <strong>{c.title}</strong>
              <span className="muted small"> {c.source === 'builtin' ? '' : `(${c.source})`}</span>
            </button>
          </li>
        ))}
      </ul>
      {card && (
        <div className="card" data-testid="exercise-card">
          <p className="task">{card.task}</p>
          {card.hint && (
            <details>
              <summary>Hint</summary>
              <p>{card.hint}</p>
            </details>
          )}
          <button type="button" onClick={() => void check()}>
            Check now
          </button>
          {result && (
            <ul className="checks" aria-live="polite">
              <CheckTree c={result.checks} top />
            </ul>
          )}
          {result && (
            <p className={result.ok ? 'verdict ok' : 'verdict fail'} data-testid="exercise-verdict">
              {result.ok ? '✓ Done!' : `✗ Not yet: ${result.passed} of ${result.total} done`}
            </p>
          )}
        </div>
      )}
      <label className="file-button">
        Add a task card (.json)
        <input
          type="file"
          aria-label="Add a task card"
          accept=".json,application/json"
          disabled={readOnly}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void upload(f);
            e.target.value = '';
          }}
        />
      </label>
      {problem && (
        <div className="note fail" role="alert">
          {problem}
        </div>
      )}
    </section>
  );
}
