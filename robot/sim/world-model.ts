// The robot's world model as a tree (in the spirit of AIMM-WM, paper 000
// §II.C.3: "an internal representation that reflects relevant parts of the
// physical world", filled by object detectors and by setters). It is a view of
// the robot's belief (sim/world/belief.ts), never of the world behind it:
// - the robot (its own localisation), the named places and the furniture and
//   appliances (the a priori map; their doors and switches as the robot set them);
// - each object the robot has perceived, where it last perceived it (or put it
//   with its own hand), with when and how (`known`): an object moved out of view
//   keeps its old place until seen again, and one still moving has no parent;
// - each storage says whether its contents are known: only when the robot has
//   looked inside (its whole bottom in view) since the last change it could have
//   missed (a person's move, a drop, an incident); a closed door or a sink wall
//   in the way leaves them "not known", never "nothing";
// - the people it has seen, by handle ("person_1", a person by fridge_1) until it
//   recognises them, then by name;
// - what an operator added or set, which lives in the belief beside perception
//   and is marked so (`source: 'operator'`, `operatorSet`).
// Lint keeps this file off ground truth (eslint-rules/truth.js).
import { round, toTuple } from '../../sim/math';
import { believedPose, believedStates, isStale, knownObjectIds } from '../../sim/perception/believed';
import { personName } from '../../sim/perception/person-names';
import type { OperatorNode } from '../../sim/world/belief';
import { type BelievedPlace, describePlace } from '../../sim/world/place';
import type { SimWorld } from '../../sim/world/sim-world';
import type { WorldModelApi, WorldModelNode } from '../robot';

type Attr = string | number | boolean;

/** The operator's additions and set properties: for recording an end state (they live in the belief). */
export interface WorldModelEdits {
  added: WorldModelNode[];
  overrides: Record<string, Record<string, Attr>>;
}

/** Fields every node has: an attribute of that name would shadow them, so a setter may not set one. */
const NODE_FIELDS = ['id', 'name', 'type', 'category', 'parent', 'relation', 'position', 'source', 'known', 'where'];
/** Attributes the robot's perception fills: an operator's word does not make them perceived. */
const PERCEIVED = ['storage', 'contents_known', 'recognised'];

/** A believed place as a tree edge: what it rests on or in, the hand, or no parent (floor, person, unperceived, moving). */
function edge(p: BelievedPlace): Pick<WorldModelNode, 'parent' | 'relation'> {
  switch (p.kind) {
    case 'in':
    case 'on':
      return { parent: p.id, relation: p.kind };
    case 'held':
      return { parent: 'robot', relation: 'in' };
    case 'robot':
      return { parent: 'robot', relation: 'on' };
    default:
      return { parent: undefined, relation: undefined };
  }
}

export class SimWorldModel implements WorldModelApi {
  constructor(private readonly sim: SimWorld) {}

  /** The operator's additions and set properties: for recording an end state. */
  edits(): WorldModelEdits {
    const b = this.sim.belief;
    return { added: [...b.added.values()].map((n) => this.operatorNode(n)), overrides: Object.fromEntries(b.overrides) };
  }

  /** Puts back what edits() returned (replacing any edits made since). */
  restoreEdits(e: WorldModelEdits): void {
    const b = this.sim.belief;
    b.added.clear();
    b.overrides.clear();
    for (const n of e.added)
      b.added.set(n.id, { id: n.id, type: n.type, parent: n.parent ?? '', relation: n.relation === 'in' ? 'in' : 'on', time: 0 });
    for (const [id, o] of Object.entries(e.overrides)) b.overrides.set(id, { ...o });
  }

  async nodes(): Promise<WorldModelNode[]> {
    return this.list();
  }

  private list(): WorldModelNode[] {
    const sim = this.sim;
    const out: WorldModelNode[] = [];
    const rp = sim.body.basePose.p;
    out.push(
      this.withOverrides({
        id: 'robot',
        type: 'robot',
        name: sim.scene.robot.title,
        category: 'robot',
        parent: sim.body.at,
        relation: sim.body.at ? 'at' : undefined,
        position: [round(rp.x), round(rp.y), round(rp.z)],
        attributes: { kind: sim.scene.robot.kind },
        source: 'perception',
      }),
    );
    for (const l of sim.locations.values()) {
      out.push(
        this.withOverrides({
          id: l.id,
          type: 'location',
          name: l.title ?? l.id,
          category: l.kind,
          parent: undefined,
          relation: undefined,
          position: l.pose.position,
          attributes: { kind: l.kind },
          source: 'perception',
        }),
      );
    }
    for (const id of knownObjectIds(sim)) {
      const n = this.objectNode(id);
      if (n) out.push(this.withOverrides(n));
    }
    for (const p of [...sim.belief.people.values()].sort((a, b) => (a.handle < b.handle ? -1 : a.handle > b.handle ? 1 : 0))) {
      // A name only for a person it recognised; anyone else by handle and where it saw them.
      out.push(
        this.withOverrides({
          id: p.handle,
          type: 'person',
          name: personName(sim, p),
          category: 'person',
          parent: undefined,
          relation: undefined,
          position: toTuple({ x: round(p.position.x), y: round(p.position.y), z: round(p.position.z) }),
          attributes: { recognised: p.recognised },
          source: 'perception',
          known: { time: round(p.time, 2), how: 'seen', stale: false },
        }),
      );
    }
    // What the robot perceives itself comes first: an operator's node of the same id is not listed beside it.
    const ids = new Set(out.map((n) => n.id));
    for (const n of sim.belief.added.values()) if (!ids.has(n.id)) out.push(this.withOverrides(this.operatorNode(n)));
    return out;
  }

  /** A known object (furniture a priori, anything else as last perceived), or undefined when it has no pose the robot knows. */
  private objectNode(id: string): WorldModelNode | undefined {
    const sim = this.sim;
    const e = sim.entity(id);
    const pose = believedPose(sim, id);
    if (!pose) return undefined;
    const entry = e.fixed ? undefined : sim.belief.get(id);
    const attributes: Record<string, Attr> = {
      ...e.spec.attributes,
      mass_kg: e.spec.mass,
      colour: e.spec.color,
      storage: Boolean(e.spec.receptacle),
      ...Object.fromEntries(Object.entries(e.spec.properties).filter(([, v]) => v)),
    };
    // Contents are known only when the robot looked inside since the last change it could have missed.
    if (e.spec.receptacle) attributes['contents_known'] = sim.belief.contentsKnown(id);
    const states = believedStates(sim, id) ?? {};
    for (const [k, v] of Object.entries(states)) if (e.spec.properties[stateProperty(k)] && typeof v === 'boolean') attributes[k] = v;
    const held = sim.isHeld(id);
    const place: BelievedPlace | undefined = held ? { kind: 'held' } : entry?.place;
    const p = pose.p;
    return {
      id,
      type: e.spec.type,
      name: e.spec.name,
      category: e.spec.category,
      ...(place ? edge(place) : { parent: undefined, relation: undefined }),
      position: toTuple({ x: round(p.x), y: round(p.y), z: round(p.z) }),
      attributes,
      source: 'perception',
      ...(entry
        ? {
            known: { time: round(held ? sim.time : entry.time, 2), how: held ? 'held' : entry.how, stale: isStale(sim, id) },
            where: describePlace(place),
          }
        : {}),
    };
  }

  private operatorNode(n: OperatorNode): WorldModelNode {
    return {
      id: n.id,
      type: n.type,
      name: n.id,
      category: n.type,
      parent: n.parent,
      relation: n.relation,
      // Where on or in its parent the operator did not say: no position is invented.
      position: undefined,
      attributes: {},
      source: 'operator',
      where: `${n.relation} ${n.parent} (the operator said so)`,
    };
  }

  /** The node with this id; a thing (robot, object, person, added node) before a place that shares its name. */
  async node(id: string): Promise<WorldModelNode | undefined> {
    const all = this.list().filter((n) => n.id === id);
    return all.find((n) => n.type !== 'location') ?? all[0];
  }

  async addNode(node: { id: string; type: string; parent: string; relation?: 'on' | 'in' }): Promise<WorldModelNode> {
    const existing = this.list();
    if (existing.some((n) => n.id === node.id)) throw new Error(`"${node.id}" is already in the world model`);
    const parent = existing.find((n) => n.id === node.parent);
    if (!parent) throw new Error(`no node "${node.parent}" to put ${node.id} under; known: ${existing.map((n) => n.id).join(', ')}`);
    const n: OperatorNode = { id: node.id, type: node.type, parent: parent.id, relation: node.relation ?? 'on', time: this.sim.time };
    this.sim.belief.added.set(n.id, n);
    return this.operatorNode(n);
  }

  async setAttribute(id: string, key: string, value: Attr): Promise<WorldModelNode> {
    if (NODE_FIELDS.includes(key)) throw new Error(`"${key}" is a field of every node, not a property; it cannot be set`);
    if (PERCEIVED.includes(key)) throw new Error(`"${key}" is what the robot perceives; an operator cannot set it`);
    const node = this.list().find((n) => n.id === id);
    if (!node) throw new Error(`no node "${id}" in the world model`);
    const o = this.sim.belief.overrides;
    o.set(id, { ...(o.get(id) ?? {}), [key]: value });
    return this.withOverrides({ ...node, attributes: Object.fromEntries(Object.entries(node.attributes).filter(([k]) => k !== key)) });
  }

  private withOverrides(n: WorldModelNode): WorldModelNode {
    const o = this.sim.belief.overrides.get(n.id);
    return o ? { ...n, attributes: { ...n.attributes, ...o }, operatorSet: Object.keys(o).sort() } : n;
  }
}

/** Which property makes a state meaningful (a fridge has open/closed, an apple does not). */
function stateProperty(state: string): 'openable' | 'toggleable' | 'sliceable' | 'dirtyable' | 'fillable' | 'cookable' {
  switch (state) {
    case 'open':
      return 'openable';
    case 'on':
      return 'toggleable';
    case 'sliced':
      return 'sliceable';
    case 'dirty':
      return 'dirtyable';
    case 'filled':
      return 'fillable';
    default:
      return 'cookable';
  }
}
