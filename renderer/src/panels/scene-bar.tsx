// Scene picker and reset: the header's scene controls. Scenes are named in plain
// words first, with their id after.
import type { SceneSummary } from '../../../contract/schemas';

export interface SceneBarProps {
  scenes: SceneSummary[];
  current: string | null;
  loading: boolean;
  disabled?: boolean;
  onLoad(id: string): void;
  onReset(): void;
}

export function SceneBar({ scenes, current, loading, disabled = false, onLoad, onReset }: SceneBarProps) {
  return (
    <div className="scene-bar">
      <label className="inline">
        <span className="wide-only">Scene</span>
        <select aria-label="Scene" value={current ?? ''} disabled={loading || disabled} onChange={(e) => onLoad(e.target.value)}>
          {current === null && <option value="">(none)</option>}
          {scenes.map((s) => (
            <option key={s.id} value={s.id} title={s.description}>
              {s.title} ({s.id})
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={onReset} disabled={loading || current === null || disabled} title="Rebuild the scene from its data">
        {loading ? 'Loading…' : 'Reset'}
      </button>
    </div>
  );
}
