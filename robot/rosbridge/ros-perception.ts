// What a rosbridge robot perceives: the latest message on the mapped detection
// topic (positions crossed into Skillbridge's frame once) and its own pose.
import type { Detection, Perception, RobotInfo, Vec3Tuple } from '../robot';
import { RosbridgeError, dig } from './connection';
import { type RosPoint, fromRos } from './frames';
import type { Mapping } from './mapping';

/** The parts of the robot's state perception reads. */
export interface RosView {
  readonly info: RobotInfo;
  readonly mapping: Mapping;
  detections(): Record<string, unknown> | undefined;
  pose(): RosPoint | undefined;
  yawDeg(): number;
  held(): string | undefined;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Where the robot stands; without a pose topic, at the map frame's origin. */
function here(v: RosView): Vec3Tuple {
  const p = v.pose();
  return p ? fromRos(p) : [0, 0, 0];
}

function seen(v: RosView): Detection[] {
  const d = v.mapping.detections;
  const msg = v.detections();
  const items = d && msg ? dig(msg, d.items) : undefined;
  if (!d || !Array.isArray(items)) return [];
  const pose = v.pose();
  const here = pose ? fromRos(pose) : undefined;
  return items.flatMap((it): Detection[] => {
    const id = dig(it, d.id);
    const p = dig(it, d.position) as RosPoint | undefined;
    if (typeof id !== 'string' || !p || ![p.x, p.y, p.z].every(Number.isFinite)) return [];
    const position = fromRos(p).map(round) as Vec3Tuple;
    const name = d.name ? String(dig(it, d.name) ?? id) : id.replace(/_\d+$/, '');
    const category = d.category ? String(dig(it, d.category) ?? 'object') : 'object';
    return [{ id, name, category, distanceM: round(dist(position, here ?? [0, 0, 0])), position }];
  });
}

function where(v: RosView, id: string): Vec3Tuple | undefined {
  return seen(v).find((d) => d.id === id)?.position ?? v.info.places.find((p) => p.id === id)?.position;
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
      const pool = [
        ...seen(v).map((d) => ({ id: d.id, name: d.name, kind: 'object' as const })),
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
        message: `the robot sees nothing called "${name}"; it sees: ${pool.map((p) => p.id).join(', ') || 'nothing'}`,
        candidates: [],
      };
    },
    detect: async () => seen(v),
    distanceTo: async (id) => round(dist(need(id), here(v))),
    distanceBetween: async (a, b) => round(dist(need(a), need(b))),
    objectState: async () => ({}),
    objectProperties: async (id) => ({ category: seen(v).find((d) => d.id === id)?.category ?? 'unknown' }),
    holding: async () => v.held(),
    related: async () => {
      throw new RosbridgeError('relations between objects are not available from this robot (no scene graph is mapped)');
    },
    relations: () => [],
    snapshot: async () => [...seen(v).map((d) => `visible(${d.id})`), ...(v.held() ? [`holding(${v.held()})`] : [])],
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
    basePose: async () => ({
      position: here(v).map(round) as Vec3Tuple,
      yawDeg: round(v.yawDeg()),
    }),
  };
}

function dist(a: Vec3Tuple, b: Vec3Tuple): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
