// The app shell: header (scene, reset, speed, battery), the tool console on the
// left, the 3D view in the middle, agent / world / log on the right. It holds
// the shared state and listens to the host's events.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AppApi } from '../../contract/api';
import type { AppEvent, Battery, SceneMeta, SceneSummary, Snapshot } from '../../contract/schemas';
import { ApiContext } from './api-context';
import { BatteryGauge } from './panels/battery-gauge';
import { AgentPanel } from './panels/agent-panel';
import { EventInjector } from './panels/event-injector';
import { EvaluatePanel } from './panels/evaluate/evaluate-panel';
import { EventLog, type LogLine } from './panels/event-log';
import { FactsPanel } from './panels/facts-panel';
import { SceneBar } from './panels/scene-bar';
import { ToolConsole } from './panels/tool-console';
import { PoseStore } from './pose-store';
import { SceneView } from './view/scene-view';

export interface AppProps {
  api: AppApi;
  desktop: boolean;
  /** Scene to open when the host has none loaded. */
  initialScene?: string;
  detectWebgl?: () => string | null;
}

type Tab = 'agent' | 'world' | 'eval' | 'log';

function msg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function App({ api, desktop, initialScene, detectWebgl }: AppProps) {
  const [scenes, setScenes] = useState<SceneSummary[]>([]);
  const [meta, setMeta] = useState<SceneMeta | null>(null);
  const [loading, setLoading] = useState(false);
  const [speed, setSpeedState] = useState(1);
  const [battery, setBattery] = useState<Battery | null>(null);
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [log, setLog] = useState<LogLine[]>([]);
  const [highlight, setHighlight] = useState<string[]>([]);
  const [tab, setTab] = useState<Tab>('agent');
  const [banner, setBanner] = useState<string | null>(null);
  const poses = useMemo(() => new PoseStore(), []);
  const metaRef = useRef<SceneMeta | null>(null);
  metaRef.current = meta;
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const addLog = useCallback((line: Omit<LogLine, 'key'>) => {
    setLog((l) => [{ ...line, key: `${Date.now()}-${Math.random()}` }, ...l].slice(0, 200));
  }, []);

  const refresh = useCallback(() => {
    if (!metaRef.current) return;
    api.getSnapshot({}).then(setSnapshot, () => undefined);
    api.getBattery({}).then(setBattery, () => undefined);
  }, [api]);

  const refreshSoon = useCallback(() => {
    if (refreshTimer.current) clearTimeout(refreshTimer.current);
    refreshTimer.current = setTimeout(refresh, 200);
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

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const list = await api.listScenes({});
        if (!live) return;
        setScenes(list);
        const cur = await api.currentScene({});
        if (!live) return;
        if (cur) setMeta(cur);
        else {
          const first = list.find((s) => s.id === initialScene) ?? list[0];
          if (first) await load(first.id);
        }
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
    const t = setInterval(() => api.getBattery({}).then(setBattery, () => undefined), 1000);
    return () => clearInterval(t);
  }, [api, meta, refresh]);

  const setSpeed = (factor: number) => {
    api.setSpeed({ factor }).then(
      (r) => setSpeedState(r.factor),
      (e: unknown) => setBanner(msg(e)),
    );
  };

  return (
    <ApiContext.Provider value={api}>
      <div className="app">
        <header className="app-head">
          <div className="brand">
            Skillbridge <span className="mode">{desktop ? 'desktop' : 'web'}</span>
          </div>
          <SceneBar
            scenes={scenes}
            current={meta?.id ?? null}
            loading={loading}
            speed={speed}
            onLoad={(id) => void load(id)}
            onReset={() => meta && void load(meta.id, true)}
            onSpeed={setSpeed}
          />
          <BatteryGauge battery={battery} />
        </header>
        {banner && (
          <div className="banner" role="alert">
            {banner}
            <button type="button" className="link" onClick={() => setBanner(null)}>
              dismiss
            </button>
          </div>
        )}
        <main className="app-body">
          <aside className="left">
            <ToolConsole api={api} meta={meta} />
          </aside>
          <SceneView api={api} meta={meta} highlight={highlight} {...(detectWebgl ? { detectWebgl } : {})} />
          <aside className="right">
            <div className="tabs" role="tablist">
              {(['agent', 'world', 'eval', 'log'] as const).map((t) => (
                <button
                  key={t}
                  type="button"
                  role="tab"
                  aria-selected={tab === t}
                  className={tab === t ? 'tab active' : 'tab'}
                  onClick={() => setTab(t)}
                >
                  {t === 'agent'
                    ? 'Agent'
                    : t === 'world'
                      ? 'World'
                      : t === 'eval'
                        ? 'Evaluate'
                        : `Log${log.length ? ` (${log.length})` : ''}`}
                </button>
              ))}
            </div>
            {/* Kept mounted so a run keeps streaming while another tab is open. */}
            <div hidden={tab !== 'agent'} className="tab-page">
              <AgentPanel api={api} desktop={desktop} />
            </div>
            {/* Kept mounted too: an evaluation's progress keeps arriving. */}
            <div hidden={tab !== 'eval'} className="tab-page">
              <EvaluatePanel api={api} />
            </div>
            {tab === 'world' && (
              <>
                <EventInjector
                  api={api}
                  meta={meta}
                  estop={snapshot?.estop ?? false}
                  positionOf={(id) => (meta ? poses.position(meta, id) : undefined)}
                  onInjected={refreshSoon}
                  batteryPercent={battery?.percent}
                />
                <FactsPanel snapshot={snapshot} onRefresh={refresh} />
              </>
            )}
            {tab === 'log' && <EventLog lines={log} />}
          </aside>
        </main>
      </div>
    </ApiContext.Provider>
  );
}
