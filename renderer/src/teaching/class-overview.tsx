// The teacher's overview in classroom mode: every group's session with its
// scene, what its last run was asked and how it ended, and its exercise score;
// "Watch" shows a group's world in the main view, read-only; "Stop" presses a
// group's e-stop, "Stop all" every group's (each run it ends records the teacher).
import { useEffect, useState } from 'react';
import type { AppApi } from '../../../contract/api';
import type { SessionInfo } from '../../../contract/schemas';

/** A group as people call it: the name it gave itself, else "Group 3" (never the session's id "s3"). */
export function groupName(s: Pick<SessionInfo, 'id' | 'label'>): string {
  return s.label ?? `Group ${s.id.replace(/^s/, '')}`;
}

export function ClassOverview({
  api,
  observing,
  onWatch,
}: {
  api: AppApi;
  observing: string | null;
  onWatch: (id: string | null, name?: string) => void;
}) {
  const [sessions, setSessions] = useState<SessionInfo[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      api.listSessions({}).then(
        (s) => {
          if (live) setSessions(s);
        },
        (e: unknown) => live && setProblem(e instanceof Error ? e.message : String(e)),
      );
    void load();
    const t = setInterval(() => void load(), 2000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [api]);
  const groups = sessions.filter((s) => !s.own);
  const [note, setNote] = useState<string | null>(null);
  const stop = (id: string | null, release = false) =>
    api.stopGroups({ id, release }).then(
      (r) => {
        setNote(r.message);
        setProblem(r.ok ? null : r.message);
        setSessions((list) => list.map((s) => (id === null || s.id === id ? { ...s, estop: r.ok ? !release : s.estop } : s)));
      },
      (e: unknown) => setProblem(e instanceof Error ? e.message : String(e)),
    );
  return (
    <section className="panel class" aria-label="Class">
      <div className="panel-head">
        <h3>Groups ({groups.length})</h3>
        {observing && (
          <button type="button" onClick={() => onWatch(null)}>
            Back to my session
          </button>
        )}
      </div>
      <div className="class-stop" role="group" aria-label="Stop the class">
        <button type="button" className="danger" onClick={() => void stop(null)} disabled={groups.length === 0}>
          ■ Stop all groups
        </button>
        <button type="button" onClick={() => void stop(null, true)} disabled={!groups.some((g) => g.estop)}>
          Release all
        </button>
        {note && (
          <span className="muted small" role="status">
            {note}
          </span>
        )}
      </div>
      {groups.length === 0 && <p className="muted">No group has opened the groups' link yet.</p>}
      <table className="class-table" data-testid="class-table">
        <thead>
          <tr>
            <th>Group · scene</th>
            <th>Last run</th>
            <th>Task</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {groups.map((s) => (
            <tr key={s.id} className={s.id === observing ? 'watching' : ''} data-testid="class-row">
              <td>
                <strong>{groupName(s)}</strong>
                {/* The scene under the name: the side panel is narrow, and the last run needs the room. */}
                <div className="muted small">{s.scene ?? 'no scene yet'}</div>
                {s.clients === 0 && <div className="muted small">tab closed</div>}
                {s.estop && (
                  <div className="score stopped" data-testid="class-estop">
                    ■ e-stop pressed
                  </div>
                )}
              </td>
              <td>
                {s.running ? '▶ running: ' : ''}
                {s.lastRun ? (
                  <>
                    “{s.lastRun.message}”{s.lastRun.reason ? <span className="muted"> · {s.lastRun.reason}</span> : null}
                  </>
                ) : (
                  <span className="muted">none yet</span>
                )}
              </td>
              <td>
                {s.exercise ? (
                  <span className={s.exercise.ok ? 'score ok' : 'score'}>
                    {s.exercise.ok ? '✓' : '✗'} {s.exercise.title} ({s.exercise.passed}/{s.exercise.total})
                  </span>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td className="class-actions">
                <button type="button" onClick={() => onWatch(s.id, groupName(s))} disabled={s.id === observing}>
                  {s.id === observing ? 'Watching' : 'Watch'}
                </button>
                {s.estop ? (
                  <button type="button" onClick={() => void stop(s.id, true)} aria-label={`Release ${groupName(s)}`}>
                    Release
                  </button>
                ) : (
                  <button type="button" className="danger" onClick={() => void stop(s.id)} aria-label={`Stop ${groupName(s)}`}>
                    ■ Stop
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {problem && (
        <div className="note fail" role="alert">
          {problem}
        </div>
      )}
    </section>
  );
}
