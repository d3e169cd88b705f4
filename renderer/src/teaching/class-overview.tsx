// The teacher's overview in classroom mode: every group's session as a card
// with its scene from above (refreshed live), what its last run was asked and
// how it ended, its task card's score, and a name the teacher may change;
// "Watch" shows a group's world in the main view, read-only; "Stop" presses a
// group's e-stop, "Stop all" every group's (each run it ends records the teacher).
import { useEffect, useState } from 'react';
import type { AppApi } from '../../../contract/api';
import type { SessionInfo } from '../../../contract/schemas';
import { GroupCard, groupName } from './group-card';

export { groupName };

/** The overview (thumbnails included) refreshes at this period: live enough to follow a robot, cheap for the host. */
const REFRESH_MS = 1000;

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
    const t = setInterval(() => void load(), REFRESH_MS);
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
  const rename = (id: string, label: string) =>
    api.setSessionLabel({ id, label }).then(
      (r) => {
        setNote(r.message);
        if (r.ok) setSessions((list) => list.map((s) => (s.id === id ? { ...s, label } : s)));
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
      <ul className="class-cards" data-testid="class-table">
        {groups.map((s) => (
          <GroupCard
            key={s.id}
            s={s}
            watching={s.id === observing}
            onWatch={() => onWatch(s.id, groupName(s))}
            onStop={(release) => void stop(s.id, release)}
            onRename={(label) => void rename(s.id, label)}
          />
        ))}
      </ul>
      {problem && (
        <div className="note fail" role="alert">
          {problem}
        </div>
      )}
    </section>
  );
}
