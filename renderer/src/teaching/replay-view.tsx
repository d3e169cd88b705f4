// Watching runs again: the 3D view of one run (or two side by side, on one
// timeline from each run's start) driven by the recorded poses, a timeline with
// play, pause, step, seek and speed, and the trace lines following the playhead.
import { useCallback, useEffect, useRef, useState } from 'react';
import { webglSupport } from '../view/early-canvas';
import { type LabelPoint, type ViewOptions, World } from '../view/world';
import { type ReplayRun, bodyAt, eventIndexAt, framesAt, isBookmark, stepEvent } from './replay';
import { type PictureApi, RunPictures } from '../panels/agent/run-pictures';

export interface ReplayClock {
  t: number;
  playing: boolean;
  speed: number;
  duration: number;
  setT: (t: number) => void;
  setPlaying: (p: boolean) => void;
  setSpeed: (s: number) => void;
  step: (dir: 1 | -1) => void;
}

const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];
const OPTS: ViewOptions = { shadows: false, inset: false, colliders: false };

/** The timeline's state, advanced by animation frames while playing. */
export function useReplayClock(runs: readonly ReplayRun[]): ReplayClock {
  const [t, setT] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const duration = Math.max(1, ...runs.map((r) => r.duration));
  const ref = useRef({ t, playing, speed, duration });
  ref.current = { t, playing, speed, duration };

  useEffect(() => {
    setT(0);
    setPlaying(runs.length > 0);
  }, [runs]);

  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let raf = requestAnimationFrame(function frame(now) {
      const c = ref.current;
      const next = Math.min(c.duration, c.t + (now - last) * c.speed);
      last = now;
      setT(next);
      if (next >= c.duration) setPlaying(false);
      else raf = requestAnimationFrame(frame);
    });
    return () => cancelAnimationFrame(raf);
  }, [playing]);

  const step = useCallback(
    (dir: 1 | -1) => {
      setPlaying(false);
      // To the next (or previous) trace record of the first run that has one; by 1/15 s in a run with no records.
      const c = ref.current;
      const run = runs.find((r) => r.events.length > 0);
      const next = run ? stepEvent(run, c.t, dir) : c.t + dir * 66;
      if (next === undefined) return;
      setT(Math.max(0, Math.min(c.duration, next)));
    },
    [runs],
  );

  return {
    t,
    playing,
    speed,
    duration,
    setT: (x) => setT(Math.max(0, Math.min(duration, x))),
    setPlaying: (p) => {
      if (p && ref.current.t >= duration) setT(0);
      setPlaying(p);
    },
    setSpeed,
    step,
  };
}

function ReplayPane({ run, t, labels, api }: { run: ReplayRun; t: number; labels: boolean; api: PictureApi | undefined }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const worldRef = useRef<World | null>(null);
  const [points, setPoints] = useState<LabelPoint[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !run.meta || !webglSupport()) return;
    let world: World;
    try {
      world = new World(canvas, OPTS, { onHover: () => undefined, onContextLost: () => setError('the 3D view lost its GPU context') });
    } catch (e) {
      setError((e as Error).message);
      return;
    }
    world.load(run.meta);
    world.resize();
    worldRef.current = world;
    const ro = new ResizeObserver(() => world.resize());
    ro.observe(canvas);
    return () => {
      ro.disconnect();
      world.dispose();
      worldRef.current = null;
    };
  }, [run]);

  useEffect(() => {
    const f = framesAt(run, t);
    if (f) worldRef.current?.showFrame(f);
    if (labels) setPoints(worldRef.current?.labels() ?? []);
    else setPoints([]);
  }, [run, t, labels]);

  const ev = run.events[eventIndexAt(run, t)];
  // Two frames only (an evaluated case: its start and its end as recorded) are not the motion between.
  const keyFramesOnly = run.meta !== null && run.frames.length === 2 && run.events.length > 2;
  return (
    <div className="replay-pane" data-testid="replay-pane">
      {run.meta ? (
        <canvas ref={canvasRef} className="view-canvas" tabIndex={0} aria-label={`Replay of run ${run.run.runId}`} />
      ) : (
        <div className="view-message">
          <h2>No poses were recorded for this run</h2>
          <p>Its trace is on the right; runs started from this app record their poses.</p>
        </div>
      )}
      {points.length > 0 && (
        <div className="view-labels" aria-hidden="true">
          {points.map((p) => (
            <span
              key={p.id}
              className={`view-tag ${p.kind}`}
              style={{ transform: `translate(${Math.round(p.x)}px, ${Math.round(p.y)}px) translate(-50%, -100%)` }}
            >
              {p.label}
            </span>
          ))}
        </div>
      )}
      <div className="replay-caption">
        <strong>{run.run.message || run.run.runId}</strong>
        <span className="muted">
          {' '}
          · {run.run.model} · {run.run.running ? 'running' : (run.run.outcome ?? run.run.reason ?? 'ended')}
        </span>
        {ev && <div className={`replay-now ${ev.kind}`}>{ev.label}</div>}
        {ev?.pictures && (
          <RunPictures api={api} runId={run.run.runId} evalCase={run.evalCase} tool={ev.pictures.tool} pictures={ev.pictures.list} />
        )}
        {keyFramesOnly && (
          <div className="muted small">3D: the world at the start and at the end, as recorded (the motion between was not)</div>
        )}
      </div>
      {error && (
        <div className="view-message overlay" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

export function ReplayView({
  runs,
  clock,
  labels,
  onClose,
  api,
}: {
  runs: ReplayRun[];
  clock: ReplayClock;
  labels: boolean;
  onClose: () => void;
  /** Where the pictures of the runs' tool calls come from. */
  api?: PictureApi;
}) {
  const { t, duration } = clock;
  useEffect(() => {
    window.__skillbridgeReplay = {
      get t() {
        return clock.t;
      },
      duration,
      playing: clock.playing,
      runs: runs.map((r) => ({ runId: r.run.runId, frames: r.frames.length, events: r.events.length })),
      bodyAt: (i: number, id: string) => (runs[i] ? bodyAt(runs[i], id, clock.t) : null),
      eventIndex: (i: number) => (runs[i] ? eventIndexAt(runs[i], clock.t) : -1),
    };
  });
  useEffect(() => () => void delete window.__skillbridgeReplay, []);
  const secs = (ms: number) => (ms / 1000).toFixed(1);
  return (
    <div className="view replay" data-testid="replay-view">
      <div className={`replay-panes n${runs.length}`}>
        {runs.map((r) => (
          <ReplayPane key={r.run.runId} run={r} t={t} labels={labels} api={api} />
        ))}
      </div>
      <div className="timeline" role="group" aria-label="Replay timeline">
        <button
          type="button"
          onClick={() => clock.setPlaying(!clock.playing)}
          aria-label={clock.playing ? 'Pause the replay (K)' : 'Play the replay (K)'}
        >
          {clock.playing ? '❚❚' : '▶'}
        </button>
        <button type="button" onClick={() => clock.step(-1)} aria-label="Step back (←)">
          ◀|
        </button>
        <button type="button" onClick={() => clock.step(1)} aria-label="Step forward (→)">
          |▶
        </button>
        <div className="seek">
          <input
            type="range"
            aria-label="Seek"
            min={0}
            // Millisecond steps; the slider's end is the run's end (its last lines lie within its last milliseconds).
            max={Math.ceil(duration)}
            step={1}
            value={Math.min(Math.ceil(duration), Math.round(t))}
            onChange={(e) => {
              const v = Number(e.target.value);
              clock.setPlaying(false);
              clock.setT(v >= Math.ceil(duration) ? duration : v);
            }}
          />
          <Bookmarks runs={runs} clock={clock} />
        </div>
        <span className="timeline-time" data-testid="replay-time">
          {secs(t)} / {secs(duration)} s
        </span>
        <select aria-label="Replay speed" value={String(clock.speed)} onChange={(e) => clock.setSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s} value={String(s)}>
              {s}×
            </option>
          ))}
        </select>
        <button type="button" onClick={onClose}>
          Back to live
        </button>
      </div>
    </div>
  );
}

/** Marks on the timeline at approvals, failures and stops of the first run; a mark seeks there. */
function Bookmarks({ runs, clock }: { runs: ReplayRun[]; clock: ReplayClock }) {
  const run = runs[0];
  if (!run) return null;
  const marks = run.events.filter(isBookmark);
  return (
    <div className="bookmarks" aria-label="Bookmarks">
      {marks.map((e, i) => (
        <button
          key={i}
          type="button"
          className={`bookmark ${e.kind}${e.ok === false ? ' fail' : ''}`}
          style={{ left: `${(100 * e.t) / clock.duration}%` }}
          title={`${(e.t / 1000).toFixed(1)} s · ${e.label}`}
          aria-label={`Bookmark: ${e.kind === 'result' ? 'failed' : e.kind} at ${(e.t / 1000).toFixed(1)} s`}
          data-testid="replay-bookmark"
          onClick={() => {
            clock.setPlaying(false);
            clock.setT(e.t);
          }}
        />
      ))}
    </div>
  );
}

/** The trace of the watched runs, the line at the playhead marked and kept in sight; a line seeks there. */
export function ReplayTrace({ runs, clock, api }: { runs: ReplayRun[]; clock: ReplayClock; api?: PictureApi }) {
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    list.current?.querySelector('[aria-current="step"]')?.scrollIntoView({ block: 'nearest' });
  }, [clock.t]);
  return (
    <div className="replay-trace" ref={list} data-testid="replay-trace">
      {runs.map((r, k) => {
        const at = eventIndexAt(r, clock.t);
        return (
          <section key={r.run.runId} aria-label={`Trace of run ${k + 1}`}>
            {runs.length > 1 && (
              <h4>
                {k === 0 ? 'A' : 'B'}: {r.run.message || r.run.runId}
              </h4>
            )}
            <ol>
              {r.events.map((e, i) => (
                <li
                  key={i}
                  className={`rt ${e.kind}${e.ok === false ? ' fail' : ''}${i <= at ? ' past' : ''}`}
                  aria-current={i === at ? 'step' : undefined}
                  data-testid="replay-event"
                >
                  <button
                    type="button"
                    className="link"
                    onClick={() => {
                      clock.setPlaying(false);
                      clock.setT(e.t);
                    }}
                  >
                    {(e.t / 1000).toFixed(1)} s
                  </button>{' '}
                  {e.label}
                  {e.pictures && (
                    <RunPictures api={api} runId={r.run.runId} evalCase={r.evalCase} tool={e.pictures.tool} pictures={e.pictures.list} />
                  )}
                </li>
              ))}
            </ol>
          </section>
        );
      })}
    </div>
  );
}
