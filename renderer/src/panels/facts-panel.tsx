// The semantic snapshot: the facts a model can ask for, with the robot's state.
import { useState } from 'react';
import type { RobotSafety } from '../../../contract/robot-safety';
import type { Snapshot } from '../../../contract/schemas';
import { RobotStateRows } from './robot-state';

export function FactsPanel({
  snapshot,
  robot = null,
  onRefresh,
}: {
  snapshot: Snapshot | null;
  /** A real robot's own readings (serve --robot): the facts above are its shadow simulation's. */
  robot?: RobotSafety | null;
  onRefresh(): void;
}) {
  const [filter, setFilter] = useState('');
  const facts = snapshot?.facts.filter((f) => f.toLowerCase().includes(filter.toLowerCase())) ?? [];
  return (
    <section className="panel facts" aria-label="Facts">
      <div className="panel-head">
        <h3>Facts</h3>
        <button type="button" onClick={onRefresh}>
          Refresh
        </button>
      </div>
      {snapshot ? (
        <>
          <div className="state-grid">
            <span>time</span>
            <span>{snapshot.time.toFixed(1)} s</span>
            <span>holding</span>
            <span>{snapshot.holding ?? '—'}</span>
            <span>at</span>
            <span>{snapshot.at ?? '—'}</span>
            <span>posture</span>
            <span>{snapshot.posture ?? '—'}</span>
            <span>e-stop</span>
            <span className={snapshot.estop ? 'danger' : ''}>{snapshot.estop ? 'PRESSED' : 'released'}</span>
            {robot && <RobotStateRows safety={robot} />}
          </div>
          <input
            className="filter"
            aria-label="Filter facts"
            placeholder="filter facts"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          <ul className="fact-list">
            {facts.map((f) => (
              <li key={f}>
                <code>{f}</code>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted">No scene loaded.</p>
      )}
    </section>
  );
}
