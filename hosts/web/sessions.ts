// Web mode's sessions: each browser tab gets its own (its own world, physics
// worker, conversation and approvals), so a second tab can neither read the
// first one's model text nor approve, stop or change anything of it. A tab
// keeps its session's secret token (sessionStorage), so a reload within the
// grace period reattaches it; after that the session and its worker are closed.
// Observing another session is explicit and read-only (see connection.ts).
import { randomBytes } from 'node:crypto';
import type { AppApi, Unsubscribe } from '../../contract/api';
import type { ExerciseScore, RunEndReason, SceneMeta, SessionInfo } from '../../contract/schemas';
import { glanceOf } from './glance';

/** A session a host can open and close: the AppApi over one world. */
/** How long a connection naming a session that still has a tab waits for that tab's socket to close. */
const RELOAD_CLOSE_MS = 2000;

export interface HostedSession extends AppApi {
  dispose(): Promise<void>;
}

/** What a connection is told when its session changes or goes away. */
export interface SessionClient {
  /** The session it observed was closed: it goes back to its own. */
  observedClosed(): void;
  /** Its own session was renamed (the teacher renamed the group): the page shows the new name. */
  renamed?(): void;
}

export interface Hosted {
  /** Public: names the session in lists; gives no control. */
  readonly id: string;
  /** Secret: reattaches the session (a reload of its tab). */
  readonly token: string;
  readonly api: HostedSession;
  readonly createdAt: string;
  readonly clients: Set<SessionClient>;
  readonly observers: Set<SessionClient>;
  scene: string | null;
  running: boolean;
  /** The name a group gave itself (classroom mode). */
  label: string | null;
  lastRun: { message: string; reason: RunEndReason | null } | null;
  exercise: ExerciseScore | null;
  /** Its e-stop is pressed (followed from its events; a new scene's world starts released). */
  estop: boolean;
  /** The teacher pressed it (stop one, stop all, or while watching): only the teacher releases it. */
  estopByTeacher: boolean;
  /** The loaded scene and the newest pose frame: what the teacher's thumbnail is drawn from. */
  meta: SceneMeta | null;
  frame: Float32Array | null;
  grace: ReturnType<typeof setTimeout> | undefined;
  unsubscribe: Unsubscribe;
}

export interface SessionPoolOptions {
  open: () => Promise<HostedSession>;
  /** Sessions at once; each owns a physics worker (default 6). */
  max?: number;
  /** How long a session outlives its last tab, so a reload reattaches it (default 20 s). */
  graceMs?: number;
  log?: (line: string) => void;
}

export const DEFAULT_MAX_SESSIONS = 6;
export const DEFAULT_GRACE_MS = 20_000;
/** Classroom mode: a group's session outlives its tab for a whole lesson (a closed lid, a lost network); at the cap the oldest idle one makes room. */
export const CLASS_GRACE_MS = 4 * 60 * 60 * 1000;

export class SessionPool {
  private readonly sessions = new Map<string, Hosted>();
  private nextId = 1;
  private opening = 0;
  readonly max: number;
  private readonly graceMs: number;

  constructor(private readonly opts: SessionPoolOptions) {
    this.max = Math.max(1, opts.max ?? DEFAULT_MAX_SESSIONS);
    this.graceMs = Math.max(0, opts.graceMs ?? DEFAULT_GRACE_MS);
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * The session for a new connection: the one `token` names when it waits for
   * its tab (a reload), else a new one. A token whose session has a tab already
   * (a duplicated tab) gets a new session too. Throws SessionLimitError at the cap.
   * The caller adds its client to `hosted.clients` at once.
   */
  async attach(token: string | null): Promise<{ hosted: Hosted; resumed: boolean }> {
    const known = token ? this.sessions.get(token) : undefined;
    // A reload's new socket can arrive before its old one's close (a loaded machine): wait a
    // moment for the tab to let go before taking it for a duplicated tab, which gets a new session.
    for (let waited = 0; known && known.clients.size > 0 && waited < RELOAD_CLOSE_MS; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    if (known && known.clients.size === 0 && this.sessions.get(token!) === known) {
      clearTimeout(known.grace);
      known.grace = undefined;
      return { hosted: known, resumed: true };
    }
    if (this.sessions.size + this.opening >= this.max) await this.evictIdle();
    if (this.sessions.size + this.opening >= this.max) throw new SessionLimitError(this.max);
    this.opening++;
    let api: HostedSession;
    try {
      api = await this.opts.open();
    } finally {
      this.opening--;
    }
    const hosted: Hosted = {
      id: `s${this.nextId++}`,
      token: randomBytes(18).toString('base64url'),
      api,
      createdAt: new Date().toISOString(),
      clients: new Set(),
      observers: new Set(),
      scene: null,
      running: false,
      label: null,
      lastRun: null,
      exercise: null,
      estop: false,
      estopByTeacher: false,
      meta: null,
      frame: null,
      grace: undefined,
      unsubscribe: () => undefined,
    };
    // What the overview shows of a session, followed from its events.
    const readMeta = () =>
      api.currentScene({}).then(
        (m) => {
          if (m && (hosted.scene === null || hosted.scene === m.id)) {
            hosted.scene = m.id;
            hosted.meta = m;
          }
        },
        () => undefined,
      );
    // Keeping a reference to the newest frame costs nothing: frames are streamed anyway.
    const offPoses = api.onPoses((f) => (hosted.frame = f));
    const offEvents = api.onEvent((e) => {
      if (e.type === 'scene_loaded') {
        if (hosted.scene !== e.sceneId) hosted.exercise = null;
        hosted.scene = e.sceneId;
        hosted.estop = false;
        hosted.estopByTeacher = false;
        void readMeta();
      } else if (e.type === 'robot_event' && (e.event.type === 'estop_pressed' || e.event.type === 'estop_released')) {
        hosted.estop = e.event.type === 'estop_pressed';
        if (!hosted.estop) hosted.estopByTeacher = false;
      } else if (e.type === 'exercise') hosted.exercise = e.score;
      else if (e.type === 'run' && e.event.kind === 'started') {
        hosted.running = true;
        hosted.lastRun = { message: e.event.message, reason: null };
      } else if (e.type === 'run' && e.event.kind === 'final') {
        hosted.running = false;
        if (hosted.lastRun) hosted.lastRun = { ...hosted.lastRun, reason: e.event.reason };
      }
    });
    hosted.unsubscribe = () => {
      offPoses();
      offEvents();
    };
    // A scene loaded before the subscription (the session opened warm) is read once.
    void readMeta();
    this.sessions.set(hosted.token, hosted);
    this.opts.log?.(`session ${hosted.id} opened (${this.sessions.size} of at most ${this.max})`);
    return { hosted, resumed: false };
  }

  /** A connection went away: its session waits `graceMs` for a reload, then closes. */
  detach(client: SessionClient, hosted: Hosted): void {
    hosted.clients.delete(client);
    if (hosted.clients.size || !this.sessions.has(hosted.token)) return;
    clearTimeout(hosted.grace);
    hosted.grace = setTimeout(() => void this.close(hosted, 'its tab went away'), this.graceMs);
    hosted.grace.unref?.();
  }

  byId(id: string): Hosted | undefined {
    for (const h of this.sessions.values()) if (h.id === id) return h;
    return undefined;
  }

  all(): Hosted[] {
    return [...this.sessions.values()];
  }

  /** The sessions as a list shows them; `glance` adds each one's scene from above (the classroom teacher's overview). */
  list(own: Hosted | undefined, glance = false): SessionInfo[] {
    return [...this.sessions.values()].map((h) => ({
      id: h.id,
      scene: h.scene,
      clients: h.clients.size,
      observers: h.observers.size,
      running: h.running,
      createdAt: h.createdAt,
      own: h === own,
      label: h.label,
      lastRun: h.lastRun,
      exercise: h.exercise,
      estop: h.estop,
      ...(glance ? { glance: h.meta && h.meta.id === h.scene ? glanceOf(h.meta, h.frame) : null } : {}),
    }));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((h) => this.close(h, 'the server stopped')));
  }

  /** At the cap, a session whose tab is gone (waiting for a reload) makes room for a live tab. */
  private async evictIdle(): Promise<void> {
    const idle = [...this.sessions.values()].filter((h) => h.clients.size === 0);
    const oldest = idle.sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0];
    if (oldest) await this.close(oldest, 'room was needed for a new tab');
  }

  private async close(hosted: Hosted, why: string): Promise<void> {
    if (!this.sessions.delete(hosted.token)) return;
    clearTimeout(hosted.grace);
    hosted.unsubscribe();
    for (const o of [...hosted.observers]) o.observedClosed();
    hosted.observers.clear();
    this.opts.log?.(`session ${hosted.id} closed: ${why}`);
    try {
      await hosted.api.dispose();
    } catch (e) {
      this.opts.log?.(`session ${hosted.id} did not close cleanly: ${(e as Error).message}`);
    }
  }
}

export class SessionLimitError extends Error {
  constructor(readonly max: number) {
    // Sent as a WebSocket close reason: at most 123 bytes.
    super(`This host runs at most ${max} sessions and all have a tab open. Close a tab, or restart with --max-sessions.`);
    this.name = 'SessionLimitError';
  }
}
