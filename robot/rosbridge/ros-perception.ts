// What a rosbridge robot perceives: the latest message on the mapped detection
// topic (positions crossed into Skillbridge's frame once) and its own pose.
// Nothing not received reads as fine: before the first message a query says
// "not received yet" (never "none"); while the link is down, or before the
// first message after a reconnect, it says the reading is stale and how old.
import type { Detection, Perception, RobotInfo, Vec3Tuple } from '../robot';
import { RosbridgeError, dig } from './connection';
import { type RosPoint, fromRos } from './frames';
import type { Mapping } from './mapping';
import { type Link, type Reading, freshness, staleness } from './safety-state';

type Msg = Record<string, unknown>;

/** The parts of the robot's state perception reads. */
export interface RosView {
  readonly info: RobotInfo;
  readonly mapping: Mapping;
  detections(): Reading<Msg> | undefined;
  /** The latest pose still believed (none after the robot's position became unknown). */
  pose(): Reading<{ position: RosPoint; yawDeg: number }> | undefined;
  poseUnknown(): boolean;
  held(): { known: true; id: string | undefined } | { known: false; why: string };
  clock(): { epoch: number; link: Link; now: number };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Where the robot stands: from the pose topic; without one mapped, at the map frame's origin. */
function here(v: RosView): { position: Vec3Tuple; yawDeg: number } {
  const p = v.mapping.pose;
  if (!p) return { position: [0, 0, 0], yawDeg: 0 };
  const r = v.pose();
  if (!r)
    throw new RosbridgeError(
      v.poseUnknown()
        ? `the robot's position is unknown since a goal ended without confirmation; no pose received on ${p.topic} since`
        : `the robot's position is not received yet (no message on ${p.topic})`,
    );
  const c = v.clock();
  if (freshness(r, c) !== 'fresh') throw new RosbridgeError(`the robot's position is stale: ${staleness(r, c)}`);
  return { position: fromRos(r.value.position).map(round) as Vec3Tuple, yawDeg: round(r.value.yawDeg) };
}

/** What the robot sees now, with a staleness note when the reading is not current; throws when never received. */
function current(v: RosView): { items: Detection[]; stale?: string } {
  const d = v.mapping.detections;
  if (!d) throw new RosbridgeError('what the robot sees is unknown: no detections topic is mapped for this robot');
  const r = v.detections();
  if (!r) throw new RosbridgeError(`detections not received yet (no message on ${d.topic})`);
  const items = dig(r.value, d.items);
  if (!Array.isArray(items)) throw new RosbridgeError(`detections unreadable: ${d.topic} has no array at "${d.items}"`);
  let me: Vec3Tuple | undefined;
  try {
    me = here(v).position;
  } catch {
    me = undefined;
  }
  const seen = items.flatMap((it): Detection[] => {
    const id = dig(it, d.id);
    const p = dig(it, d.position) as RosPoint | undefined;
    if (typeof id !== 'string' || !p || ![p.x, p.y, p.z].every(Number.isFinite)) return [];
    const position = fromRos(p).map(round) as Vec3Tuple;
    const name = d.name ? String(dig(it, d.name) ?? id) : id.replace(/_\d+$/, '');
    const category = d.category ? String(dig(it, d.category) ?? 'object') : 'object';
    return [{ id, name, category, distanceM: me ? round(dist(position, me)) : Number.NaN, position }];
  });
  const c = v.clock();
  return freshness(r, c) === 'fresh' ? { items: seen } : { items: seen, stale: staleness(r, c) };
}

/** Current detections; a stale reading is an error that says how old it is. */
function fresh(v: RosView): Detection[] {
  const c = current(v);
  if (c.stale) throw new RosbridgeError(`detections are stale: ${c.stale}`);
  return c.items;
}

/** Where a detected object or mapped place is (world frame), or undefined when not known now. */
export async function whereIs(p: Perception, id: string): Promise<Vec3Tuple | undefined> {
  return (await p.pose(id).catch(() => undefined))?.position;
}

function where(v: RosView, id: string): Vec3Tuple | undefined {
  const place = v.info.places.find((p) => p.id === id)?.position;
  if (place) return place;
  return fresh(v).find((d) => d.id === id)?.position;
}

/** What the robot perceives, read from the latest detection and pose messages. */
export function rosPerception(v: RosView): Perception {
  const need = (id: string): Vec3Tuple => {
    const p = where(v, id);
    if (!p) throw new RosbridgeError(`"${id}" is neither detected now nor a mapped place`);
    return p;
  };
  return {
    resolve: async (name) => {
      const n = name.trim().toLowerCase().replace(/\s+/g, '_');
      let unseen = '';
      let seen: Detection[] = [];
      try {
        seen = fresh(v);
      } catch (e) {
        unseen = `; what it sees is unknown (${(e as Error).message})`;
      }
      const pool = [
        ...seen.map((d) => ({ id: d.id, name: d.name, kind: 'object' as const })),
        ...v.info.places.map((p) => ({ id: p.id, name: p.id, kind: 'location' as const })),
      ];
      const hits = pool.filter((x) => x.id.toLowerCase() === n || x.name.toLowerCase() === n);
      if (hits.length === 1) return { ok: true, id: hits[0]!.id, kind: hits[0]!.kind };
      if (hits.length > 1)
        return {
          ok: false,
          reason: 'ambiguous',
          message: `"${name}" could mean ${hits.map((h) => h.id).join(' or ')}`,
          candidates: hits.map((h) => h.id),
        };
      return {
        ok: false,
        reason: 'unknown',
        message: `the robot knows nothing called "${name}"; it knows: ${pool.map((p) => p.id).join(', ') || 'nothing'}${unseen}`,
        candidates: [],
      };
    },
    detect: async () => fresh(v),
    distanceTo: async (id) => round(dist(need(id), here(v).position)),
    distanceBetween: async (a, b) => round(dist(need(a), need(b))),
    objectState: async () => ({}),
    objectProperties: async (id) => ({ category: fresh(v).find((d) => d.id === id)?.category ?? 'unknown' }),
    holding: async () => {
      const h = v.held();
      if (!h.known) throw new RosbridgeError(`what the hand holds is unknown: ${h.why}`);
      return h.id;
    },
    related: async () => {
      throw new RosbridgeError('relations between objects are not available from this robot (no scene graph is mapped)');
    },
    relations: () => [],
    snapshot: async () => {
      const c = current(v);
      const h = v.held();
      return [
        ...(c.stale ? [`stale(detections): ${c.stale}`] : []),
        ...c.items.map((d) => `visible(${d.id})`),
        ...(h.known ? (h.id ? [`holding(${h.id})`] : []) : [`unknown(holding): ${h.why}`]),
      ];
    },
    pose: async (id) => {
      const p = where(v, id);
      const place = v.mapping.places.find((x) => x.id === id);
      return p ? { position: p, yawDeg: place?.yawDeg ?? 0 } : undefined;
    },
    referencePoint: async (name) => {
      const r = v.info.referencePositions.find((x) => x.id === name);
      return r ? { position: r.position, label: r.id } : undefined;
    },
    // Without a pose topic the robot is taken to stand at the map frame's origin, facing +x.
    basePose: async () => here(v),
  };
}

function dist(a: Vec3Tuple, b: Vec3Tuple): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
