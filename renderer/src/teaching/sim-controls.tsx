// The physics clock in the header (pause, one step, speed) and the world's seed
// and noise (applied when the scene is rebuilt), for explaining a moment of a
// run frame by frame and for making a failure repeatable.
import { useEffect, useState } from 'react';
import type { AppApi } from '../../../contract/api';
import type { SimState } from '../../../contract/schemas';
import type { WorldSettings } from '../../../contract/teaching';

/** One step of the step button: 4 physics steps = 1/60 s, one drawn frame. */
export const STEP_PHYSICS = 4;
const SPEEDS = [0.25, 0.5, 1, 2, 4];

export function SimClock({
  state,
  readOnly,
  onPause,
  onStep,
  onSpeed,
}: {
  state: SimState | null;
  readOnly: boolean;
  onPause: (paused: boolean) => void;
  onStep: () => void;
  onSpeed: (factor: number) => void;
}) {
  const paused = state?.paused ?? false;
  return (
    <div className="sim-clock" role="group" aria-label="Physics">
      <button
        type="button"
        aria-pressed={paused}
        onClick={() => onPause(!paused)}
        disabled={!state || readOnly}
        title={paused ? 'Resume the physics (P)' : 'Pause the physics (P)'}
      >
        {paused ? '▶ Resume' : '❚❚ Pause'}
      </button>
      <button type="button" className="step" onClick={onStep} disabled={!paused || readOnly} title="One step forward, 1/60 s (. or N)">
        Step
      </button>
      <label className="inline speed">
        <span className="wide-only">Speed</span>
        <select
          aria-label="Simulation speed"
          value={String(state?.speed ?? 1)}
          disabled={readOnly}
          onChange={(e) => onSpeed(Number(e.target.value))}
        >
          {(SPEEDS.includes(state?.speed ?? 1) ? SPEEDS : [...SPEEDS, state?.speed ?? 1]).map((s) => (
            <option key={s} value={String(s)}>
              {s}×
            </option>
          ))}
        </select>
      </label>
      <span className="sim-time" title="Simulated time since the scene was loaded" data-testid="sim-time">
        {state ? `${state.time.toFixed(2)} s` : ''}
        {paused ? ' · paused' : ''}
      </span>
    </div>
  );
}

/** Seed and noise: what the next build of the world uses. */
export function WorldSettingsForm({ api, onApplied, readOnly }: { api: AppApi; onApplied: () => void; readOnly: boolean }) {
  const [s, setS] = useState<WorldSettings | null>(null);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    api.getWorldSettings({}).then(setS, () => undefined);
  }, [api]);
  if (!s) return null;
  const noise = (k: keyof WorldSettings['noise'], v: number) => setS({ ...s, noise: { ...s.noise, [k]: v } });
  const apply = async () => {
    try {
      await api.setWorldSettings(s);
      onApplied();
      setNote({ ok: true, text: `rebuilt with seed ${s.seed}` });
    } catch (e) {
      setNote({ ok: false, text: e instanceof Error ? e.message : String(e) });
    }
  };
  return (
    <section className="panel world-settings" aria-label="Seed and noise">
      <h3>Seed and noise</h3>
      <p className="muted small">The same seed and noise give the same world and the same failures. Applying rebuilds the scene.</p>
      <div className="settings-grid">
        <label>
          Seed
          <input
            type="number"
            aria-label="Seed"
            min={0}
            step={1}
            value={s.seed}
            onChange={(e) => setS({ ...s, seed: Math.max(0, Math.floor(Number(e.target.value) || 0)) })}
          />
        </label>
        <label>
          Distance noise (m)
          <input
            type="number"
            aria-label="Distance noise"
            min={0}
            max={0.5}
            step={0.005}
            value={s.noise.distanceSigma}
            onChange={(e) => noise('distanceSigma', clamp(Number(e.target.value), 0, 0.5))}
          />
        </label>
        <label>
          Missed detections
          <input
            type="number"
            aria-label="Missed detections"
            min={0}
            max={1}
            step={0.05}
            value={s.noise.detectionDropout}
            onChange={(e) => noise('detectionDropout', clamp(Number(e.target.value), 0, 1))}
          />
        </label>
        <label>
          Fumbled grasps
          <input
            type="number"
            aria-label="Fumbled grasps"
            min={0}
            max={1}
            step={0.05}
            value={s.noise.skillFailureRate}
            onChange={(e) => noise('skillFailureRate', clamp(Number(e.target.value), 0, 1))}
          />
        </label>
      </div>
      <button type="button" onClick={() => void apply()} disabled={readOnly}>
        Apply and rebuild
      </button>
      {note && (
        <div className={note.ok ? 'note ok' : 'note fail'} role="status">
          {note.text}
        </div>
      )}
    </section>
  );
}

function clamp(v: number, lo: number, hi: number): number {
  return Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : lo;
}
