// One web-mode socket: the AppApi calls of one tab, answered by its own session,
// or read-only by a session it observes. Every socket has an error handler (a
// frame over the size limit or with invalid UTF-8 closes that socket with a
// reason, never the server), and every message is checked in bytes both ways.
import type { WebSocket } from 'ws';
import { AppApiError, type MethodName, type Unsubscribe, describeZodError, dispatch, isMethodName, parseRequest } from '../../contract/api';
import { MAX_REPLY_BYTES, formatBytes, utf8Bytes } from '../../contract/limits';
import { CallMessage, type ServerMessage } from '../../contract/wire';
import { groupRelease, nameSession, observerEstop, stopGroups } from './class-controls';
import { pageEvent, pageReply } from './session-files';
import { pageError } from '../service/page-errors';
import type { Hosted, SessionClient, SessionPool } from './sessions';

/** A client this far behind on the socket gets no new pose frames until it catches up. */
const MAX_BUFFERED = 256 * 1024;

/**
 * Fairness between tabs: one socket has at most this many calls running; the
 * rest wait in its own queue, so a flood from one tab holds a few slots of the
 * host, not all of them, and another tab's call is served next to it.
 */
export const MAX_CALLS_IN_FLIGHT = 8;
/** Calls one socket may have waiting; more are answered at once with "too many requests". */
export const MAX_CALLS_QUEUED = 1000;
/** The stop wins: these never wait behind a tab's own queue (nor does a tab's view showing again). */
const NEVER_QUEUED: ReadonlySet<MethodName> = new Set<MethodName>([
  'stop',
  'injectEvent',
  'answerApproval',
  'answerAsk',
  'stopGroups',
  'setViewVisible',
]);
/**
 * A tab whose view is hidden (in the background, another group's tab in front
 * on a shared laptop) is sent at most one pose frame per this period (2 Hz):
 * it draws nothing, and the host and the network are left to the visible ones.
 */
export const HIDDEN_POSE_MS = 500;

/** What an observer may call on the session it watches: nothing that changes it or sends its keys anywhere. */
const READ_ONLY: ReadonlySet<MethodName> = new Set<MethodName>([
  'listScenes',
  'currentScene',
  'listToolSets',
  'listTools',
  'getSnapshot',
  'getBattery',
  'getRobotSafety',
  'listWorkflows',
  'exportTrace',
  'importTrace',
  'detectModels',
  'listLocalModels',
  'hasApiKey',
  'getSimState',
  'getWorldSettings',
  'listRuns',
  'getRunReplay',
  'getRunImage',
  'listExercises',
  // A check reads the world; it changes nothing (the teacher checks a group's exercise).
  'checkExercise',
  // The watched group's own evaluation results (each session has its own results folder).
  'listSuites',
  'listEvalRuns',
  'evalCases',
  'evalReport',
  'caseTranscript',
  'caseReplay',
  'getCaseImage',
]);

/** Calls that write to the host's models folder: never a classroom group's (the host's policy decides for the rest). */
const MODEL_STORE_WRITES: ReadonlySet<MethodName> = new Set<MethodName>(['pullLocalModel', 'cancelLocalModelPull', 'removeLocalModel']);

/**
 * Who is at the other end. `solo`: plain web mode (any tab may list and watch
 * the others). Classroom mode: a `group` sees its own session only; the
 * `teacher` lists every group's and watches any of them read-only.
 */
export type Role = 'solo' | 'group' | 'teacher';

export class Connection implements SessionClient {
  private watching: Hosted;
  private unwatch: Unsubscribe = () => undefined;
  private inFlight = 0;
  /** The page's view is hidden: poses are thinned to HIDDEN_POSE_MS; the newest one is sent when it shows. */
  private viewHidden = false;
  private lastPoseAt = 0;
  /** The newest frame of the watched session, sent or held. */
  private newestPose: Float32Array | undefined;
  private readonly queued: Array<{ id: number; method: MethodName; request: unknown }> = [];

  constructor(
    private readonly ws: WebSocket,
    private readonly pool: SessionPool,
    private readonly own: Hosted,
    private readonly resumed: boolean,
    private readonly log: (line: string) => void,
    private readonly role: Role = 'solo',
    /** The page opened this socket while it could not be seen (a background tab reconnecting). */
    hidden = false,
  ) {
    this.viewHidden = hidden;
    this.watching = own;
    ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    ws.on('close', () => {
      this.queued.length = 0;
      this.unwatch();
      this.watching.observers.delete(this);
      this.pool.detach(this, this.own);
    });
    this.watch(own);
  }

  observedClosed(): void {
    this.watch(this.own);
  }

  renamed(): void {
    this.sendSession();
  }

  private send(m: ServerMessage): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    let text = JSON.stringify(m);
    const bytes = text.length > MAX_REPLY_BYTES / 4 ? utf8Bytes(text) : text.length;
    if (bytes > MAX_REPLY_BYTES) {
      if (m.t !== 'reply') {
        this.log(`dropped a ${m.t} message of ${formatBytes(bytes)} (over ${formatBytes(MAX_REPLY_BYTES)})`);
        return;
      }
      const message = `the reply is ${formatBytes(bytes)}, over the ${formatBytes(MAX_REPLY_BYTES)} a page is sent at once`;
      text = JSON.stringify({ t: 'reply', id: m.id, ok: false, error: { code: 'invalid_request', message } });
    }
    this.ws.send(text);
  }

  /** Streams a session's events and poses to this socket (its own, or one it observes). */
  private watch(target: Hosted): void {
    this.unwatch();
    this.watching.observers.delete(this);
    this.watching = target;
    if (target !== this.own) target.observers.add(this);
    const offEvent = target.api.onEvent((event) => this.send({ t: 'event', event: pageEvent(event) }));
    this.newestPose = undefined;
    const offPoses = target.api.onPoses((frame) => this.sendPoses(frame));
    this.unwatch = () => {
      offEvent();
      offPoses();
    };
    this.sendSession();
  }

  private sendSession(): void {
    this.send({
      t: 'session',
      session: { id: this.own.id, token: this.own.token, resumed: this.resumed },
      observing: this.observing(),
      role: this.role,
      label: this.own.label,
    });
  }

  private sendPoses(frame: Float32Array): void {
    const now = Date.now();
    this.newestPose = frame;
    if (this.viewHidden && now - this.lastPoseAt < HIDDEN_POSE_MS) {
      return;
    }
    if (this.ws.readyState !== this.ws.OPEN || this.ws.bufferedAmount > MAX_BUFFERED) return;
    this.lastPoseAt = now;
    this.ws.send(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength), { binary: true });
  }

  /** The page says whether its view can be seen: hidden, poses slow to 2 Hz; shown, the newest goes at once and the full rate resumes. */
  private setViewVisible(visible: boolean): { ok: boolean; message: string } {
    this.viewHidden = !visible;
    // The newest frame, held or already sent (poses are absolute, so sending it twice is harmless):
    // the page draws the present at once, whatever the 2 Hz clock had just done.
    const newest = this.newestPose;
    if (visible && newest) this.sendPoses(newest);
    return {
      ok: true,
      message: visible
        ? 'poses at the full rate'
        : `poses slowed to one per ${HIDDEN_POSE_MS} ms while the view is hidden; events as they happen`,
    };
  }

  private receive(data: unknown, isBinary: boolean): void {
    let id = -1;
    try {
      if (isBinary) throw new AppApiError('invalid_request', 'send JSON text messages');
      let raw: unknown;
      try {
        raw = JSON.parse(String(data));
      } catch {
        throw new AppApiError('invalid_request', 'not valid JSON');
      }
      const msg = CallMessage.safeParse(raw);
      if (!msg.success) throw new AppApiError('invalid_request', describeZodError(msg.error));
      id = msg.data.id;
      const method = msg.data.method;
      if (!isMethodName(method)) throw new AppApiError('invalid_request', `unknown method "${method}"`);
      if (NEVER_QUEUED.has(method)) {
        void this.answer(id, method, msg.data.request);
        return;
      }
      if (this.queued.length >= MAX_CALLS_QUEUED) {
        throw new AppApiError(
          'busy',
          `too many requests: this tab has ${MAX_CALLS_IN_FLIGHT} calls running and ${MAX_CALLS_QUEUED} waiting; wait for replies before sending more`,
        );
      }
      this.queued.push({ id, method, request: msg.data.request });
      this.pump();
    } catch (e) {
      this.fail(id, e);
    }
  }

  /** Starts queued calls while this socket has free slots. */
  private pump(): void {
    while (this.inFlight < MAX_CALLS_IN_FLIGHT && this.queued.length) {
      const next = this.queued.shift()!;
      this.inFlight++;
      void this.answer(next.id, next.method, next.request).finally(() => {
        this.inFlight--;
        // A later turn of the event loop: other sockets' calls and replies go in between.
        setImmediate(() => this.pump());
      });
    }
  }

  private async answer(id: number, method: MethodName, request: unknown): Promise<void> {
    try {
      const value = pageReply(method, await this.call(method, request));
      this.send({ t: 'reply', id, ok: true, value });
    } catch (e) {
      this.fail(id, e);
    }
  }

  /** A page never reads a host path in an error: `internal` ones become a numbered sentence (the host logs the whole), the rest lose their paths. */
  private fail(id: number, e: unknown): void {
    const code = e instanceof AppApiError ? e.code : ('internal' as const);
    const raw = e instanceof AppApiError ? e.message : ((e as Error).message ?? String(e));
    this.send({ t: 'reply', id, ok: false, error: { code, message: pageError(code, raw, (l) => this.log(l)).message } });
  }

  private async call(method: MethodName, request: unknown): Promise<unknown> {
    if ((method === 'listSessions' || method === 'observeSession') && this.role === 'group') {
      throw new AppApiError('forbidden', `${method}: in classroom mode only the teacher sees other groups' sessions`);
    }
    if (MODEL_STORE_WRITES.has(method) && this.role === 'group') {
      throw new AppApiError(
        'forbidden',
        `${method}: in classroom mode only the teacher downloads or removes models (they go to the host's disk)`,
      );
    }
    if (method === 'listSessions') return this.pool.list(this.own, this.role === 'teacher');
    if (method === 'setSessionLabel') return nameSession(this.pool, this.own, this.role, parseRequest('setSessionLabel', request));
    if (method === 'observeSession') {
      const { id } = parseRequest('observeSession', request);
      if (id === null || id === this.own.id) {
        this.watch(this.own);
        return { ok: true, message: 'back to your own session', observing: null };
      }
      const target = this.pool.byId(id);
      if (!target) return { ok: false, message: `no session "${id}" (listSessions shows the open ones)`, observing: this.observing() };
      this.watch(target);
      return { ok: true, message: `observing session ${id} read-only`, observing: id };
    }
    if (method === 'setViewVisible') return this.setViewVisible(parseRequest('setViewVisible', request).visible);
    if (method === 'stopGroups') return stopGroups(this.pool, this.own, this.role, parseRequest('stopGroups', request));
    if (this.watching !== this.own && method === 'injectEvent') {
      // The stop always wins: an observer presses the e-stop of the session it watches (the teacher also releases it).
      const event = observerEstop(this.role, parseRequest('injectEvent', request));
      if (event?.type === 'estop_pressed' && this.role === 'teacher') this.watching.estopByTeacher = true;
      if (event) return this.watching.api.injectEvent(event);
    }
    if (this.watching === this.own && method === 'injectEvent') {
      const refused = groupRelease(this.role, this.own, parseRequest('injectEvent', request));
      if (refused) return refused;
    }
    if (this.watching !== this.own && !READ_ONLY.has(method)) {
      throw new AppApiError(
        'forbidden',
        `${method}: this tab observes session ${this.watching.id} read-only; call observeSession with id null to return to your own`,
      );
    }
    return dispatch(this.watching.api, method, parseRequest(method, request) as never);
  }

  private observing(): string | null {
    return this.watching === this.own ? null : this.watching.id;
  }
}
