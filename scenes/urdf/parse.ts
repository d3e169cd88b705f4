// A URDF document (already expanded from xacro) as a RobotDescription, and every
// problem with it per element: `link "x"`, `joint "y"`, with the fix. Values are
// read from attribute text and then checked with zod (finite numbers, positive
// sizes, ordered limits); an element with an error is kept out of the
// description, never given a made-up value in its place.
import { z } from 'zod';
import { fieldPath } from '../validation';
import type { Geometry, Joint, JointKind, Link, Origin, Problem, V3 } from './model';
import { type XmlElement, elements } from './xml';

const finite = z.number({ error: 'must be a finite number' });
const positive = finite.refine((n) => n > 0, 'must be more than 0');
const v3 = z.tuple([finite, finite, finite]);
const OriginSchema = z.object({ xyz: v3, rpy: v3 });
const GeometrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('box'), size: z.tuple([positive, positive, positive]) }),
  z.object({ kind: z.literal('cylinder'), radius: positive, length: positive }),
  z.object({ kind: z.literal('sphere'), radius: positive }),
  z.object({ kind: z.literal('mesh'), file: z.string().min(1, 'needs a filename'), scale: z.tuple([positive, positive, positive]) }),
]);
const LinkSchema = z.object({
  name: z.string().min(1),
  inertial: z.object({ mass: finite.refine((m) => m >= 0, 'must not be negative'), origin: OriginSchema }).nullable(),
  collisions: z.array(z.object({ origin: OriginSchema, geometry: GeometrySchema })),
  visuals: z.array(z.object({ origin: OriginSchema, geometry: GeometrySchema, color: z.string().nullable() })),
});
const JointSchema = z.object({
  name: z.string().min(1),
  kind: z.enum(['revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar']),
  parent: z.string().min(1, 'needs <parent link="…"/>'),
  child: z.string().min(1, 'needs <child link="…"/>'),
  origin: OriginSchema,
  axis: v3.refine((a) => Math.hypot(...a) > 1e-9, 'must not be the zero vector'),
  limit: z
    .object({ lower: finite, upper: finite, effort: finite.nullable(), velocity: positive.nullable() })
    .refine((l) => l.lower <= l.upper, { message: 'lower must not be above upper', path: ['lower'] })
    .nullable(),
  mimic: z.object({ joint: z.string().min(1), multiplier: finite, offset: finite }).nullable(),
});

const ZERO: V3 = [0, 0, 0];
const label = (kind: 'link' | 'joint', e: XmlElement): string => `${kind} "${e.attrs['name'] ?? `(no name, line ${e.line})`}"`;

/** Reads a description's elements; problems go to `out`. */
class Reader {
  constructor(readonly out: Problem[]) {}

  problem(element: string, problem: string, fix: string, severity: Problem['severity'] = 'error'): void {
    this.out.push({ element, problem, fix, severity });
  }

  /** "a b c" as three numbers (NaN where unreadable: zod then names the field). */
  vec(text: string | undefined, fallback: V3): V3 {
    if (text === undefined) return fallback;
    const parts = text.trim().split(/\s+/).map(Number);
    return parts.length === 3 ? (parts as V3) : [NaN, NaN, NaN];
  }

  number(text: string | undefined, fallback: number): number {
    return text === undefined ? fallback : text.trim() === '' ? NaN : Number(text);
  }

  origin(parent: XmlElement): Origin {
    const o = elements(parent, 'origin')[0];
    return { xyz: this.vec(o?.attrs['xyz'], ZERO), rpy: this.vec(o?.attrs['rpy'], ZERO) };
  }

  geometry(parent: XmlElement, at: string): Geometry | undefined {
    const g = elements(parent, 'geometry')[0];
    const shape = g ? elements(g)[0] : undefined;
    if (!shape) {
      this.problem(at, `a <${parent.name}> without a <geometry> shape`, 'give it <box>, <cylinder>, <sphere> or <mesh>');
      return undefined;
    }
    const a = shape.attrs;
    switch (shape.name) {
      case 'box':
        return { kind: 'box', size: this.vec(a['size'], [NaN, NaN, NaN]) };
      case 'cylinder':
        return { kind: 'cylinder', radius: this.number(a['radius'], NaN), length: this.number(a['length'], NaN) };
      case 'sphere':
        return { kind: 'sphere', radius: this.number(a['radius'], NaN) };
      case 'mesh':
        return { kind: 'mesh', file: a['filename'] ?? '', scale: this.vec(a['scale'], [1, 1, 1]) };
      default:
        this.problem(
          at,
          `<${shape.name}> is not a URDF shape; this <${parent.name}> is left out`,
          'use box, cylinder, sphere or mesh',
          'warning',
        );
        return undefined;
    }
  }

  color(visual: XmlElement, materials: ReadonlyMap<string, string>): string | null {
    const m = elements(visual, 'material')[0];
    if (!m) return null;
    const rgba = elements(m, 'color')[0]?.attrs['rgba'];
    if (rgba !== undefined) return hex(rgba);
    return materials.get(m.attrs['name'] ?? '') ?? null;
  }

  /** zod's verdict on one element: the value, or its problems and undefined. */
  checked<T>(schema: z.ZodType<T>, value: unknown, at: string, fix: string): T | undefined {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    for (const i of r.error.issues) this.problem(at, `${fieldPath(i.path)} ${i.message}`, fix);
    return undefined;
  }
}

/** `rgba="r g b a"` (0…1) as #rrggbbaa, or null when it is not four numbers in 0…1. */
function hex(rgba: string): string | null {
  const p = rgba.trim().split(/\s+/).map(Number);
  if (p.length !== 4 || p.some((c) => !(c >= 0 && c <= 1))) return null;
  return `#${p
    .map((c) =>
      Math.round(c * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

function readLink(r: Reader, e: XmlElement, materials: ReadonlyMap<string, string>): Link | undefined {
  const at = label('link', e);
  const inertial = elements(e, 'inertial')[0];
  const massEl = inertial ? elements(inertial, 'mass')[0] : undefined;
  if (inertial && !massEl) r.problem(at, '<inertial> has no <mass value="…"/>', 'add the mass in kg');
  const shapes = (kind: 'collision' | 'visual') =>
    elements(e, kind).flatMap((c) => {
      const geometry = r.geometry(c, at);
      return geometry ? [{ origin: r.origin(c), geometry, color: kind === 'visual' ? r.color(c, materials) : null }] : [];
    });
  const link = {
    name: e.attrs['name'] ?? '',
    inertial: inertial ? { mass: r.number(massEl?.attrs['value'], NaN), origin: r.origin(inertial) } : null,
    collisions: shapes('collision').map(({ origin, geometry }) => ({ origin, geometry })),
    visuals: shapes('visual'),
  };
  return r.checked(LinkSchema, link, at, 'correct the value in the URDF (metres, kilograms)');
}

const KINDS = new Set<JointKind>(['revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar']);

function readJoint(r: Reader, e: XmlElement): Joint | undefined {
  const at = label('joint', e);
  const type = e.attrs['type'] ?? '';
  if (!KINDS.has(type as JointKind)) {
    r.problem(at, `type "${type}" is not a URDF joint type`, 'use revolute, continuous, prismatic, fixed, floating or planar');
    return undefined;
  }
  const kind = type as JointKind;
  const lim = elements(e, 'limit')[0];
  const mim = elements(e, 'mimic')[0];
  const bounded = kind === 'revolute' || kind === 'prismatic';
  if (bounded && !lim)
    r.problem(
      at,
      `a ${kind} joint without <limit>: its range is unknown`,
      'add <limit lower="…" upper="…" effort="…" velocity="…"/>',
      'warning',
    );
  const effort = r.number(lim?.attrs['effort'], NaN);
  const velocity = r.number(lim?.attrs['velocity'], NaN);
  const joint = {
    name: e.attrs['name'] ?? '',
    kind,
    parent: elements(e, 'parent')[0]?.attrs['link'] ?? '',
    child: elements(e, 'child')[0]?.attrs['link'] ?? '',
    origin: r.origin(e),
    axis: r.vec(elements(e, 'axis')[0]?.attrs['xyz'], [1, 0, 0]),
    limit:
      bounded && lim
        ? {
            lower: r.number(lim.attrs['lower'], 0),
            upper: r.number(lim.attrs['upper'], 0),
            effort: lim.attrs['effort'] === undefined ? null : effort,
            velocity: lim.attrs['velocity'] === undefined ? null : velocity,
          }
        : null,
    mimic: mim
      ? { joint: mim.attrs['joint'] ?? '', multiplier: r.number(mim.attrs['multiplier'], 1), offset: r.number(mim.attrs['offset'], 0) }
      : null,
  };
  const ok = r.checked(JointSchema, joint, at, 'correct the value in the URDF (metres, radians)');
  if (!ok) return undefined;
  const n = Math.hypot(...ok.axis);
  return { ...ok, axis: ok.axis.map((c) => c / n) as V3 };
}

/** The links and joints of a `<robot>` element, each checked; the structure is checked by ./structure.ts. */
export interface ReadUrdf {
  name: string;
  links: Link[];
  joints: Joint[];
  /**
   * Every link and joint name declared, and the links each <joint> names, also of elements left out for
   * an error (so what they connect is not reported again as disconnected).
   */
  declared: { links: Set<string>; joints: Set<string>; edges: Array<{ parent: string; child: string }> };
  problems: Problem[];
}

export function readUrdf(root: XmlElement): ReadUrdf {
  const problems: Problem[] = [];
  const r = new Reader(problems);
  const declared: ReadUrdf['declared'] = { links: new Set(), joints: new Set(), edges: [] };
  if (root.name !== 'robot') {
    r.problem(
      `<${root.name}>`,
      'the document is not a URDF: its root element is not <robot>',
      'give a .urdf or .xacro file whose root is <robot>',
    );
    return { name: '', links: [], joints: [], declared, problems };
  }
  const materials = new Map<string, string>();
  for (const m of elements(root, 'material')) {
    const c = elements(m, 'color')[0]?.attrs['rgba'];
    const color = c === undefined ? null : hex(c);
    if (m.attrs['name'] && color) materials.set(m.attrs['name'], color);
  }
  const seen = new Set<string>();
  const unique = (kind: 'link' | 'joint', e: XmlElement): boolean => {
    const name = e.attrs['name'];
    if (!name) {
      r.problem(label(kind, e), `a <${kind}> without a name`, 'give it name="…"');
      return false;
    }
    if (seen.has(`${kind}:${name}`)) {
      r.problem(label(kind, e), `two ${kind}s are named "${name}"`, `rename one: ${kind} names must be unique`);
      return false;
    }
    seen.add(`${kind}:${name}`);
    declared[kind === 'link' ? 'links' : 'joints'].add(name);
    return true;
  };
  const links = elements(root, 'link').flatMap((e) => (unique('link', e) ? (readLink(r, e, materials) ?? []) : []));
  for (const e of elements(root, 'joint')) {
    const [parent, child] = [elements(e, 'parent')[0]?.attrs['link'], elements(e, 'child')[0]?.attrs['link']];
    if (parent && child) declared.edges.push({ parent, child });
  }
  const joints = elements(root, 'joint').flatMap((e) => (unique('joint', e) ? (readJoint(r, e) ?? []) : []));
  for (const e of elements(root))
    if (!['link', 'joint', 'material', 'transmission', 'gazebo', 'ros2_control'].includes(e.name))
      r.problem(
        `<${e.name}> (line ${e.line})`,
        `<${e.name}> is not part of URDF and is ignored`,
        'remove it, or expand the xacro it belongs to',
        'warning',
      );
  return { name: root.attrs['name'] ?? '', links, joints, declared, problems };
}
