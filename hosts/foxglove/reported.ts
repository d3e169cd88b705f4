// The MCAP export of a run on a real robot (recorded with --robot): there is no
// scene to rebuild, so nothing is simulated. The poses are the ones the robot
// reported, as recorded in the trace's tool results — every {id, position: [x,y,z]}
// (world frame, Y up) under the `reported` frame, and every {position: {x,y,z}}
// (the tools' robot base frame, REP 103) under `reported/base_link`, named by
// the call's argument — so a viewer never mistakes them for a simulation. The
// base frame is not tied to the world: where the base stood is only known where
// the robot reported it. Every record goes to /trace and /log.
import type { ReadTrace } from '../../agents/runtime/trace';
import { LOG, WORLD_FRAME, Y_UP_TO_Z_UP, logMessage, timeOf } from './messages';
import { describeRecord } from './replay';
import type { PublishPictures } from './pictures';
import type { Publish } from './topics';

/** The frame reported poses hang from (the robot's world frame, Y up). */
export const REPORTED_FRAME = 'reported';
/** The frame of positions the tools give in the robot's base frame (x forward, y left, z up). */
export const REPORTED_BASE_FRAME = 'reported/base_link';

export interface ReportedSummary {
  robot: string;
  records: number;
  /** Pose messages written (one per tool result that reported positions). */
  poses: number;
  /** The things whose positions the robot reported. */
  things: string[];
}

const MS = 1_000_000n;

/** A trace recorded against a real robot: its header names a robot URL, not a scene. */
export function isRobotTrace(t: ReadTrace): boolean {
  return /^(https?|wss?):\/\//i.test(t.header.scene ?? '');
}

type Vec3 = [number, number, number];
const isVec3 = (v: unknown): v is Vec3 => Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x));

/** Every {id|name, position} in a tool result's data, by id. */
export function reportedPositions(data: unknown, out = new Map<string, Vec3>(), depth = 0): Map<string, Vec3> {
  if (depth > 8 || !data || typeof data !== 'object') return out;
  if (Array.isArray(data)) {
    for (const d of data) reportedPositions(d, out, depth + 1);
    return out;
  }
  const o = data as Record<string, unknown>;
  const id = typeof o['id'] === 'string' ? o['id'] : typeof o['name'] === 'string' ? o['name'] : undefined;
  if (id && isVec3(o['position'])) out.set(id, o['position']);
  for (const [k, v] of Object.entries(o)) if (k !== 'position') reportedPositions(v, out, depth + 1);
  return out;
}

type XYZ = { x: number; y: number; z: number };
const isXYZ = (v: unknown): v is XYZ =>
  !!v && typeof v === 'object' && ['x', 'y', 'z'].every((k) => Number.isFinite((v as Record<string, unknown>)[k]));

/** What a call was about: its name-like argument. */
function subjectOf(raw: unknown, fallback: string): string {
  let args = raw;
  if (typeof raw === 'string') {
    try {
      args = JSON.parse(raw) as unknown;
    } catch {
      args = undefined;
    }
  }
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  for (const k of ['name', 'object_name', 'object', 'target', 'id']) if (typeof a[k] === 'string' && a[k]) return a[k];
  return fallback;
}

export async function exportReported(traces: readonly ReadTrace[], publish: Publish, pictures?: PublishPictures): Promise<ReportedSummary> {
  const header = traces[0]!.header;
  const summary: ReportedSummary = { robot: header.scene ?? '', records: 0, poses: 0, things: [] };
  const things = new Set<string>();
  let clock = BigInt(Date.parse(header.startedAt) || Date.now()) * MS;
  const note = async (text: string) => publish('log', clock, logMessage(LOG.INFO, 'export', text, timeOf(clock)));
  await note(`poses as reported by the robot at ${summary.robot} (recorded in the trace), not simulated`);
  for (const [ti, trace] of traces.entries()) {
    await publish('header', clock, trace.header);
    const calls = new Map(trace.records.flatMap((r) => (r.type === 'tool_call' ? [[r.id, r.arguments] as const] : [])));
    for (const r of trace.records) {
      const at = BigInt(Date.parse(r.t) || 0) * MS;
      if (at > clock) clock = at;
      const t = timeOf(clock);
      const d = describeRecord(r);
      await publish('trace', clock, r);
      await publish('log', clock, logMessage(d.level, r.stage ?? 'agent', d.text, t));
      summary.records++;
      if (r.type !== 'tool_result') continue;
      if (r.images?.length) await pictures?.(ti, r, clock);
      const seen = reportedPositions(r.data);
      const local = r.data && typeof r.data === 'object' ? (r.data as Record<string, unknown>)['position'] : undefined;
      if (!seen.size && !isXYZ(local)) continue;
      const none = { x: 0, y: 0, z: 0, w: 1 };
      const transforms = [
        ...(isXYZ(local)
          ? [
              (() => {
                const id = subjectOf(calls.get(r.id), r.name);
                things.add(id);
                return {
                  timestamp: t,
                  parent_frame_id: REPORTED_BASE_FRAME,
                  child_frame_id: `${REPORTED_BASE_FRAME}/${id}`,
                  translation: { x: local.x, y: local.y, z: local.z },
                  rotation: none,
                };
              })(),
            ]
          : []),
        ...(seen.size
          ? [
              {
                timestamp: t,
                parent_frame_id: WORLD_FRAME,
                child_frame_id: REPORTED_FRAME,
                translation: { x: 0, y: 0, z: 0 },
                rotation: Y_UP_TO_Z_UP,
              },
            ]
          : []),
        ...[...seen].map(([id, p]) => {
          things.add(id);
          return {
            timestamp: t,
            parent_frame_id: REPORTED_FRAME,
            child_frame_id: `${REPORTED_FRAME}/${id}`,
            translation: { x: p[0], y: p[1], z: p[2] },
            rotation: none,
          };
        }),
      ];
      await publish('tf', clock, { transforms });
      summary.poses++;
    }
  }
  summary.things = [...things].sort();
  await note(`${summary.records} records; ${summary.poses} reported pose sets of ${summary.things.length} things; nothing replayed`);
  return summary;
}
