// Injects what happens around the robot: the emergency stop, a person speaking,
// someone moving an object, a battery level. Each goes through the host into
// the robot's event queue, as it would on the real robot.
import { useState } from 'react';
import type { AppApi } from '../../../contract/api';
import type { ExternalEvent, SceneMeta } from '../../../contract/schemas';
import { type BasePose, type V3, toBase, toWorld } from './robot-frame';

export interface EventInjectorProps {
  api: AppApi;
  meta: SceneMeta | null;
  estop: boolean;
  /** Current position of an object (from the latest pose frame). */
  positionOf(id: string): [number, number, number] | undefined;
  onInjected?(): void;
  /** The battery's current level, where the slider starts until it is moved. */
  batteryPercent?: number | undefined;
  /** The robot base's pose: "move an object" speaks the tools' frame (REP 103). */
  basePose?: () => BasePose | undefined;
}

const AXES = [
  { axis: 'x', label: 'x forward' },
  { axis: 'y', label: 'y left' },
  { axis: 'z', label: 'z up' },
] as const;

export function EventInjector({ api, meta, estop, positionOf, onInjected, batteryPercent, basePose }: EventInjectorProps) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [person, setPerson] = useState('');
  const [said, setSaid] = useState('');
  const [object, setObject] = useState('');
  const [to, setTo] = useState<[string, string, string]>(['', '', '']);
  const [onto, setOnto] = useState('');
  const [chosen, setBattery] = useState<number | null>(null);
  const battery = chosen ?? Math.round(batteryPercent ?? 50);
  const movable = meta?.objects.filter((o) => !o.fixed) ?? [];

  const send = async (event: ExternalEvent) => {
    try {
      const r = await api.injectEvent(event);
      setMessage({ ok: r.ok, text: r.message });
      onInjected?.();
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : String(e) });
    }
  };

  const sizeOf = (id: string) => meta?.objects.find((o) => o.id === id)?.size;
  /** Where an object's underside is now (the host sets an object down with its underside at the point given). */
  const restingPoint = (id: string): V3 | undefined => {
    const p = positionOf(id);
    const s = sizeOf(id);
    return p && s ? [p[0], p[1] - s[1] / 2, p[2]] : p;
  };
  const chooseObject = (id: string) => {
    setObject(id);
    const p = restingPoint(id);
    const base = basePose?.();
    // Start from where it rests now, in the robot's frame: Move without edits leaves it where it is.
    if (p && base) setTo(toBase(p, base).map((v) => v.toFixed(3)) as [string, string, string]);
  };
  /** The point to set it down at: on top of another object, or the typed base-frame point (blank keeps a coordinate). */
  const target = (): V3 | string => {
    const base = basePose?.();
    if (!base) return 'the robot’s pose is not known yet; try again in a moment';
    if (onto) {
      const p = positionOf(onto);
      const s = sizeOf(onto);
      if (!p || !s) return `${onto} is not in the scene`;
      // Its top: the host lowers the object from there onto (or into) it.
      return [p[0], p[1] + s[1] / 2, p[2]];
    }
    const now = restingPoint(object);
    const nowBase = now ? toBase(now, base) : undefined;
    const v = to.map((c, i) => (c.trim() === '' ? nowBase?.[i] : Number(c)));
    if (!v.every((x): x is number => typeof x === 'number' && Number.isFinite(x)))
      return 'each coordinate is a number in metres (x forward, y left, z up from the robot’s base); leave one blank to keep it';
    return toWorld(v as V3, base);
  };

  return (
    <section className="panel injector" aria-label="Events">
      <h3>Emergency stop</h3>
      {estop ? (
        <button type="button" className="estop released" onClick={() => void send({ type: 'estop_released' })}>
          Release emergency stop
        </button>
      ) : (
        <button type="button" className="estop" onClick={() => void send({ type: 'estop_pressed' })}>
          EMERGENCY STOP
        </button>
      )}

      <h3>A person says…</h3>
      <form
        className="row-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (said.trim()) void send({ type: 'person_said', text: said.trim(), ...(person ? { person } : {}) });
        }}
      >
        <select aria-label="Who speaks" value={person} onChange={(e) => setPerson(e.target.value)}>
          <option value="">someone</option>
          {meta?.people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <input aria-label="What they say" value={said} placeholder="e.g. please stop" onChange={(e) => setSaid(e.target.value)} />
        <button type="submit" disabled={!said.trim()}>
          Say
        </button>
      </form>

      <h3>Move an object</h3>
      <form
        className="row-form wrap"
        onSubmit={(e) => {
          e.preventDefault();
          if (!object) return;
          const t = target();
          if (typeof t === 'string') setMessage({ ok: false, text: t });
          else void send({ type: 'object_moved', object, to: t, by: 'operator' });
        }}
      >
        <select aria-label="Object to move" value={object} onChange={(e) => chooseObject(e.target.value)}>
          <option value="">(object)</option>
          {movable.map((o) => (
            <option key={o.id} value={o.id}>
              {o.id}
            </option>
          ))}
        </select>
        <select aria-label="Onto" value={onto} onChange={(e) => setOnto(e.target.value)}>
          <option value="">at the point below</option>
          {meta?.objects
            .filter((o) => o.id !== object && !o.hidden)
            .map((o) => (
              <option key={o.id} value={o.id}>
                onto {o.id}
              </option>
            ))}
        </select>
        {AXES.map(({ axis, label }, i) => (
          <label key={axis} className="num-field">
            <span className="small">{label}</span>
            <input
              className="num"
              aria-label={`to ${label} (m)`}
              placeholder="keep"
              value={to[i]}
              disabled={onto !== ''}
              onChange={(e) => setTo((cur) => cur.map((c, j) => (j === i ? e.target.value : c)) as [string, string, string])}
            />
          </label>
        ))}
        <p className="muted small frame-note">
          Metres in the robot’s base frame, as the tools use it (REP 103): x forward, y left, z up; the point its underside is set down at.
        </p>
        <button type="submit" disabled={!object}>
          Move
        </button>
      </form>

      <h3>Battery level</h3>
      <form
        className="row-form"
        onSubmit={(e) => {
          e.preventDefault();
          void send({ type: 'set_battery', percent: battery });
        }}
      >
        <input
          type="range"
          min={0}
          max={100}
          value={battery}
          aria-label="Battery percent"
          onChange={(e) => setBattery(Number(e.target.value))}
        />
        <span className="num-label">{battery}%</span>
        <button type="submit">Set</button>
      </form>
      {message && (
        <div className={message.ok ? 'note ok' : 'note fail'} role="status">
          {message.text}
        </div>
      )}
    </section>
  );
}
