// What a rosbridge robot perceives: the latest message on the mapped detection
// topic (positions crossed into Skillbridge's frame once) and its own pose,
// each as it stands now (./topic-reader.ts). Nothing not known reads as fine:
// a query before the first message, on an unreadable one (null, NaN, a field
// missing), on a replay or a stale one says so and why, never "none" or "at
// the origin".
import type { Detection, Perception, RobotInfo, Vec3Tuple } from '../robot';
import { RosbridgeError } from './connection';
import { fromRos } from './frames';
import type { Mapping } from './mapping';
import type { RosDetection, RosPose } from './readings';
import type { Current } from './topic-reader';

/** The parts of the robot's state perception reads. */
export interface RosView {
  readonly info: RobotInfo;
  readonly mapping: Mapping;
  detections(): Current<RosDetection[]>;
  /** The pose as it stands (unknown after the robot's position became unknown, until a pose arrives). */
  pose(): Current<RosPose>;
  held(): { known: true; id: string | undefined } | { known: false; why: string };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Where the robot stands: from the pose topic. Without one mapped, a fixed
 * arm stands at the map frame's origin (its mapping's frame is its base);
 * anything that moves has no known position.
 */
function here(v: RosView): { position: Vec3Tuple; yawDeg: number } {
  if (!v.mapping.pose) {
    if (v.mapping.robot.kind === 'fixed_arm') return { position: [0, 0, 0], yawDeg: 0 };
    throw new RosbridgeError(`the robot's position is unknown: no pose topic is mapped for this ${v.mapping.robot.kind} (map "pose")`);
  }
  const c = v.pose();
  if (!c.reading.known)
    throw new RosbridgeError(`the robot's position is ${c.freshness === 'stale' ? 'stale' : 'unknown'}: ${c.reading.why}`);
  const p = c.reading.value;
  return { position: fromRos(p.position).map(round) as Vec3Tuple, yawDeg: round(p.yawDeg) };
}

/** What the robot sees now, or a staleness note; throws when unknown (never received, unreadable, a replay). */
function current(v: RosView): { items: Detection[]; stale?: string } {
  const d = v.mapping.detections;
  if (!d) throw new RosbridgeError('what the robot sees is unknown: no detections topic is mapped for this robot');
  const c = v.detections();
  if (!c.reading.known) {
    if (c.freshness === 'stale') return { items: [], stale: c.reading.why };
    throw new RosbridgeError(`what the robot sees is unknown: ${c.reading.why}`);
  }
  let me: Vec3Tuple | undefined;
  try {
    me = here(v).position;
  } catch {
    me = undefined;
  }
  return {
    items: c.reading.value.map((it): Detection => {
      const position = fromRos(it.position).map(round) as Vec3Tuple;
      return { id: it.id, name: it.name, category: it.category, distanceM: me ? round(dist(position, me)) : Number.NaN, position };
    }),
  };
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
    basePose: async () => here(v),
  };
}

function dist(a: Vec3Tuple, b: Vec3Tuple): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
