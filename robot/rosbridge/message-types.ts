// What a message type is made of, as the robot's own rosapi describes it, and
// whether a mapping's path names a field of it. Two descriptions are read:
// /rosapi/message_details (rosapi/TypeDef[]: ROS 1's field names as written,
// ROS 2's as its Python slots, "_data") and, where that fails (rosapi 2.x on
// Iron and later lists rosidl's `_check_fields` slot and errs), the
// definition text of /rosapi/topics_and_raw_types (gendeps --cat on ROS 1, the
// .msg files on ROS 2). Both become one table: type → fields.
import { z } from 'zod';

export interface FieldDef {
  name: string;
  /** "pkg/Name" (no /msg/), or a primitive: bool, float64, string, time… */
  type: string;
  array: boolean;
}

/** Type ("pkg/Name") → its fields. */
export type MessageDefs = ReadonlyMap<string, readonly FieldDef[]>;

export const bareType = (t: string): string => t.replace(/\/(msg|srv|action)\//, '/');

const BOOL = new Set(['bool', 'boolean']);
const NUMBER = new Set([
  'byte',
  'char',
  'octet',
  'int8',
  'uint8',
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'uint64',
  'float32',
  'float64',
  'float',
  'double',
]);
const isString = (t: string) => /^w?string(<=\d+)?$/.test(t);
const TIME = new Set(['time', 'duration']);
const isPrimitive = (t: string) => BOOL.has(t) || NUMBER.has(t) || isString(t);

const TypeDefs = z.object({
  typedefs: z.array(
    z.object({ type: z.string(), fieldnames: z.array(z.string()), fieldtypes: z.array(z.string()), fieldarraylen: z.array(z.number()) }),
  ),
});

/** rosapi's MessageDetails answer as a table; undefined when it is not one, or does not describe `root`. */
export function fromTypedefs(answer: unknown, root: string): MessageDefs | undefined {
  const r = TypeDefs.safeParse(answer);
  if (!r.success) return undefined;
  const defs = new Map<string, FieldDef[]>();
  for (const t of r.data.typedefs) {
    if (t.fieldnames.length !== t.fieldtypes.length) return undefined;
    defs.set(
      bareType(t.type),
      t.fieldnames.map((n, i) => ({
        // ROS 2's rosapi names a field by its Python slot ("_data"); a ROS field name never starts with "_".
        name: n.replace(/^_/, ''),
        type: normalise(t.fieldtypes[i]!),
        array: (t.fieldarraylen[i] ?? -1) >= 0,
      })),
    );
  }
  return defs.has(bareType(root)) ? defs : undefined;
}

function normalise(t: string): string {
  const inner = /^sequence<([^,>]+)/.exec(t)?.[1] ?? t;
  return isString(inner) ? 'string' : bareType(inner.trim());
}

/**
 * A full definition text (the root's fields, then "MSG: pkg/Name" sections
 * after lines of "=") as a table. Types without a package are the section's
 * package (ROS 1's `Header` is std_msgs/Header); constants and comments are skipped.
 */
export function fromFullText(text: string, root: string): MessageDefs | undefined {
  const defs = new Map<string, FieldDef[]>();
  const sections = text.split(/^=+\s*$/m);
  for (const [i, sec] of sections.entries()) {
    const lines = sec.split('\n');
    let type = bareType(root);
    if (i > 0) {
      const head = lines.findIndex((l) => /^MSG:\s*\S+/.test(l.trim()));
      if (head < 0) continue;
      type = bareType(lines[head]!.trim().replace(/^MSG:\s*/, ''));
      lines.splice(0, head + 1);
    }
    const pkg = type.split('/')[0]!;
    const fields: FieldDef[] = [];
    for (const raw of lines) {
      const line = raw.trim();
      if (!line || line.startsWith('#')) continue;
      const m = /^([A-Za-z][\w/]*(?:<=\d+)?)(\[(?:<=)?\d*\])?\s+([A-Za-z]\w*)\s*(=)?/.exec(line);
      if (!m) return undefined;
      if (m[4]) continue; // a constant
      const t = m[1]!;
      // A message type's name is CamelCase: anything else is not a definition line.
      if (!isPrimitive(t) && !TIME.has(t) && !/^[A-Z]/.test(t.split('/').at(-1)!)) return undefined;
      const full = isPrimitive(t) || TIME.has(t) ? t : t === 'Header' ? 'std_msgs/Header' : t.includes('/') ? bareType(t) : `${pkg}/${t}`;
      fields.push({ name: m[3]!, type: isString(full) ? 'string' : full, array: m[2] !== undefined });
    }
    defs.set(type, fields);
  }
  return defs.has(bareType(root)) ? defs : undefined;
}

/** What a mapped path must lead to. */
export type Want = 'bool' | 'number' | 'string' | 'point' | 'pose';

interface At {
  type: string;
  array: boolean;
}

/** Follows `path` from `root`; a part after an array field must be an index. */
function walk(defs: MessageDefs, root: string, path: string): At | string {
  let cur: At = { type: bareType(root), array: false };
  const seen: string[] = [];
  for (const p of path.split('.')) {
    if (cur.array) {
      if (!/^\d+$/.test(p)) return `\`${seen.join('.')}\` is an array of ${cur.type}: \`${p}\` must be an index such as 0`;
      cur = { type: cur.type, array: false };
    } else {
      const fields = defs.get(cur.type) ?? (TIME.has(cur.type) ? timeFields : undefined);
      if (!fields)
        return isPrimitive(cur.type)
          ? `\`${seen.join('.')}\` is a ${cur.type}: it has no field \`${p}\``
          : `the robot did not describe ${cur.type}`;
      const f = fields.find((x) => x.name === p);
      if (!f)
        return `${seen.length ? `\`${seen.join('.')}\` (${cur.type})` : cur.type} has no field \`${p}\`; its fields: ${fields.map((x) => x.name).join(', ') || 'none'}`;
      cur = { type: f.type, array: f.array };
    }
    seen.push(p);
  }
  return cur;
}

const timeFields: FieldDef[] = [
  { name: 'secs', type: 'int32', array: false },
  { name: 'nsecs', type: 'int32', array: false },
];

function fieldsOf(defs: MessageDefs, type: string): readonly FieldDef[] {
  return defs.get(type) ?? [];
}

/** Whether `type` has numeric fields `names` (a Point's x, y, z). */
function hasNumbers(defs: MessageDefs, type: string, names: string[]): boolean {
  const f = fieldsOf(defs, type);
  return names.every((n) => f.some((x) => x.name === n && !x.array && NUMBER.has(x.type)));
}

/** The item type of the array of messages at `path`, or why there is none. */
export function arrayItem(defs: MessageDefs, root: string, path: string): { item: string } | string {
  const at = walk(defs, root, path);
  if (typeof at === 'string') return at;
  return at.array && !isPrimitive(at.type) && !TIME.has(at.type)
    ? { item: at.type }
    : `\`${path}\` is ${describeAt(at)}, not an array of messages`;
}

const describeAt = (at: At) => (at.array ? `an array of ${at.type}` : `a ${at.type}`);

/** Why `path` in `root` does not lead to what `want` asks, or undefined when it does. */
export function checkPath(defs: MessageDefs, root: string, path: string, want: Want): string | undefined {
  const at = walk(defs, root, path);
  if (typeof at === 'string') return at;
  const is = `\`${path}\` is ${describeAt(at)}`;
  switch (want) {
    case 'bool':
      return !at.array && BOOL.has(at.type) ? undefined : `${is}, not a bool`;
    case 'number':
      return !at.array && NUMBER.has(at.type) ? undefined : `${is}, not a number`;
    case 'string':
      return !at.array && at.type === 'string' ? undefined : `${is}, not a string`;
    case 'point':
      return !at.array && hasNumbers(defs, at.type, ['x', 'y', 'z']) ? undefined : `${is}, not a point (numbers x, y, z)`;
    case 'pose': {
      const f = fieldsOf(defs, at.type);
      const pos = f.find((x) => x.name === 'position');
      const ori = f.find((x) => x.name === 'orientation');
      return !at.array && pos && ori && hasNumbers(defs, pos.type, ['x', 'y', 'z']) && hasNumbers(defs, ori.type, ['x', 'y', 'z', 'w'])
        ? undefined
        : `${is}, not a pose (position x, y, z and orientation x, y, z, w)`;
    }
  }
}
