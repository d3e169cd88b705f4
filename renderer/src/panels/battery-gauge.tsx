// Battery gauge: level, percentage, and whether the robot is docked or charging.
import type { Battery } from '../../../contract/schemas';

export function BatteryGauge({ battery }: { battery: Battery | null }) {
  if (!battery) return <div className="battery muted">battery —</div>;
  const pct = Math.max(0, Math.min(100, battery.percent));
  const text = `${pct.toFixed(0)}%${battery.charging ? ' ⚡ charging' : battery.docked ? ' · docked' : ''}${battery.level !== 'okay' ? ` · ${battery.level}` : ''}`;
  return (
    <div
      className={`battery level-${battery.level}`}
      role="meter"
      aria-label="Battery"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(pct)}
      title={`battery ${text}`}
    >
      <div className="battery-shell">
        <div className="battery-fill" style={{ width: `${pct}%` }} />
      </div>
      <span className="battery-text">{text}</span>
    </div>
  );
}
