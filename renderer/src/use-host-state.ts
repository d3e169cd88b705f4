// What the app shell keeps of the host: the scenes, the scene loaded, the battery
// and snapshot (refreshed as events arrive), the physics clock, the event log and
// the ids a running tool call names (the view outlines them).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AppApi } from '../../contract/api';
import type { RobotSafety } from '../../contract/robot-safety';
import type { AppEvent, Battery, SceneMeta, SceneSummary, SimState, Snapshot } from '../../contract/schemas';
import type { FirstScene } from './first-scene';
import type { LogLine } from './panels/event-log';
import { PoseStore } from './pose-store';

function msg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export interface HostState {
  scenes: SceneSummary[];
  meta: SceneMeta | null;
  loading: boolean;
  battery: Battery | null;
  /** A real robot's own e-stop and battery with their ages (serve --robot); null with the simulator only. */
  robotSafety: RobotSafety | null;
  snapshot: Snapshot | null;
  sim: SimState | null;
  log: LogLine[];
  highlight: string[];
  banner: string | null;
  poses: PoseStore;
  setBanner: (b: string | null) => void;
  load: (id: string, reset?: boolean) => Promise<void>;
  /** Fetches the scene now loaded (after observing another session, or a reconnect). */
  reloadMeta: () => Promise<void>;
  refresh: () => void;
  refreshSoon: () => void;
  addLog: (line: Omit<LogLine, 'key'>) => void;
}

export function useHostState(api: AppApi, initialScene: string | undefined, firstScene?: FirstScene): HostState {
  // Answers that came while the page loaded are shown from the first render (the view builds the scene on mounting).
  const [scenes, setScenes] = useState<SceneSummary[]>(() => firstScene?.value?.[0] ?? []);
  const [meta, setMeta] = useState<SceneMeta | null>(() => firstScene?.value?.[1] ?? null);
  const prefetched = useRef(firstScene);
  const [loading, setLoading] = useState(false);
  const [battery, setBattery] = useState<Battery | null>(null);
  const [robotSafety, setRobotSafety] = useState<RobotSafety | null>(null);
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [sim, setSim] = useState<SimState | null>(null);
  const [log, setLog] = useState<LogLine[]>([]);
  const [highlight, setHighlight] = useState<string[]>([]);
  const [banner, setBanner] = useState<string | null>(null);
  const poses = useMemo(() => new PoseStore(), []);
  const metaRef = useRef<SceneMeta | null>(null);
  metaRef.current = meta;
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const addLog = useCallback((line: Omit<LogLine, 'key'>) => {
    setLog((l) => [{ ...line, key: `${Date.now()}-${Math.random()}` }, ...l].slice(0, 200));
  }, []);

  // A host that does not answer leaves the page with no current reading: the last ones become unknown, not kept.
  const readRobotSafety = useCallback(() => {
    api.getRobotSafety({}).then(setRobotSafety, () =>
      setRobotSafety((s) =>
        s
          ? {
              ...s,
              link: 'down',
              estop: { state: 'unknown', freshness: 'unknown', detail: 'the page could not read it from the host' },
              ...(s.battery ? { battery: { freshness: 'unknown' as const } } : {}),
            }
          : s,
      ),
    );
  }, [api]);

  const refresh = useCallback(() => {
    if (!metaRef.current) return;
    api.getSnapshot({}).then(setSnapshot, () => undefined);
    api.getBattery({}).then(setBattery, () => undefined);
    readRobotSafety();
  }, [api, readRobotSafety]);

  const refreshSoon = useCallback(() => {
    if (refreshTimer.current) clearTimeout(refreshTimer.current);
    refreshTimer.current = setTimeout(refresh, 150);
  }, [refresh]);

  const load = useCallback(
    async (id: string, reset = false) => {
      setLoading(true);
      setBanner(null);
      try {
        const m = reset ? await api.resetScene({}) : await api.loadScene({ id });
        setMeta(m);
        setHighlight([]);
        addLog({ time: '', text: `${reset ? 'reset' : 'loaded'} ${m.id}`, kind: 'event' });
      } catch (e) {
        setBanner(msg(e));
      } finally {
        setLoading(false);
      }
    },
    [api, addLog],
  );

  const reloadMeta = useCallback(async () => {
    try {
      const m = await api.currentScene({});
      setMeta(m);
      setHighlight([]);
      setSim(await api.getSimState({}));
    } catch (e) {
      setBanner(msg(e));
    }
  }, [api]);

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        // Both at once: the scene's metadata is what the first frame waits for.
        const asked = prefetched.current?.ready;
        prefetched.current = undefined;
        const [list, cur] = await (asked ?? Promise.all([api.listScenes({}), api.currentScene({})]));
        if (!live) return;
        setScenes(list);
        if (cur) setMeta(cur);
        else {
          const first = list.find((s) => s.id === initialScene) ?? list[0];
          if (first) await load(first.id);
        }
        api.getSimState({}).then(
          (s) => live && setSim(s),
          () => undefined,
        );
      } catch (e) {
        if (live) setBanner(msg(e));
      }
    })();
    return () => {
      live = false;
    };
  }, [api, initialScene, load]);

  useEffect(() => api.onPoses((f) => poses.accept(f)), [api, poses]);

  useEffect(() => {
    const timers: Array<ReturnType<typeof setTimeout>> = [];
    const off = api.onEvent((e: AppEvent) => {
      switch (e.type) {
        case 'scene_loaded':
          // Another window (or a reset) replaced the scene: fetch its metadata.
          if (metaRef.current?.generation !== e.generation)
            api.currentScene({}).then(
              (m) => m && setMeta(m),
              () => undefined,
            );
          break;
        case 'sim_state':
          setSim(e.state);
          break;
        case 'robot_event':
          addLog({ time: `t=${e.event.time.toFixed(1)}s`, text: e.event.text.replace(/^t=[\d.]+s /, ''), kind: 'event' });
          refreshSoon();
          break;
        case 'tool_activity':
          if (e.phase === 'start') {
            setHighlight(e.targets);
            addLog({ time: '', text: `→ ${e.tool} ${JSON.stringify(e.args ?? {})}`, kind: 'tool' });
          } else {
            addLog({ time: '', text: `${e.ok ? '✓' : '✗'} ${e.tool}`, kind: e.ok ? 'tool' : 'error' });
            // Keep the highlight a moment so the eye can find what was acted on.
            timers.push(setTimeout(() => setHighlight((h) => (h === e.targets || h.join() === e.targets.join() ? [] : h)), 1500));
            refreshSoon();
          }
          break;
        case 'run':
          // The agent panel draws runs; the log notes how each ends.
          if (e.event.kind === 'final')
            addLog({ time: '', text: `agent run ended: ${e.event.reason}`, kind: e.event.reason === 'error' ? 'error' : 'event' });
          break;
        default:
          break;
      }
    });
    return () => {
      off();
      for (const t of timers) clearTimeout(t);
    };
  }, [api, addLog, refreshSoon]);

  useEffect(() => {
    if (!meta) return;
    refresh();
    const t = setInterval(() => {
      api.getBattery({}).then(setBattery, () => undefined);
      // The robot's readings age: read them again so the page says when they go stale.
      readRobotSafety();
      // The clock in the header: simulated time moves while nothing else reports.
      api.getSimState({}).then(setSim, () => undefined);
    }, 1000);
    return () => clearInterval(t);
  }, [api, meta, refresh, readRobotSafety]);

  return {
    scenes,
    meta,
    loading,
    battery,
    robotSafety,
    snapshot,
    sim,
    log,
    highlight,
    banner,
    poses,
    setBanner,
    load,
    reloadMeta,
    refresh,
    refreshSoon,
    addLog,
  };
}
