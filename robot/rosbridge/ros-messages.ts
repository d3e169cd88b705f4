// The values a skill call fills a mapping's message templates with: the
// call's arguments, `$pose` as a full geometry_msgs/PoseStamped (header with
// the mapping's frame and a stamp, a unit quaternion), `$point` as a
// geometry_msgs/Point, `$target` the object's id (empty for a point; a point's
// readable label is `$label`). Numbers stay numbers.
import type { Outcome, Vec3Tuple } from '../robot';
import type { SkillCall } from '../skills';
import { dig } from './connection';
import { type RosPoint, fromRos, toRos, yawQuaternion } from './frames';
import type { Mapping } from './mapping';

type Msg = Record<string, unknown>;

/** Replaces "$name" and "$a.b" strings in a message template with the call's values. */
export function fill(template: unknown, values: Msg): unknown {
  if (typeof template === 'string' && template.startsWith('$')) return dig(values, template.slice(1));
  if (Array.isArray(template)) return template.map((t) => fill(t, values));
  if (template && typeof template === 'object') return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fill(v, values)]));
  return template;
}

/** "{path}" in a text, from a message. */
export function say(text: string, msg: unknown): string {
  return text.replace(/\{([\w.]+)\}/g, (_m, p: string) => {
    const v = dig(msg, p);
    return typeof v === 'number' ? String(Math.round(v * 100) / 100) : v === undefined ? '?' : String(v);
  });
}

/**
 * A geometry_msgs/PoseStamped in `frame`. The stamp is zero: "the latest
 * transform" to tf, since this computer's clock is not the robot's.
 */
export function poseStamped(p: Vec3Tuple, yawDeg: number, frame: string, ros: 1 | 2): Msg {
  const stamp = ros === 1 ? { secs: 0, nsecs: 0 } : { sec: 0, nanosec: 0 };
  return {
    header: { ...(ros === 1 ? { seq: 0 } : {}), stamp, frame_id: frame },
    pose: { position: toRos(p), orientation: yawQuaternion(Number.isFinite(yawDeg) ? yawDeg : 0) },
  };
}

export interface Where {
  /** Where a detected object or mapped place is (world frame), or undefined when not known. */
  position(id: string): Promise<Vec3Tuple | undefined>;
}

/** The template values for one call, or a refusal naming what is missing. */
export async function skillValues(call: SkillCall, m: Mapping, where: Where): Promise<Msg | Outcome> {
  const v: Msg = { ...call.args, frame: m.frame };
  const stamped = (p: Vec3Tuple, yawDeg = 0) => poseStamped(p, yawDeg, m.frame, m.ros);
  if (call.skill === 'base.navigate' || call.skill === 'base.approach') {
    const name = call.skill === 'base.navigate' ? call.args.place : call.args.target;
    const place = m.places.find((p) => p.id === name);
    if (!place)
      return {
        ok: false,
        code: 'invalid_argument',
        summary: `no place "${name}" in the mapping; places: ${m.places.map((p) => p.id).join(', ') || 'none'}`,
      };
    v['pose'] = stamped(fromRos(place), place.yawDeg);
  }
  if (call.skill === 'arm.place') {
    const t = call.args.target;
    if (t.kind === 'point') {
      v['point'] = toRos(t.position);
      v['pose'] = stamped(t.position);
      v['target'] = '';
      v['label'] = t.label ?? '';
    } else {
      const p = await where.position(t.id);
      if (!p)
        return {
          ok: false,
          code: 'not_perceived',
          summary: `arm.place was not sent: where ${t.id} is is not known (not detected now, not a mapped place)`,
        };
      v['target'] = t.id;
      v['label'] = t.id;
      v['relation'] = t.relation ?? 'on';
      v['point'] = toRos(p) satisfies RosPoint;
      v['pose'] = stamped(p);
    }
  }
  if (call.skill === 'arm.moveTool') {
    v['point'] = toRos(call.args.pose.position);
    v['pose'] = stamped(call.args.pose.position);
    v['tiltDeg'] = call.args.pose.tiltDeg;
  }
  return v;
}
