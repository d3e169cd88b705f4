// A real robot's own readings (serve --robot) where the page shows the e-stop
// and the battery: in the header beside STOP, in place of the simulator's
// battery, and as a note over the side panel while either is not current.
// Stale and unknown readings are drawn as such (robot-readout.ts).
import type { RobotSafety } from '../../../contract/robot-safety';
import { batteryReadout, estopReadout } from './robot-readout';

/** The robot's e-stop as it reports it, beside the page's STOP. */
export function RobotEstopState({ safety }: { safety: RobotSafety }) {
  const r = estopReadout(safety);
  return (
    <div className={`robot-reading robot-estop kind-${r.kind}`} role="status" data-testid="robot-estop" title={r.title}>
      <span className="reading-label">robot e-stop</span> <span className="reading-value">{r.text}</span>
    </div>
  );
}

/** The robot's battery: a gauge when the reading is current, else what is known of it and nothing filled in. */
export function RobotBattery({ safety }: { safety: RobotSafety }) {
  const r = batteryReadout(safety);
  const pct = safety.battery?.percent;
  const fresh = r.kind === 'fresh' && pct !== undefined;
  const filled = fresh ? Math.max(0, Math.min(100, pct)) : 0;
  return (
    <div
      className={`battery robot-reading kind-${r.kind}`}
      data-testid="robot-battery"
      {...(fresh ? { role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': Math.round(filled) } : { role: 'status' })}
      aria-label="Robot battery"
      title={r.title}
    >
      <div className="battery-shell">
        <div className="battery-fill" style={{ width: `${filled}%` }} />
      </div>
      <span className="battery-text">{fresh ? r.text : `battery ${r.text}`}</span>
    </div>
  );
}

/** Over the side panel, on every tab, while the robot's e-stop or battery is not a current reading. */
export function RobotStateNote({ safety }: { safety: RobotSafety }) {
  const e = estopReadout(safety);
  const b = batteryReadout(safety);
  const parts = [
    e.kind === 'stale' || e.kind === 'unknown' ? `e-stop ${e.text}` : undefined,
    safety.battery && (b.kind === 'stale' || b.kind === 'unknown') ? `battery ${b.text}` : undefined,
  ].filter((p): p is string => p !== undefined);
  if (e.kind === 'pressed')
    return (
      <div className="estop-note" role="status" data-testid="robot-state-note">
        The robot reports its emergency stop pressed: it does not move until it is released there.
      </div>
    );
  if (!parts.length) return null;
  return (
    <div className="robot-state-note" role="status" data-testid="robot-state-note">
      The robot's {parts.join(' and ')}
      {safety.link !== 'up' ? ` (link ${safety.link})` : ''}: no motion is sent until it reports a current reading.
    </div>
  );
}

/** The robot's readings as rows of the facts panel's state grid. */
export function RobotStateRows({ safety }: { safety: RobotSafety }) {
  const e = estopReadout(safety);
  const b = batteryReadout(safety);
  return (
    <>
      <span>robot e-stop</span>
      <span className={`kind-${e.kind}`} title={e.title} data-testid="facts-robot-estop">
        {e.text}
      </span>
      <span>robot battery</span>
      <span className={`kind-${b.kind}`} title={b.title} data-testid="facts-robot-battery">
        {b.text}
      </span>
      <span>link</span>
      <span className={safety.link === 'up' ? '' : 'kind-unknown'}>{safety.link}</span>
    </>
  );
}
