// The world-model tools (AIMM, paper 000 §II.C.3) against the robot's belief.
// The audit builds the world model the belief implies, apart from the code
// that serves it: the robot, the scene's places, furniture as it stands (known
// a priori), each object the robot has perceived where it perceived it (its
// record's pose and support, with the record's time), what it holds, the
// people it recognises, and what operators added or set. A pose is judged by
// value and frame (the robot's base frame, REP 103: x forward, y left, z up),
// axis by axis, so a swap or a mirror is caught; a storage is empty only when
// nothing is in it, in the world or in the belief.
import { type Judge, type Rule, readOne } from './check-read';
import { ID, NUM, inBaseFrame, recordOf, samePoint } from './check-judge';
import { readNameFailure } from './check-said-names';
import { type V, vec } from './truth';

import {
  type Attr,
  type Node,
  STATE_PROPERTY,
  personOk,
  field,
  valueSaid,
  whereSaid,
  contentsOf,
  storages,
} from './check-said-world-parts';

/** The world model the robot's belief implies. A place and a thing may share an id (a table and the place at it). */
class Model {
  readonly nodes: Node[] = [];
  set(_id: string, n: Node): void {
    this.nodes.push(n);
  }
  /** The node with this id: a thing before a place that shares it. */
  get(id: string): Node | undefined {
    const all = this.nodes.filter((n) => n.id === id);
    return all.find((n) => n.type !== 'location') ?? all[0];
  }
  has(id: string): boolean {
    return this.nodes.some((n) => n.id === id);
  }
  values(): Node[] {
    return this.nodes;
  }
  keys(): string[] {
    return this.nodes.map((n) => n.id);
  }
}

export function expectedModel(j: Judge): Model {
  const c = j.c;
  const w = c.world;
  const out = new Model();
  const props = (id: string): Record<string, Attr> => c.props.get(id) ?? {};
  const at = [...w.locations.values()].find(
    (l) => Math.hypot(c.after.base.pos.x - l.pose.position[0], c.after.base.pos.z - l.pose.position[2]) <= 0.2,
  );
  out.set('robot', {
    id: 'robot',
    type: 'robot',
    name: w.scene.robot.title,
    category: 'robot',
    parent: at?.id,
    relation: at ? 'at' : undefined,
    position: c.after.base.pos,
    attributes: { kind: w.scene.robot.kind, ...props('robot') },
    source: 'perception',
    seenAt: undefined,
  });
  for (const l of w.locations.values())
    out.set(l.id, {
      id: l.id,
      type: 'location',
      name: l.title ?? l.id,
      category: l.kind,
      parent: undefined,
      relation: undefined,
      position: vec(...l.pose.position),
      attributes: { kind: l.kind, ...props(l.id) },
      source: 'perception',
      seenAt: undefined,
    });
  for (const e of w.entities.values()) {
    const r = recordOf(j, e.id);
    const held = c.after.held === e.id;
    if (!e.fixed && !r && !held) continue;
    const s = e.spec;
    const attributes: Record<string, Attr> = {
      ...s.attributes,
      mass_kg: s.mass,
      colour: s.color,
      storage: Boolean(s.receptacle),
      ...Object.fromEntries(Object.entries(s.properties).filter(([, v]) => v)),
    };
    if (s.receptacle) attributes['contents_known'] = !(e.door && !e.states.open);
    for (const [k, v] of Object.entries(e.states))
      if ((s.properties as unknown as Record<string, boolean>)[STATE_PROPERTY[k] ?? 'cookable']) attributes[k] = v;
    const p = r?.place;
    // Resting on the robot's own body (its hand, an arm link, the base) is on the robot.
    const parent = held ? 'robot' : p?.kind === 'on' || p?.kind === 'in' ? p.id : p?.kind === 'robot' ? 'robot' : undefined;
    const relation = held ? 'in' : p?.kind === 'on' || p?.kind === 'in' ? p.kind : p?.kind === 'robot' ? 'on' : undefined;
    const pos = e.fixed || held ? c.after.bodies.get(e.id)?.pos : r ? vec(r.pose.p.x, r.pose.p.y, r.pose.p.z) : undefined;
    out.set(e.id, {
      id: e.id,
      type: s.type,
      name: s.name,
      category: s.category,
      parent,
      relation,
      position: pos,
      attributes: { ...attributes, ...props(e.id) },
      source: 'perception',
      seenAt: e.fixed || held ? undefined : r?.time,
    });
  }
  for (const p of w.people.values()) {
    const seen = w.belief.people.get(p.spec.id) as { position: V; time: number; handle?: string } | undefined;
    if (!seen) continue;
    // What the robot calls them: a tracker handle until it recognises them (where the belief keeps one), else their id.
    const id = seen.handle ?? p.spec.id;
    out.set(id, {
      id,
      type: 'person',
      name: p.spec.name,
      category: 'person',
      parent: undefined,
      relation: undefined,
      position: vec(seen.position.x, seen.position.y, seen.position.z),
      attributes: { seated: p.spec.seated, hands_free: p.handsFree, ...props(p.spec.id) },
      source: 'perception',
      seenAt: seen.time,
    });
  }
  // What the robot perceives comes first: an operator's node of the same id is not listed beside it.
  for (const [id, a] of c.added)
    if (!out.has(id))
      out.set(id, {
        id,
        type: a.type,
        name: id,
        category: a.type,
        parent: a.parent,
        relation: a.relation,
        position: undefined,
        attributes: { ...props(id) },
        source: 'operator',
        seenAt: undefined,
      });
  return out;
}

const QUERY_TEMPLATE = /MATCH \(n:(\S+)\)(?: WHERE n\.(\S+) = (.+?))? RETURN n\.id, n\.(\S+)/;

export const WORLD_RULES: Record<string, readonly Rule[]> = {
  get_object_poses: [
    [
      new RegExp(`(${ID}): position \\{"x":(${NUM}),"y":(${NUM}),"z":(${NUM})\\} \\(base frame\\), (.+)\\.`),
      (m, j) => {
        const n = expectedModel(j).get(m[1]!);
        if (!n) return void j.lie(`gave a pose of ${m[1]}, which is not in the robot's world model (never perceived, nor added)`);
        if (n.type === 'person') personOk(j, n.id);
        if (!n.position) return void j.lie(`gave a position for ${n.id}, for which nobody gave one`);
        samePoint(j, vec(Number(m[2]), Number(m[3]), Number(m[4])), inBaseFrame(j, n.position), 0.02, `${n.id}'s pose`);
        whereSaid(j, n, m[5]!);
      },
    ],
  ],
  get_empty_storages: [
    [
      /(?:Empty storages: (.+?)\.|No storage is known to be empty\.)(?: Contents (?:unknown|not known)(?: \(([^)]*)\))?: (.+)\.)?/,
      (m, j) => {
        const empty = m[1] ? storages(j, m[0]!, m[1], true) : [];
        const unknown = m[3] ? storages(j, m[0]!, m[3], false) : [];
        if (m[2] === 'closed, inside not seen')
          for (const id of unknown) if (j.c.world.entities.get(id)?.states.open) j.lie(`said ${id} is closed, but it is open`);
        // Every storage the robot knows is empty, of unknown contents, or holds something it knows of.
        for (const n of expectedModel(j).values()) {
          if (n.attributes['storage'] !== true || empty.includes(n.id) || unknown.includes(n.id)) continue;
          if (!contentsOf(j, n.id).belief.length)
            j.lie(`left ${n.id} out: neither empty, nor unknown, nor holding anything the robot knows of`);
        }
      },
    ],
  ],
  add_object: [
    [
      new RegExp(`Added (${ID}) (on|in) (${ID})( \\(operator-set: the robot has not perceived it\\))?\\.`),
      (m, j) => {
        const before = expectedModel(j);
        if (!before.has(m[3]!)) j.lie(`added ${m[1]} under ${m[3]}, which is not in the world model`);
        // An operator's node is the operator's word; an object the robot perceived is never one.
        if (m[4] && j.c.knownBefore.has(m[1]!)) j.lie(`said the robot has not perceived ${m[1]}, but it has`);
      },
    ],
    [
      /"([^"]+)" is already in the world model/,
      (m, j) => void (expectedModel(j).has(m[1]!) || j.lie(`said ${m[1]} is already in the world model, but it is not`)),
    ],
    [
      /no node "([^"]+)" to put (\S+) under; known: (.+)/,
      (m, j) => {
        const model = expectedModel(j);
        if (model.has(m[1]!)) j.lie(`said there is no node ${m[1]}, but there is`);
        const listed = new Set(m[3]!.split(', '));
        const want = new Set(model.keys());
        for (const id of listed) if (!want.has(id)) j.lie(`listed ${id} as a node of the world model, but the robot's belief has none`);
        for (const id of want) if (!listed.has(id)) j.lie(`left ${id} out of the world model's nodes`);
      },
    ],
  ],
  set_object_property: [
    [
      new RegExp(`(${ID})\\.(${ID}) = (.+?)(?: \\(operator-set, not perceived\\))?\\.`),
      (m, j) => {
        if (!expectedModel(j).has(m[1]!)) j.lie(`set a property of ${m[1]}, which is not in the world model`);
        if (m[3] !== JSON.stringify(j.c.args['value']))
          j.lie(`said ${m[1]}.${m[2]} = ${m[3]}, but the value given was ${JSON.stringify(j.c.args['value'])}`);
      },
    ],
    [
      /no node "([^"]+)" in the world model/,
      (m, j) => void (expectedModel(j).has(m[1]!) && j.lie(`said there is no node ${m[1]}, but there is`)),
    ],
  ],
  retrieve_nodes: [
    [
      new RegExp(`(${QUERY_TEMPLATE.source})\\n([^]+)`),
      (m, j) => {
        const [type, attr, value, ret] = [m[2]!, m[3], m[4], m[5]!];
        const model = [...expectedModel(j).values()];
        const match = (n: Node): boolean => n.type === type && (attr === undefined || JSON.stringify(field(j, n, attr)) === value);
        const want = model.filter(match);
        const rows = m[6] === '(no nodes match)' ? [] : m[6]!.split('\n');
        const seen: string[] = [];
        for (const row of rows) {
          const r = new RegExp(`^- (${ID}): (.*)$`).exec(row);
          if (!r) return void j.unread(row);
          const n = want.find((x) => x.id === r[1]) ?? model.find((x) => x.id === r[1]);
          if (!n) {
            j.lie(`listed ${r[1]}, which is not in the robot's world model`);
            continue;
          }
          if (!match(n)) j.lie(`listed ${n.id}, which does not match the query`);
          if (n.type === 'person') personOk(j, n.id);
          valueSaid(j, n, ret, r[2]!);
          seen.push(n.id);
        }
        for (const n of want) if (!seen.includes(n.id)) j.lie(`left ${n.id} out of the nodes of type ${type}`);
      },
    ],
  ],
  retrieve_parent_or_child: [
    [
      /(MATCH \((?:c \{id: "(\S+)"\}|c)\)-\[r(?::(\w+))?\]->\((?:p|p \{id: "(\S+)"\})\) RETURN (?:type\(r\), p|c\.id, type\(r\), c)\.(.+))\n([^]+)/,
      (m, j) => {
        const parentOf = m[2];
        const id = (parentOf ?? m[4])!;
        const rel = m[3]?.toLowerCase();
        const ret = m[5]!;
        const model = expectedModel(j);
        const start = model.get(id);
        if (!start) return void j.lie(`queried ${id}, which is not in the robot's world model`);
        const want = parentOf
          ? start.parent && (!rel || start.relation === rel) && model.get(start.parent)
            ? [model.get(start.parent)!]
            : []
          : [...model.values()].filter((n) => n.parent === id && (!rel || n.relation === rel));
        const lines = m[6]!.split('\n');
        const seen: string[] = [];
        for (const line of lines) {
          if (line === '(nothing related)') continue;
          let u =
            new RegExp(`^\\(unknown: (${ID}) is closed and its inside has not been seen\\)$`).exec(line) ??
            new RegExp(`^\\((${ID}) is closed: there may be more inside\\)$`).exec(line);
          if (u) {
            if (j.c.world.entities.get(u[1]!)?.states.open) j.lie(`said ${u[1]} is closed, but it is open`);
            continue;
          }
          // The robot has not looked inside since a change it could have missed: the contents are not known, which is no claim.
          u =
            new RegExp(
              `^\\(unknown: (?:(${ID}) is closed and )?the robot has not looked inside (${ID}) since something could have changed there\\)$`,
            ).exec(line) ?? new RegExp(`^\\(as last perceived: there may be more inside (${ID}), or less\\)$`).exec(line);
          if (u) {
            if (u[1] && j.c.world.entities.get(u[1])?.states.open) j.lie(`said ${u[1]} is closed, but it is open`);
            continue;
          }
          u = new RegExp(`^- (${ID}) is (on|in|at|related to) (${ID})(?:; (\\S+): (.*))?$`).exec(line);
          if (!u) {
            j.unread(line);
            continue;
          }
          const other = parentOf ? u[3]! : u[1]!;
          const n = model.get(other);
          if (!n) {
            j.lie(`named ${other}, which is not in the robot's world model`);
            continue;
          }
          const child = parentOf ? start : n;
          if (child.parent !== (parentOf ? other : id) || (child.relation ?? 'related to') !== u[2])
            j.lie(
              `said "${line.slice(2)}", but the robot's belief has ${child.id} ${child.parent ? `${child.relation} ${child.parent}` : 'on nothing it knows'}`,
            );
          if (n.type === 'person') personOk(j, n.id);
          if (u[4] !== undefined) valueSaid(j, n, u[4], u[5]!);
          seen.push(other);
        }
        for (const n of want) if (!seen.includes(n.id)) j.lie(`left ${n.id} out of what is related to ${id}`);
        if (!parentOf && lines[0] === '(nothing related)' && (rel === undefined || rel === 'in')) {
          const { world } = contentsOf(j, id);
          if (world.length) j.lie(`said nothing is in ${id}, but ${world.join(', ')} ${world.length > 1 ? 'are' : 'is'} in it`);
        }
        void ret;
      },
    ],
  ],
};

/** Failures of the world-model tools that are not a name the robot could not resolve. */
export const WORLD_FAILURES: readonly Rule[] = [
  [
    new RegExp(`the world model has no position for (${ID})`),
    (m, j) => {
      const n = expectedModel(j).get(m[1]!);
      if (n?.position) j.lie(`said the world model has no position for ${m[1]}, but the robot's belief gives one`);
    },
  ],
  [
    new RegExp(`(${ID}) is not in the world model(?: \\(the robot has not perceived it\\))?`),
    (m, j) => void (expectedModel(j).has(m[1]!) && j.lie(`said ${m[1]} is not in the world model, but the robot's belief holds it`)),
  ],
  [
    /node_type "([^"]+)" is not in the world model's schema\.(?: Did you mean "([^"]+)"\?)? Node types: (.+)/,
    (m, j) => {
      const types = [...new Set([...expectedModel(j).values()].map((n) => n.type))].sort();
      if (types.includes(m[1]!)) j.lie(`said there is no node type ${m[1]}, but there is`);
      if (m[3] !== types.join(', '))
        j.lie(`listed the node types as ${m[3]!.slice(0, 100)}, but the robot's world model has ${types.join(', ').slice(0, 100)}`);
    },
  ],
  [
    /(match_attribute|return_attribute) "([^"]+)" is not an attribute of (\S+) nodes\.(?: Did you mean "([^"]+)"\?)? They have: (.+)/,
    (m, j) => {
      const nodes = [...expectedModel(j).values()].filter((n) => n.type === m[3]);
      const attrs = new Set([
        'id',
        'name',
        'type',
        'category',
        'parent',
        'relation',
        'position',
        'source',
        ...nodes.flatMap((n) => Object.keys(n.attributes)),
      ]);
      if (attrs.has(m[2]!) && nodes.length) j.lie(`said ${m[3]} nodes have no attribute ${m[2]}, but they have`);
      // Fields the tools may add beside the attributes the belief implies.
      for (const a of m[5]!.split(', '))
        if (!attrs.has(a) && !['known', 'where', 'recognised'].includes(a))
          j.lie(`listed ${a} as an attribute of ${m[3]} nodes, which the robot's world model does not give them`);
    },
  ],
  [/return_attribute "([^"]+)" is not an attribute of the related nodes; they have: (.+)/, () => {}],
  [
    /give match_attribute and match_value together, or neither/,
    (_m, j) => {
      if ((j.c.args['match_attribute'] === undefined) === (j.c.args['match_value'] === undefined))
        j.lie('refused a query that gave both or neither');
    },
  ],
];

export function readWorldModel(j: Judge, text: string, ok: boolean): boolean {
  const rules = WORLD_RULES[j.c.tool];
  if (!rules) return false;
  if (ok) readOne(j, text, rules);
  else if (!readNameFailure(j, text)) readOne(j, text, [...rules, ...WORLD_FAILURES]);
  return true;
}
