// The app shell: the header (scene, physics clock, the emergency stop, battery,
// presentation and help), the tool console on the left, the 3D view (or runs
// watched again) in the middle, and agent / world / runs / tasks / log (and the
// class, for a teacher) on the right. Side panels fold away; keys in the help.
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import type { AppApi } from '../../contract/api';
import type { SessionState } from '../../contract/ws-client';
import { useAfterFirstFrame } from './after-first-frame';
import { ApiContext } from './api-context';
import type { FirstScene } from './first-scene';
import { AgentPanel } from './panels/agent-panel';
import { BatteryGauge } from './panels/battery-gauge';
import { EventInjector } from './panels/event-injector';
import { EvaluatePanel } from './panels/evaluate/evaluate-panel';
import { EventLog } from './panels/event-log';
import { FactsPanel } from './panels/facts-panel';
import { RobotBattery, RobotEstopState, RobotStateNote } from './panels/robot-state';
import { SceneBar } from './panels/scene-bar';
import { RobotPicker } from './panels/robot-picker';
import { ToolConsole } from './panels/tool-console';
import { ApprovalOverlay, describeCall, usePendingApprovals } from './teaching/approvals';
import { ClassOverview, groupName } from './teaching/class-overview';
import { EstopButton, EstopOverlay } from './teaching/estop';
import { ExercisesPanel } from './teaching/exercises-panel';
import { HelpPanel } from './teaching/help-panel';
import { stepScale, usePresentation } from './teaching/presentation';
import { type ReplayRun, loadReplay } from './teaching/replay';
import { ReplayView, useReplayClock } from './teaching/replay-view';
import { RunsPanel } from './teaching/runs-panel';
import { useShortcuts } from './teaching/shortcuts';
import { STEP_PHYSICS, SimClock, WorldSettingsForm } from './teaching/sim-controls';
import { useHostState } from './use-host-state';
import { SceneView } from './view/scene-view';

export interface AppProps {
  api: AppApi;
  desktop: boolean;
  /** Scene to open when the host has none loaded. */
  initialScene?: string;
  detectWebgl?: () => string | null;
  /** Web mode: this tab's session (its role in classroom mode), and news of it. */
  session?: SessionState | undefined;
  onSession?: ((listener: (s: SessionState) => void) => () => void) | undefined;
  /** The scene list and current scene, already asked for by the entry point. */
  firstScene?: FirstScene;
}

type Tab = 'agent' | 'world' | 'runs' | 'tasks' | 'eval' | 'log' | 'class';

function msg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function App({ api, desktop, initialScene, detectWebgl, session, onSession, firstScene }: AppProps) {
  const host = useHostState(api, initialScene, firstScene);
  const { meta, snapshot, sim } = host;
  const [tab, setTab] = useState<Tab>('agent');
  const [present, setPresent, togglePresent] = usePresentation();
  const [help, setHelp] = useState(false);
  const [watching, setWatching] = useState<ReplayRun[]>([]);
  const clock = useReplayClock(watching);
  const [observing, setObserving] = useState<string | null>(session?.observing ?? null);
  const [observedName, setObservedName] = useState<string | null>(null);
  const approvals = usePendingApprovals(api);
  const role = session?.role ?? 'solo';
  const readOnly = observing !== null;
  const estop = snapshot?.estop ?? false;
  // Panels that start hidden mount once the scene is drawn (or when their tab is opened first).
  const drawn = useAfterFirstFrame(meta !== null || host.banner !== null);

  useEffect(
    () =>
      onSession?.((s) => {
        // The session watched was closed: the host put this tab back on its own.
        if (s.observing === null && observing !== null) {
          setObserving(null);
          void host.reloadMeta();
        }
      }),
    [onSession, observing, host],
  );

  const inject = useCallback(
    async (event: Parameters<AppApi['injectEvent']>[0]) => {
      try {
        const r = await api.injectEvent(event);
        if (!r.ok) host.setBanner(r.message);
        return r;
      } catch (e) {
        host.setBanner(msg(e));
        return undefined;
      } finally {
        host.refresh();
      }
    },
    [api, host],
  );
  // The stop always wins: from any dialog, tab or mode, and on the group a teacher watches.
  const pressEstop = () => {
    if (!estop) void inject({ type: 'estop_pressed' });
  };
  const setPaused = (paused: boolean) => api.setPaused({ paused }).catch((e: unknown) => host.setBanner(msg(e)));
  const step = () => api.stepPhysics({ steps: STEP_PHYSICS }).catch((e: unknown) => host.setBanner(msg(e)));
  const replaying = watching.length > 0;

  useShortcuts({
    estop: () => {
      setHelp(false);
      pressEstop();
    },
    pause: () => void (sim && !readOnly && setPaused(!sim.paused)),
    step: () => void (sim?.paused && !readOnly && step()),
    help: () => setHelp((h) => !h),
    labels: () => setPresent({ labels: !present.labels }),
    follow: () => setPresent({ follow: !present.follow }),
    present: togglePresent,
    bigger: () => setPresent({ scale: stepScale(present.scale, 1) }),
    smaller: () => setPresent({ scale: stepScale(present.scale, -1) }),
    left: () => setPresent({ left: !present.left }),
    right: () => setPresent({ right: !present.right }),
    replayPlay: () => (replaying ? clock.setPlaying(!clock.playing) : false),
    replayBack: () => (replaying ? clock.step(-1) : false),
    replayForward: () => (replaying ? clock.step(1) : false),
  });

  const watchRuns = async (ids: string[]) => {
    const replays = await Promise.all(ids.map((runId) => api.getRunReplay({ runId })));
    setWatching(replays.map(loadReplay));
    setTab('runs');
  };
  const watchGroup = async (id: string | null, name?: string) => {
    setObservedName(name ?? null);
    try {
      const r = await api.observeSession({ id });
      if (!r.ok) host.setBanner(r.message);
      setObserving(r.observing);
      setWatching([]);
      await host.reloadMeta();
    } catch (e) {
      host.setBanner(msg(e));
    }
  };

  const waiting = approvals.pending[0];
  const overlay: ReactNode = (
    <>
      {estop && <EstopOverlay />}
      {waiting && (
        <ApprovalOverlay
          pending={waiting}
          readOnly={readOnly}
          onAnswer={(d) => void approvals.answer(waiting.id, d).then((m) => m && host.setBanner(m))}
        />
      )}
    </>
  );
  const tabs: Array<{ id: Tab; label: string }> = [
    { id: 'agent', label: approvals.pending.length ? `Agent ● ${approvals.pending.length}` : 'Agent' },
    { id: 'world', label: 'World' },
    { id: 'runs', label: 'Runs' },
    { id: 'tasks', label: 'Tasks' },
    // Watching another group (classroom mode) is read only: no evaluations from there.
    ...(readOnly ? [] : [{ id: 'eval' as const, label: 'Evaluate' }]),
    { id: 'log', label: `Log${host.log.length ? ` (${host.log.length})` : ''}` },
    ...(role === 'teacher' ? [{ id: 'class' as const, label: 'Class' }] : []),
  ];

  return (
    <ApiContext.Provider value={api}>
      <div className={`app${present.on ? ' present' : ''}${estop ? ' estopped' : ''}`} data-testid="app">
        <header className="app-head">
          <div className="brand">
            Skillbridge{' '}
            <span className="mode">
              {desktop ? 'desktop' : 'web'}
              {role === 'teacher' ? ' · teacher' : role === 'group' ? ' · group' : ''}
            </span>
          </div>
          {role === 'group' && <GroupName api={api} sessionId={session?.session.id} onSession={onSession} />}
          <SceneBar
            scenes={host.scenes}
            current={meta?.id ?? null}
            loading={host.loading}
            disabled={readOnly}
            onLoad={(id) => void host.load(id)}
            onReset={() => meta && void host.load(meta.id, true)}
          />
          <RobotPicker api={api} robot={meta?.robot.title ?? null} disabled={readOnly || !meta} />
          <SimClock
            state={sim}
            readOnly={readOnly}
            onPause={(p) => void setPaused(p)}
            onStep={() => void step()}
            onSpeed={(factor) => void api.setSpeed({ factor }).catch((e: unknown) => host.setBanner(msg(e)))}
          />
          <EstopButton
            pressed={estop}
            disabled={!meta}
            releaseDisabled={readOnly && role !== 'teacher'}
            onPress={() => {
              setHelp(false);
              pressEstop();
            }}
            onRelease={() => void inject({ type: 'estop_released' })}
          />
          {host.robotSafety && <RobotEstopState safety={host.robotSafety} />}
          {/* With a real robot its own battery, not the shadow simulation's. */}
          {host.robotSafety ? <RobotBattery safety={host.robotSafety} /> : <BatteryGauge battery={host.battery} />}
          <div className="head-tools" role="group" aria-label="Display">
            <button
              type="button"
              aria-pressed={present.on}
              onClick={togglePresent}
              title="Presentation mode: larger text, labels, follow the robot (M)"
            >
              Present
            </button>
            <button type="button" onClick={() => setPresent({ scale: stepScale(present.scale, -1) })} aria-label="Smaller text (−)">
              A−
            </button>
            <button type="button" onClick={() => setPresent({ scale: stepScale(present.scale, 1) })} aria-label="Larger text (+)">
              A+
            </button>
            <button type="button" onClick={() => setHelp(true)} aria-label="Help and keyboard shortcuts (?)">
              ?
            </button>
          </div>
        </header>
        {observing && (
          <div className="banner watch" role="status">
            Watching {observedName ?? groupName({ id: observing, label: null })} read-only: you see its world and runs; only the emergency
            stop acts on it.
            <button type="button" className="link" onClick={() => void watchGroup(null)}>
              back to my session
            </button>
          </div>
        )}
        {host.banner && (
          <div className="banner" role="alert">
            {host.banner}
            <button type="button" className="link" onClick={() => host.setBanner(null)}>
              dismiss
            </button>
          </div>
        )}
        <main
          className="app-body"
          style={{
            gridTemplateColumns: `${present.left ? 'var(--left-w)' : 'var(--rail-w)'} minmax(0, 1fr) ${present.right ? 'var(--right-w)' : 'var(--rail-w)'}`,
          }}
        >
          {present.left ? (
            <aside className="left" aria-label="Tool console panel">
              <button type="button" className="fold" onClick={() => setPresent({ left: false })} aria-label="Hide the tool console ([)">
                ◂
              </button>
              <ToolConsole
                api={api}
                meta={meta}
                watching={observing ? (observedName ?? groupName({ id: observing, label: null })) : null}
              />
            </aside>
          ) : (
            <button
              type="button"
              className="rail left-rail"
              onClick={() => setPresent({ left: true })}
              aria-label="Show the tool console ([)"
            >
              <span>Tool console</span>
            </button>
          )}
          {replaying ? (
            <ReplayView runs={watching} clock={clock} labels={present.labels} onClose={() => setWatching([])} api={api} />
          ) : (
            <SceneView
              api={api}
              meta={meta}
              highlight={host.highlight}
              {...(detectWebgl ? { detectWebgl } : {})}
              labels={present.labels}
              follow={present.follow}
              layout={present.on ? 'present' : 'normal'}
              onToggleLabels={() => setPresent({ labels: !present.labels })}
              onToggleFollow={() => setPresent({ follow: !present.follow })}
              onDrop={
                readOnly
                  ? undefined
                  : (object, to) => {
                      // The host's answer says where it came to rest (set down on what is below, it may roll).
                      void inject({ type: 'object_moved', object, to, by: 'operator' }).then((r) => {
                        if (r?.ok) host.addLog({ time: '', text: `in the view: ${r.message}`, kind: 'event' });
                      });
                    }
              }
              captionNote={waiting ? `waiting for your approval: ${describeCall(waiting.tool, waiting.args)}` : null}
              overlay={overlay}
            />
          )}
          {present.right ? (
            <aside className="right" aria-label="Side panel">
              <div className="tabs" role="tablist">
                <button type="button" className="fold" onClick={() => setPresent({ right: false })} aria-label="Hide the side panel (])">
                  ▸
                </button>
                {tabs.map((t) => (
                  <button
                    key={t.id}
                    type="button"
                    role="tab"
                    aria-selected={tab === t.id}
                    className={`tab${tab === t.id ? ' active' : ''}${t.id === 'agent' && approvals.pending.length ? ' attention' : ''}`}
                    onClick={() => setTab(t.id)}
                  >
                    {t.label}
                  </button>
                ))}
              </div>
              {estop && (
                <div className="estop-note" role="status" data-testid="estop-note">
                  Emergency stop pressed: the robot does not move, and an agent run stops. Release it in the header to go on.
                </div>
              )}
              {host.robotSafety && <RobotStateNote safety={host.robotSafety} />}
              {/* Kept mounted so a run keeps streaming while another tab is open. */}
              <div hidden={tab !== 'agent'} className="tab-page">
                <AgentPanel api={api} desktop={desktop} />
              </div>
              {tab === 'world' && (
                <>
                  <EventInjector
                    api={api}
                    meta={meta}
                    estop={estop}
                    positionOf={(id) => (meta ? host.poses.position(meta, id) : undefined)}
                    basePose={() => (meta ? host.poses.basePose(meta) : undefined)}
                    onInjected={host.refreshSoon}
                    batteryPercent={host.battery?.percent}
                  />
                  <WorldSettingsForm api={api} readOnly={readOnly} onApplied={() => meta && void host.load(meta.id, true)} />
                  <FactsPanel snapshot={snapshot} robot={host.robotSafety} onRefresh={host.refresh} />
                </>
              )}
              <div hidden={tab !== 'runs'} className="tab-page">
                {(drawn || tab === 'runs' || replaying) && (
                  // A fresh list for the session shown: the watched group's runs, or this tab's own again.
                  <RunsPanel key={observing ?? 'own'} api={api} watching={watching} clock={clock} onWatch={watchRuns} />
                )}
              </div>
              {tab === 'tasks' && <ExercisesPanel api={api} sceneId={meta?.id ?? null} readOnly={readOnly} />}
              {/* Kept mounted too: an evaluation's progress keeps arriving. */}
              <div hidden={tab !== 'eval'} className="tab-page">
                {(drawn || tab === 'eval') && (
                  <EvaluatePanel
                    api={api}
                    onWatch={(r) => {
                      setWatching([loadReplay(r)]);
                      setTab('runs');
                    }}
                  />
                )}
              </div>
              {tab === 'log' && <EventLog lines={host.log} />}
              {tab === 'class' && <ClassOverview api={api} observing={observing} onWatch={(id, name) => void watchGroup(id, name)} />}
            </aside>
          ) : (
            <button
              type="button"
              className="rail right-rail"
              onClick={() => setPresent({ right: true })}
              aria-label="Show the side panel (])"
            >
              <span>
                {approvals.pending.length ? `Agent ● ${approvals.pending.length} waiting` : 'Agent · World · Runs · Tasks · Evaluate'}
              </span>
            </button>
          )}
        </main>
        {help && <HelpPanel onClose={() => setHelp(false)} />}
      </div>
    </ApiContext.Provider>
  );
}

/** A group names itself for the teacher's overview (classroom mode). */
function GroupName({ api, sessionId, onSession }: { api: AppApi; sessionId: string | undefined; onSession: AppProps['onSession'] }) {
  const [name, setName] = useState(() => globalThis.sessionStorage?.getItem('skillbridge.group') ?? '');
  /** The name the host has for this session, as last heard: leaving the field unchanged is not a rename. */
  const known = useRef<string | null>(null);
  const keep = (label: string) => {
    known.current = label;
    globalThis.sessionStorage?.setItem('skillbridge.group', label);
  };
  const save = () => {
    const label = name.trim();
    if (!label || label === known.current) return;
    keep(label);
    void api.setSessionLabel({ label }).catch(() => undefined);
  };
  useEffect(() => {
    const label = name.trim();
    if (!label) return;
    // Once per connection (a new session, or one reattached after a reload): a reconnect offers the
    // kept name, and a name the session already has (the teacher's) wins and is shown here.
    void api.setSessionLabel({ label, reconnect: true }).then(
      (r) => {
        const now = r.label ?? label;
        keep(now);
        setName(now);
      },
      () => undefined,
    );
  }, [api, sessionId]);
  // The teacher renamed the group: the host says so, and the new name shows here at once.
  useEffect(
    () =>
      onSession?.((s) => {
        if (!s.label || s.label === known.current) return;
        keep(s.label);
        setName(s.label);
      }),
    [onSession],
  );
  return (
    <label className="inline group-name">
      <span className="wide-only">Group</span>
      <input
        aria-label="Group name"
        value={name}
        placeholder="your group's name"
        maxLength={40}
        onChange={(e) => setName(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => e.key === 'Enter' && save()}
      />
    </label>
  );
}
