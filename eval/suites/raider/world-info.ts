// What the RAIDER generator reads from a case's world before writing queries:
// the objects the robot sees from where it stands, their names, categories,
// states, properties and spatial relations, and where every object of the
// kitchen can be worked on from. Read through the Robot seam (as the tools see
// it) and SimControl (ground truth), so cases follow the scene data and physics.
import type { Robot } from '../../../robot/robot';
import type { SimControl } from '../../../robot/sim/control';
import { builtinCatalogue, builtinScene } from '../../../scenes/registry';

export interface ObjInfo {
  id: string;
  /** Display name ("blue mug") and catalogue type name ("mug"). */
  name: string;
  typeName: string;
  aliases: string[];
  category: string;
  fixed: boolean;
  props: Record<string, boolean>;
  state: Record<string, boolean>;
  /** Visible objects resting on top of it, and inside it. */
  onTop: string[];
  inside: string[];
}

export interface WorldInfo {
  scene: string;
  /** Where the robot stands (a location id). */
  at: string;
  held: string | null;
  visible: Map<string, ObjInfo>;
  /** Every object of the scene (visible or not), for "not present here" and recovery. */
  all: Map<string, { id: string; name: string; typeName: string; aliases: string[]; category: string }>;
  /** The location from which each object is worked on. */
  placeOf: Map<string, string>;
  /** Objects inside a closed container (the fridge, the microwave), with the container. */
  closedIn: Map<string, string>;
  places: Array<{ id: string; title: string }>;
}

/** Every name an object goes by, lower case: id, display name, type name, aliases. */
export function namesOf(o: { id: string; name: string; typeName: string; aliases: string[] }): string[] {
  return [...new Set([o.id, o.name, o.typeName, ...o.aliases].map((s) => s.toLowerCase()))];
}

export async function readWorld(scene: string, at: string, robot: Robot, control: SimControl): Promise<WorldInfo> {
  const data = builtinScene(scene);
  const catalogueName = new Map(data.objects.map((o) => [o.id, o]));
  const seen = await robot.perception.detect();
  const visible = new Map<string, ObjInfo>();
  for (const d of seen) {
    const p = await robot.perception.objectProperties(d.id);
    const so = catalogueName.get(d.id);
    visible.set(d.id, {
      id: d.id,
      name: d.name,
      typeName: typeNameOf(so?.type ?? d.id),
      aliases: so?.aliases ?? [],
      category: d.category,
      fixed: p['fixed'] === true,
      props: (p['properties'] ?? {}) as Record<string, boolean>,
      state: await robot.perception.objectState(d.id),
      onTop: await robot.perception.related('on top of', d.id),
      inside: await robot.perception.related('inside', d.id),
    });
  }
  const all = new Map(
    data.objects.map((o) => [o.id, { id: o.id, name: o.name, typeName: typeNameOf(o.type), aliases: o.aliases, category: o.category }]),
  );
  // Where each object is worked on: the location serving it, or serving what it rests on or in.
  const support = new Map<string, string>();
  for (const f of control.facts()) {
    const m = /^(on|in)\(([^,]+), ([^)]+)\)$/.exec(f);
    if (m) support.set(m[2]!, m[3]!);
  }
  const placeOf = new Map<string, string>();
  for (const o of data.objects) {
    let x: string | undefined = o.id;
    for (let i = 0; x && i < 6; i++) {
      const loc = data.scene.locations.find((l) => l.serves.includes(x!));
      if (loc) {
        placeOf.set(o.id, loc.id);
        break;
      }
      x = support.get(x);
    }
  }
  const closedIn = new Map<string, string>();
  for (const f of control.facts()) {
    const m = /^in\(([^,]+), ([^)]+)\)$/.exec(f);
    const c = m ? control.world.entities.get(m[2]!) : undefined;
    if (m && c && c.spec.properties.openable && !c.states.open) closedIn.set(m[1]!, m[2]!);
  }
  return {
    scene,
    at,
    closedIn,
    held: (await robot.perception.holding()) ?? null,
    visible,
    all,
    placeOf,
    places: data.scene.locations.map((l) => ({ id: l.id, title: l.title ?? l.id })),
  };
}

/** The catalogue's name for a type ("kitchen_bowl" → "bowl"), the generic word for every object of it. */
export function typeNameOf(type: string): string {
  return builtinCatalogue().get(type)?.name ?? type.replace(/_/g, ' ');
}

/** How a category reads in a query ("the fruit", "the cleaning item"). */
export const CATEGORY_WORDS: Record<string, string> = {
  fruit: 'fruit',
  vegetable: 'vegetable',
  drink: 'drink',
  utensil: 'utensil',
  appliance: 'appliance',
  cleaning: 'cleaning item',
  condiment: 'condiment',
  book: 'book',
  food: 'food item',
  tableware: 'piece of tableware',
  cookware: 'cookware',
  electronics: 'electronic device',
  kitchenware: 'kitchenware item',
};
