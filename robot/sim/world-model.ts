// The robot's world model as a tree (in the spirit of AIMM-WM, paper 000 §II.C.3):
// nodes for the robot, places, furniture, objects and the people it has seen;
// each object's parent is what it rests on or in. Perception fills it; an
// operator may add nodes and set properties, which live beside perception and
// are marked so. A storage says whether its contents are known: a closed door
// hides its inside, so what is in a closed fridge is unknown, never "nothing".
import { round, toTuple } from '../../sim/math';
import { knownObjectIds } from '../../sim/perception/names';
import { geoObjects } from '../../sim/perception/geo';
import { supportOf } from '../../sim/perception/relations';
import type { SimWorld } from '../../sim/world/sim-world';
import type { WorldModelApi, WorldModelNode } from '../robot';

type Attr = string | number | boolean;

export interface WorldModelEdits {
  added: WorldModelNode[];
  overrides: Record<string, Record<string, Attr>>;
}

export class SimWorldModel implements WorldModelApi {
  private readonly added = new Map<string, WorldModelNode>();
  private readonly overrides = new Map<string, Record<string, Attr>>();

  constructor(private readonly sim: SimWorld) {}

  /** The operator's additions and set properties (kept by the robot object, not the world): for recording an end state. */
  edits(): WorldModelEdits {
    return { added: [...this.added.values()], overrides: Object.fromEntries(this.overrides) };
  }

  /** Puts back what edits() returned (replacing any edits made since). */
  restoreEdits(e: WorldModelEdits): void {
    this.added.clear();
    this.overrides.clear();
    for (const n of e.added) this.added.set(n.id, n);
    for (const [id, o] of Object.entries(e.overrides)) this.overrides.set(id, o);
  }

  async nodes(): Promise<WorldModelNode[]> {
    return this.list();
  }

  private list(): WorldModelNode[] {
    const sim = this.sim;
    const out: WorldModelNode[] = [];
    const all = geoObjects(sim);
    const byId = new Map(all.map((g) => [g.id, g]));
    const known = new Set(knownObjectIds(sim));
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
    for (const e of sim.entities.values()) {
      if (!known.has(e.id)) continue;
      const g = byId.get(e.id)!;
      const s = e.fixed ? undefined : supportOf(g, all);
      const p = sim.pose(e.id).p;
      const attributes: Record<string, Attr> = {
        ...e.spec.attributes,
        mass_kg: e.spec.mass,
        colour: e.spec.color,
        storage: Boolean(e.spec.receptacle),
        ...Object.fromEntries(Object.entries(e.spec.properties).filter(([, v]) => v)),
      };
      // Behind a closed door the camera sees nothing: what is inside is not known.
      if (e.spec.receptacle) attributes['contents_known'] = !(e.door && !e.states.open);
      for (const [k, v] of Object.entries(e.states)) if (e.spec.properties[stateProperty(k)]) attributes[k] = v;
      out.push(
        this.withOverrides({
          id: e.id,
          type: e.spec.type,
          name: e.spec.name,
          category: e.spec.category,
          parent: sim.isHeld(e.id) ? 'robot' : s?.id,
          relation: sim.isHeld(e.id) ? 'in' : s?.relation,
          position: toTuple({ x: round(p.x), y: round(p.y), z: round(p.z) }),
          attributes,
          source: 'perception',
        }),
      );
    }
    for (const person of sim.people.values()) {
      // Only people the robot has seen are in its model (an unrecognised person is not named).
      if (!sim.belief.people.has(person.spec.id)) continue;
      out.push(
        this.withOverrides({
          id: person.spec.id,
          type: 'person',
          name: person.spec.name,
          category: 'person',
          parent: undefined,
          relation: undefined,
          position: toTuple(sim.belief.people.get(person.spec.id)!.position),
          attributes: { seated: person.spec.seated, hands_free: person.handsFree },
          source: 'perception',
        }),
      );
    }
    for (const n of this.added.values()) out.push(this.withOverrides(n));
    return out;
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
    const n: WorldModelNode = {
      id: node.id,
      type: node.type,
      name: node.id,
      category: node.type,
      parent: parent.id,
      relation: node.relation ?? 'on',
      // Where on or in its parent the operator did not say: no position is invented.
      position: undefined,
      attributes: {},
      source: 'operator',
    };
    this.added.set(n.id, n);
    return n;
  }

  async setAttribute(id: string, key: string, value: Attr): Promise<WorldModelNode> {
    const node = this.list().find((n) => n.id === id);
    if (!node) throw new Error(`no node "${id}" in the world model`);
    this.overrides.set(id, { ...(this.overrides.get(id) ?? {}), [key]: value });
    return this.withOverrides(node);
  }

  private withOverrides(n: WorldModelNode): WorldModelNode {
    const o = this.overrides.get(n.id);
    return o ? { ...n, attributes: { ...n.attributes, ...o }, source: n.source } : n;
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
