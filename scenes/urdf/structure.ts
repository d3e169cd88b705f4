// The tree a description's joints make: its one root, the chains from the root
// to each leaf, and the problems of the structure (links no joint reaches, more
// than one root, a link with two parents, a loop, mimics of unknown joints,
// moving links without mass). Each problem names its element.
import type { Joint, Link, Problem, RobotDescription } from './model';
import type { ReadUrdf } from './parse';

export interface Chain {
  /** Links from the root to the leaf. */
  links: string[];
  /** The joints between them, in order. */
  joints: string[];
}

const problem = (element: string, text: string, fix: string, severity: Problem['severity'] = 'error'): Problem => ({
  element,
  problem: text,
  fix,
  severity,
});

/** The description (its root chosen) and the structure's problems; null when no link can be the root. */
export function structure(read: ReadUrdf): { description: RobotDescription | null; problems: Problem[] } {
  const out: Problem[] = [];
  const { links, joints, declared } = read;
  const parentOf = new Map<string, Joint>();
  const used = new Set<string>();
  const usable: Joint[] = [];
  for (const j of joints) {
    let ok = true;
    for (const [role, link] of [
      ['parent', j.parent],
      ['child', j.child],
    ] as const)
      if (!declared.links.has(link)) {
        out.push(problem(`joint "${j.name}"`, `its ${role} link "${link}" does not exist`, 'name a link of this URDF'));
        ok = false;
      }
    if (!ok) continue;
    if (j.parent === j.child) {
      out.push(problem(`joint "${j.name}"`, `joins link "${j.child}" to itself`, 'give it a different parent or child'));
      continue;
    }
    const before = parentOf.get(j.child);
    if (before) {
      out.push(
        problem(
          `joint "${j.name}"`,
          `link "${j.child}" already has parent joint "${before.name}": URDF is a tree`,
          'give each link one parent joint',
        ),
      );
      continue;
    }
    parentOf.set(j.child, j);
    used.add(j.parent).add(j.child);
    usable.push(j);
  }
  // A joint left out for an error still joins its links: they are not reported again as disconnected or as roots.
  const dropped = declared.edges.filter((e) => declared.links.has(e.parent) && declared.links.has(e.child) && !parentOf.has(e.child));
  for (const e of dropped) used.add(e.parent).add(e.child);
  const hasParent = (l: string) => parentOf.has(l) || dropped.some((e) => e.child === l);
  const byName = new Map(joints.map((j) => [j.name, j]));
  for (const j of joints) {
    if (!j.mimic) continue;
    const target = byName.get(j.mimic.joint);
    if (j.mimic.joint === j.name) out.push(problem(`joint "${j.name}"`, 'mimics itself', 'name the joint it follows'));
    else if (!target && !declared.joints.has(j.mimic.joint))
      out.push(
        problem(
          `joint "${j.name}"`,
          `mimics joint "${j.mimic.joint}", which does not exist`,
          'name a joint of this URDF in <mimic joint="…">',
        ),
      );
    else if (target?.mimic)
      out.push(
        problem(
          `joint "${j.name}"`,
          `mimics "${target.name}", which itself mimics "${target.mimic.joint}"`,
          'mimic the driving joint directly',
          'warning',
        ),
      );
  }
  const names = [...declared.links];
  if (names.length > 1)
    for (const l of names)
      if (!used.has(l))
        out.push(problem(`link "${l}"`, 'no joint connects this link: it is disconnected', 'join it to the robot, or remove it'));
  const roots = names.filter((l) => !hasParent(l) && (used.has(l) || names.length === 1));
  if (roots.length === 0) {
    out.push(
      problem(
        'robot',
        names.length ? 'every link has a parent: the joints form a loop' : 'the robot has no links',
        'give the robot one root link',
      ),
    );
    return { description: null, problems: out };
  }
  const children = new Map<string, Joint[]>();
  for (const j of usable) children.set(j.parent, [...(children.get(j.parent) ?? []), j]);
  const size = (l: string, depth = 0): number =>
    depth > names.length ? 0 : 1 + (children.get(l) ?? []).reduce((n, j) => n + size(j.child, depth + 1), 0);
  const root = [...roots].sort((a, b) => size(b) - size(a))[0]!;
  if (roots.length > 1)
    out.push(
      problem(
        'robot',
        `more than one root: ${roots.map((r) => `"${r}"`).join(', ')}; "${root}" is the robot's`,
        'join the trees with a joint (fixed if rigid)',
      ),
    );
  const linkOf = new Map(links.map((l) => [l.name, l]));
  for (const l of names) {
    const link = linkOf.get(l);
    if (!link) continue; // left out for an error already reported
    const via = parentOf.get(l);
    const moves = via !== undefined && via.kind !== 'fixed';
    const body = moves || link.collisions.length > 0 || link.visuals.length > 0;
    if (!body) continue; // a frame (tool0, world): no mass needed
    if (link.inertial === null)
      out.push(
        problem(`link "${l}"`, 'no <inertial>: its mass and inertia are unknown', 'add <inertial> with <mass> and <inertia>', 'warning'),
      );
    else if (link.inertial.mass === 0)
      out.push(problem(`link "${l}"`, 'zero mass', 'give <mass value="…"/> its mass in kg (a small one for a light part)', 'warning'));
  }
  return { description: { name: read.name, links, joints: usable, root }, problems: out };
}

/** The chains from the root to each leaf (a link no joint hangs from). */
export function chains(d: RobotDescription): Chain[] {
  const children = new Map<string, Joint[]>();
  for (const j of d.joints) children.set(j.parent, [...(children.get(j.parent) ?? []), j]);
  const out: Chain[] = [];
  const walk = (link: string, c: Chain): void => {
    const next = children.get(link) ?? [];
    if (next.length === 0) out.push(c);
    for (const j of next) if (!c.links.includes(j.child)) walk(j.child, { links: [...c.links, j.child], joints: [...c.joints, j.name] });
  };
  walk(d.root, { links: [d.root], joints: [] });
  return out;
}

/** The chain from the root to `link`, or undefined when the link is not in the tree. */
export function chainTo(d: RobotDescription, link: string): Chain | undefined {
  return chains(d)
    .map((c) => ({ c, at: c.links.indexOf(link) }))
    .filter(({ at }) => at >= 0)
    .map(({ c, at }) => ({ links: c.links.slice(0, at + 1), joints: c.joints.slice(0, at) }))[0];
}

/**
 * An upper bound of the reach of a chain: the sum of the joint offsets after its
 * first arm joint (revolute, continuous or prismatic; a planar or floating base
 * is not part of the arm), and each prismatic joint's stroke, in metres.
 */
export function reach(d: RobotDescription, c: Chain): number {
  const byName = new Map(d.joints.map((j) => [j.name, j]));
  const js = c.joints.map((n) => byName.get(n)!);
  const first = js.findIndex((j) => j.kind === 'revolute' || j.kind === 'continuous' || j.kind === 'prismatic');
  if (first < 0) return 0;
  return js.slice(first + 1).reduce((sum, j) => {
    const stroke = j.kind === 'prismatic' && j.limit ? Math.max(Math.abs(j.limit.lower), Math.abs(j.limit.upper)) : 0;
    return sum + Math.hypot(...j.origin.xyz) + stroke;
  }, 0);
}

/** Links by name. */
export function linkMap(d: RobotDescription): Map<string, Link> {
  return new Map(d.links.map((l) => [l.name, l]));
}
