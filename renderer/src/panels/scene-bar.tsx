// Scene picker, reset and simulation speed: the header's controls.
import type { SceneSummary } from '../../../contract/schemas';

export interface SceneBarProps {
  scenes: SceneSummary[];
  current: string | null;
  loading: boolean;
  speed: number;
  onLoad(id: string): void;
  onReset(): void;
  onSpeed(factor: number): void;
}

const SPEEDS = [0.5, 1, 2, 4];

export function SceneBar({ scenes, current, loading, speed, onLoad, onReset, onSpeed }: SceneBarProps) {
  return (
    <div className="scene-bar">
      <label className="inline">
        <span>Scene</span>
        <select aria-label="Scene" value={current ?? ''} disabled={loading} onChange={(e) => onLoad(e.target.value)}>
          {current === null && <option value="">(none)</option>}
          {scenes.map((s) => (
            <option key={s.id} value={s.id} title={s.description}>
              {s.id} — {s.title}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={onReset} disabled={loading || current === null} title="Rebuild the scene from its data">
        {loading ? 'Loading…' : 'Reset'}
      </button>
      <label className="inline">
        <span>Speed</span>
        <select aria-label="Simulation speed" value={String(speed)} onChange={(e) => onSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s} value={String(s)}>
              {s}×
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
