// One strict parse per reading the robot publishes: the e-stop, the battery,
// the robot's pose and what it sees each become a Reading (base/reading.ts),
// known or unknown with why. Nothing is coerced: a missing or renamed field, a
// mistyped value, null (rosbridge's NaN and ±Inf) or a non-unit quaternion is
// unknown, never `false`, `0` or the map origin. `at` is the arrival time here;
// ./topic-reader.ts moves it back by the message's stamp and judges its age.
import { type Reading, bool, describe, field, finite, known, unknown } from '../../base/reading';
import type { RosPoint } from './frames';
import { quaternionYawDeg } from './frames';

/**
 * Like base/reading's `field`, where a part that is a whole number
 * ("results.0.hypothesis.class_id") indexes an array: an element past the end
 * is unknown, naming the path and the array's length.
 */
export function element(msg: unknown, path: string, at: number, nullMeans = ''): Reading<unknown> {
  const parts = path.split('.');
  let v: unknown = msg;
  const seen: string[] = [];
  for (const p of parts) {
    const here = [...seen, p].join('.');
    if (Array.isArray(v)) {
      if (!/^\d+$/.test(p)) return unknown(`\`${seen.join('.') || '(message)'}\` is an array: \`${p}\` is not an index`);
      const i = Number(p);
      if (i >= v.length) return unknown(`\`${here}\` is absent (the array has ${v.length} element${v.length === 1 ? '' : 's'})`);
      v = v[i];
    } else if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, p)) {
      return unknown(`the message has no field \`${here}\``);
    } else v = (v as Record<string, unknown>)[p];
    seen.push(p);
  }
  if (v === undefined || v === null) return unknown(`\`${path}\` is ${v === null ? `null${nullMeans}` : 'absent'}`);
  return known(v, at);
}

/** A string and nothing else: a number or null is unknown, never turned into text. */
export function text(r: Reading<unknown>, what: string): Reading<string> {
  if (!r.known) return r;
  return typeof r.value === 'string' ? known(r.value, r.at) : unknown(`${what} is not a string (${describe(r.value)})`);
}

const NAN = ' (NaN or ±Inf on the robot: rosbridge sends them as null)';

/** A finite number at `path`. */
export function readNumber(msg: unknown, path: string, at: number): Reading<number> {
  return finite(element(msg, path, at, NAN), `\`${path}\``);
}

/** The e-stop: the boolean at `path` (true = pressed), nothing else. */
export function readEstop(msg: unknown, path: string, at: number): Reading<boolean> {
  return bool(element(msg, path, at), `\`${path}\``);
}

export interface Battery {
  /** 0…100, unrounded: the critical level is compared with what the robot said. */
  percent: number;
  charging: boolean;
}

/** sensor_msgs/BatteryState: `percentage` a finite number within 0…1 (NaN, sent as null, is unknown); power_supply_status 1 = charging. */
export function readBattery(msg: unknown, at: number): Reading<Battery> {
  const p = readNumber(msg, 'percentage', at);
  if (!p.known) return p;
  if (p.value < 0 || p.value > 1) return unknown(`\`percentage\` is ${p.value}, outside 0…1 (sensor_msgs/BatteryState gives a fraction)`);
  const s = readNumber(msg, 'power_supply_status', at);
  if (!s.known) return s;
  return known({ percent: p.value * 100, charging: s.value === 1 }, at);
}

/** sensor_msgs/JointState: `name` and `position` of one length, every position finite (NaN, sent as null, is unknown). */
export function readJointStates(msg: unknown, at: number): Reading<ReadonlyMap<string, number>> {
  const names = field(msg, 'name', at);
  const values = field(msg, 'position', at);
  if (!names.known) return names;
  if (!values.known) return values;
  const n = names.value;
  const v = values.value;
  if (!Array.isArray(n) || !n.every((x) => typeof x === 'string')) return unknown('`name` is not an array of strings');
  if (!Array.isArray(v)) return unknown('`position` is not an array');
  if (v.length !== n.length) return unknown(`\`position\` has ${v.length} values for ${n.length} names`);
  const out = new Map<string, number>();
  for (const [i, x] of v.entries()) {
    if (typeof x !== 'number' || !Number.isFinite(x)) return unknown(`\`position[${i}]\` (${String(n[i])}) is not a finite number`);
    out.set(n[i] as string, x);
  }
  return known(out, at);
}

/** Three finite numbers x, y, z at `path`. */
export function readPoint(msg: unknown, path: string, at: number): Reading<RosPoint> {
  const out: Partial<RosPoint> = {};
  for (const k of ['x', 'y', 'z'] as const) {
    const r = readNumber(msg, `${path}.${k}`, at);
    if (!r.known) return r;
    out[k] = r.value;
  }
  return known(out as RosPoint, at);
}

export interface RosPose {
  position: RosPoint;
  yawDeg: number;
}

/** A geometry_msgs/Pose at `path`: a finite position and a unit quaternion (an all-zero or NaN orientation is unknown, not "facing +x"). */
export function readPose(msg: unknown, path: string, at: number): Reading<RosPose> {
  const position = readPoint(msg, `${path}.position`, at);
  if (!position.known) return position;
  const q: Record<string, number> = {};
  for (const k of ['x', 'y', 'z', 'w']) {
    const r = readNumber(msg, `${path}.orientation.${k}`, at);
    if (!r.known) return r;
    q[k] = r.value;
  }
  const norm = Math.hypot(q['x']!, q['y']!, q['z']!, q['w']!);
  if (Math.abs(norm - 1) > 0.01)
    return unknown(`\`${path}.orientation\` is not a unit quaternion (its length is ${Math.round(norm * 1000) / 1000})`);
  return known({ position: position.value, yawDeg: quaternionYawDeg(q as { x: number; y: number; z: number; w: number }) }, at);
}

export interface DetectionPaths {
  items: string;
  id: string;
  name?: string | undefined;
  category?: string | undefined;
  position: string;
}

export interface RosDetection {
  id: string;
  name: string;
  category: string;
  /** ROS frame. */
  position: RosPoint;
}

/**
 * Every item of the detection array, each with a readable id, position (and
 * name and category when mapped). One unreadable item makes the whole message
 * unknown, naming the item and the field: leaving it out would read as "not
 * seen", which is a default too.
 */
export function readDetections(msg: unknown, d: DetectionPaths, at: number): Reading<RosDetection[]> {
  const items = element(msg, d.items, at);
  if (!items.known) return items;
  if (!Array.isArray(items.value)) return unknown(`\`${d.items}\` is not an array (${describe(items.value)})`);
  const out: RosDetection[] = [];
  for (const [i, it] of items.value.entries()) {
    const bad = (r: { why: string }) => unknown(`${d.items}[${i}]: ${r.why}`);
    const id = text(element(it, d.id, at), `\`${d.id}\``);
    if (!id.known) return bad(id);
    const position = readPoint(it, d.position, at);
    if (!position.known) return bad(position);
    const name = d.name ? text(element(it, d.name, at), `\`${d.name}\``) : known(id.value.replace(/_\d+$/, ''), at);
    if (!name.known) return bad(name);
    const category = d.category ? text(element(it, d.category, at), `\`${d.category}\``) : known('object', at);
    if (!category.known) return bad(category);
    out.push({ id: id.value, name: name.value, category: category.value, position: position.value });
  }
  return known(out, at);
}
