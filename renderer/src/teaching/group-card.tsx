// One group in the teacher's overview: its scene from above, its name (the
// teacher renames it), run state, last run, task card score, and Watch / Stop.
import { useState } from 'react';
import { groupName } from '../../../contract/group-name';
import type { SessionInfo } from '../../../contract/schemas';
import { GroupThumbnail } from './group-thumbnail';

/** A group as people call it: the name it gave itself, else "Group 3" (never the session's id "s3"). */
export { groupName };

function runState(s: SessionInfo): { text: string; cls: string } {
  if (s.estop) return { text: '■ e-stop pressed', cls: 'stopped' };
  if (s.running) return { text: '▶ running', cls: 'running' };
  if (!s.scene) return { text: 'no scene yet', cls: '' };
  return { text: 'idle', cls: '' };
}

export function GroupCard({
  s,
  watching,
  onWatch,
  onStop,
  onRename,
}: {
  s: SessionInfo;
  watching: boolean;
  onWatch: () => void;
  onStop: (release: boolean) => void;
  onRename: (label: string) => void;
}) {
  const name = groupName(s);
  const [editing, setEditing] = useState<string | null>(null);
  const state = runState(s);
  const save = () => {
    const label = editing?.trim();
    if (label) onRename(label);
    setEditing(null);
  };
  return (
    <li className={`class-card${watching ? ' watching' : ''}`} data-testid="class-row">
      <GroupThumbnail glance={s.glance} name={name} />
      <div className="class-card-body">
        <div className="class-card-name">
          {editing === null ? (
            <>
              <strong>{name}</strong>
              <button
                type="button"
                className="link"
                onClick={() => setEditing(name)}
                aria-label={`Rename ${name}`}
                title="Rename this group"
              >
                ✎
              </button>
            </>
          ) : (
            <input
              aria-label={`New name for ${name}`}
              value={editing}
              maxLength={40}
              autoFocus
              onChange={(e) => setEditing(e.target.value)}
              onBlur={save}
              onKeyDown={(e) => {
                if (e.key === 'Enter') save();
                if (e.key === 'Escape') setEditing(null);
              }}
            />
          )}
        </div>
        <div className="muted small">
          {s.scene ?? 'no scene yet'}
          {s.clients === 0 && ' · tab closed'}
        </div>
        <div className={`score ${state.cls}`} data-testid={s.estop ? 'class-estop' : 'class-state'}>
          {state.text}
        </div>
        <div className="small class-last">
          {s.lastRun ? (
            <>
              “{s.lastRun.message}”{s.lastRun.reason ? <span className="muted"> · {s.lastRun.reason}</span> : null}
            </>
          ) : (
            <span className="muted">no run yet</span>
          )}
        </div>
        <div className="small">
          {s.exercise ? (
            <span className={s.exercise.ok ? 'score ok' : 'score'} data-testid="class-task">
              {s.exercise.ok ? '✓' : '✗'} {s.exercise.title} ({s.exercise.passed}/{s.exercise.total})
            </span>
          ) : (
            <span className="muted">no task card checked</span>
          )}
        </div>
        <div className="class-actions">
          <button type="button" onClick={onWatch} disabled={watching}>
            {watching ? 'Watching' : 'Watch'}
          </button>
          {s.estop ? (
            <button type="button" onClick={() => onStop(true)} aria-label={`Release ${name}`}>
              Release
            </button>
          ) : (
            <button type="button" className="danger" onClick={() => onStop(false)} aria-label={`Stop ${name}`}>
              ■ Stop
            </button>
          )}
        </div>
      </div>
    </li>
  );
}
