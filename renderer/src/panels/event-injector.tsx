// Injects what happens around the robot: the emergency stop, a person speaking,
// someone moving an object, a battery level. Each goes through the host into
// the robot's event queue, as it would on the real robot.
import { useState } from 'react';
import type { AppApi } from '../../../contract/api';
import type { ExternalEvent, SceneMeta } from '../../../contract/schemas';

export interface EventInjectorProps {
  api: AppApi;
  meta: SceneMeta | null;
  estop: boolean;
  /** Current position of an object (from the latest pose frame). */
  positionOf(id: string): [number, number, number] | undefined;
  onInjected?(): void;
  /** The battery's current level, where the slider starts until it is moved. */
  batteryPercent?: number | undefined;
}

export function EventInjector({ api, meta, estop, positionOf, onInjected, batteryPercent }: EventInjectorProps) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [person, setPerson] = useState('');
  const [said, setSaid] = useState('');
  const [object, setObject] = useState('');
  const [to, setTo] = useState<[string, string, string]>(['', '', '']);
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

  const chooseObject = (id: string) => {
    setObject(id);
    const p = positionOf(id);
    // Start from where it is, lifted a little so it settles instead of intersecting.
    if (p) setTo([p[0].toFixed(2), (p[1] + 0.05).toFixed(2), p[2].toFixed(2)]);
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
          // A blank coordinate keeps the object's current one (not 0: that would drop it below the floor).
          const now = positionOf(object);
          const v = to.map((c, i) => (c.trim() === '' ? now?.[i] : Number(c)));
          if (v.every((x): x is number => typeof x === 'number' && Number.isFinite(x)))
            void send({ type: 'object_moved', object, to: v as [number, number, number], by: 'operator' });
          else setMessage({ ok: false, text: 'each coordinate is a number in metres; leave one blank to keep it' });
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
        {(['x', 'y', 'z'] as const).map((axis, i) => (
          <input
            key={axis}
            className="num"
            aria-label={`to ${axis}`}
            placeholder={`${axis} (keep)`}
            value={to[i]}
            onChange={(e) => setTo((cur) => cur.map((c, j) => (j === i ? e.target.value : c)) as [string, string, string])}
          />
        ))}
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
