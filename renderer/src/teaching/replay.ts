// A run to watch again: its recorded pose frames and its trace on one clock (the
// host's wall time, which stamps both), so a timeline position gives the poses to
// draw (interpolated between the recorded frames) and the trace line reached.
import { decodeFrames, poseOffset, readHeader } from '../../../contract/frames';
import type { SceneMeta, TraceLineInfo } from '../../../contract/schemas';
import { type RunPicture, picturesOfRecord } from '../../../contract/pictures';
import type { RunReplay, RunSummary } from '../../../contract/teaching';

export interface TimelineEvent {
  /** Milliseconds from the run's start. */
  t: number;
  kind: 'ask' | 'say' | 'call' | 'result' | 'approval' | 'stop' | 'error' | 'final';
  label: string;
  ok?: boolean;
  /** A result's pictures (the robot's camera), and the tool that gave them. */
  pictures?: { tool: string; list: RunPicture[] };
}

export interface ReplayRun {
  run: RunSummary;
  /** The scene as drawn during the run; null when no poses were recorded. */
  meta: SceneMeta | null;
  frames: Float32Array[];
  /** Wall time of each frame, ms (from its header). */
  times: number[];
  /** Wall time of the run's start, ms. */
  start: number;
  /** Length of the run on the timeline, ms. */
  duration: number;
  events: TimelineEvent[];
  /** An evaluated case's replay: its pictures are the case's (getCaseImage). */
  evalCase?: RunReplay['evalCase'];
}

/** The gap given to trace records stamped in the same millisecond, ms. */
const TIE_MS = 0.001;

/** Events worth a mark on the timeline: approvals, failures and stops (the e-stop among them). */
export function isBookmark(e: TimelineEvent): boolean {
  return e.kind === 'approval' || e.kind === 'stop' || e.kind === 'error' || (e.kind === 'result' && e.ok === false);
}

/** The time of the trace record `dir` records after (or before) the one at `t`; undefined past either end. */
export function stepEvent(run: ReplayRun, t: number, dir: 1 | -1): number | undefined {
  const i = eventIndexAt(run, t);
  const j = i + dir;
  if (j < 0) return i >= 0 ? 0 : undefined;
  return run.events[j]?.t;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function short(v: unknown, max = 80): string {
  const t = typeof v === 'string' ? v : JSON.stringify(v ?? {});
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** One line of the trace as a timeline event, or undefined for lines the timeline does not show. */
function eventOf(r: TraceLineInfo, t: number): TimelineEvent | undefined {
  switch (r.type) {
    case 'message':
      if (r['prior'] || r['role'] === 'system' || r['role'] === 'tool') return undefined;
      if (r['role'] === 'user') return { t, kind: 'ask', label: short(r['content'], 120) };
      return str(r['content']) ? { t, kind: 'say', label: short(r['content'], 120) } : undefined;
    case 'tool_call':
      return { t, kind: 'call', label: `${str(r['name'])}(${short(r['arguments'], 100)})` };
    case 'tool_result': {
      const list = picturesOfRecord(r['images'], r['data']);
      return {
        t,
        kind: 'result',
        label: `${str(r['name'])}: ${short(r['result'] ?? r['error'], 140)}`,
        ok: Boolean(r['ok']),
        ...(list.length ? { pictures: { tool: str(r['name']), list } } : {}),
      };
    }
    case 'approval':
      return { t, kind: 'approval', label: `${str(r['tool'])} ${str(r['decision'])}${r['note'] ? `: ${str(r['note'])}` : ''}` };
    case 'stop':
      return { t, kind: 'stop', label: short(r['message'], 120) };
    case 'error':
      return { t, kind: 'error', label: short(r['message'], 120) };
    case 'final':
      return { t, kind: 'final', label: short(r['answer'], 160) };
    default:
      return undefined;
  }
}

export function loadReplay(r: RunReplay): ReplayRun {
  const frames = r.poses ? decodeFrames(r.poses.frames, r.poses.frameLength) : [];
  const times = frames.map((f) => readHeader(f).wallMs);
  // In time order (a record may be written after one stamped later); the sort is stable, so ties keep the file's order.
  const stamped = r.trace.records
    .map((x) => ({ x, t: Date.parse(str(x['t'])) }))
    .filter((y) => Number.isFinite(y.t))
    .sort((a, b) => a.t - b.t);
  const startedAt = Date.parse(str(r.trace.header['startedAt']) || r.run.startedAt);
  const candidates = [times[0], stamped[0]?.t, Number.isFinite(startedAt) ? startedAt : undefined].filter(
    (v): v is number => v !== undefined,
  );
  const start = candidates.length ? Math.min(...candidates) : 0;
  const end = Math.max(start, times.at(-1) ?? start, stamped.at(-1)?.t ?? start);
  const events: TimelineEvent[] = [];
  for (const { x, t } of stamped) {
    const e = eventOf(x, t - start);
    if (!e) continue;
    // The final answer is also the model's last message: say it once.
    const prev = events.at(-1);
    if (e.kind === 'final' && prev?.kind === 'say' && prev.label === e.label) events.pop();
    // Records stamped in the same millisecond get distinct times, so a step reaches each one.
    const last = events.at(-1);
    if (last && e.t <= last.t) e.t = last.t + TIE_MS;
    events.push(e);
  }
  const duration = Math.max(1, end - start, events.at(-1)?.t ?? 0);
  return {
    run: r.run,
    meta: r.poses?.meta ?? null,
    frames,
    times,
    start,
    duration,
    events,
    ...(r.evalCase ? { evalCase: r.evalCase } : {}),
  };
}

/** Index of the last frame at or before `t` (ms from the start); -1 before the first. */
export function frameIndexAt(run: ReplayRun, t: number): number {
  const wall = run.start + t;
  let lo = 0;
  let hi = run.times.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (run.times[mid]! <= wall) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** The poses at `t`: between the two recorded frames around it, positions eased linearly and rotations normalised. */
export function framesAt(run: ReplayRun, t: number): Float32Array | undefined {
  if (!run.frames.length || !run.meta) return undefined;
  const i = Math.max(0, frameIndexAt(run, t));
  const a = run.frames[i]!;
  const b = run.frames[i + 1];
  if (!b) return a;
  const ta = run.times[i]!;
  const tb = run.times[i + 1]!;
  const f = tb > ta ? Math.min(1, Math.max(0, (run.start + t - ta) / (tb - ta))) : 0;
  if (f <= 0) return a;
  const out = a.slice();
  const bodies = run.meta.stream.length;
  for (let k = 0; k < bodies; k++) {
    const o = poseOffset(k);
    for (let j = 0; j < 3; j++) out[o + j] = a[o + j]! + (b[o + j]! - a[o + j]!) * f;
    // Shortest way round: flip b's quaternion when it points away from a's.
    const dot = a[o + 3]! * b[o + 3]! + a[o + 4]! * b[o + 4]! + a[o + 5]! * b[o + 5]! + a[o + 6]! * b[o + 6]!;
    const s = dot < 0 ? -1 : 1;
    let n = 0;
    for (let j = 3; j < 7; j++) {
      out[o + j] = a[o + j]! + (s * b[o + j]! - a[o + j]!) * f;
      n += out[o + j]! * out[o + j]!;
    }
    n = Math.sqrt(n) || 1;
    for (let j = 3; j < 7; j++) out[o + j] = out[o + j]! / n;
  }
  return out;
}

/** Index of the last timeline event at or before `t`; -1 before the first. At the run's end, the last. */
export function eventIndexAt(run: ReplayRun, t: number): number {
  if (t >= run.duration) return run.events.length - 1;
  let last = -1;
  for (let i = 0; i < run.events.length; i++) if (run.events[i]!.t <= t) last = i;
  return last;
}

/** Where a body is at `t` (for tests and the probe). */
export function bodyAt(run: ReplayRun, id: string, t: number): [number, number, number] | null {
  const f = framesAt(run, t);
  const idx = run.meta?.stream.indexOf(id) ?? -1;
  if (!f || idx < 0) return null;
  const o = poseOffset(idx);
  return [f[o]!, f[o + 1]!, f[o + 2]!];
}
