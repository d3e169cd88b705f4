// Joins a scene with the object catalogue and its robot config into the fully
// specified description the simulator builds from. Pure: no file access.
import { z } from 'zod';
import {
  type ObjectStates,
  type ObjectType,
  ObjectType as ObjectTypeSchema,
  type Properties,
  type RobotConfig,
  RobotConfig as RobotConfigSchema,
  type Scene,
  Scene as SceneSchema,
  type SceneObject,
} from './schema';
import { SceneDataError, describeIssues, didYouMean } from './validation';

export interface ResolvedObject extends Omit<ObjectType, 'type' | 'states'> {
  id: string;
  type: string;
  states: Required<ObjectStates>;
  placement: Pick<SceneObject, 'position' | 'on' | 'in' | 'yaw'>;
  hidden: boolean;
}

export interface ResolvedScene {
  scene: Scene;
  robot: RobotConfig;
  objects: ResolvedObject[];
}

export type Catalogue = ReadonlyMap<string, ObjectType>;

/** Default states follow the properties: an openable thing starts closed, a toggleable one off. */
function defaultStates(p: Properties, given: ObjectStates): Required<ObjectStates> {
  return {
    open: given.open ?? false,
    on: given.on ?? false,
    sliced: given.sliced ?? false,
    dirty: given.dirty ?? false,
    filled: given.filled ?? false,
    cooked: given.cooked ?? false,
    ...(p.openable ? {} : { open: given.open ?? false }),
  };
}

export function parseScene(data: unknown, source: string): Scene {
  const parsed = SceneSchema.safeParse(data);
  if (!parsed.success) throw new SceneDataError(source, describeIssues(parsed.error));
  return parsed.data;
}

export function parseCatalogue(entries: readonly unknown[], source: string): Map<string, ObjectType> {
  const out = new Map<string, ObjectType>();
  const problems: string[] = [];
  entries.forEach((raw, i) => {
    const parsed = ObjectTypeSchema.safeParse(raw);
    if (!parsed.success) {
      for (const p of describeIssues(parsed.error)) problems.push(`types[${i}].${p}`);
      return;
    }
    if (out.has(parsed.data.type)) problems.push(`types[${i}].type: "${parsed.data.type}" is defined twice`);
    out.set(parsed.data.type, parsed.data);
  });
  if (problems.length) throw new SceneDataError(source, problems);
  return out;
}

export function parseRobotConfig(data: unknown, source: string): RobotConfig {
  const parsed = RobotConfigSchema.safeParse(data);
  if (!parsed.success) throw new SceneDataError(source, describeIssues(parsed.error));
  return parsed.data;
}

export function resolveScene(scene: Scene, catalogue: Catalogue, robots: ReadonlyMap<string, RobotConfig>, source: string): ResolvedScene {
  const problems: string[] = [];
  const robot = robots.get(scene.robot.config);
  if (!robot) {
    problems.push(
      `robot.config: unknown robot config "${scene.robot.config}".${didYouMean(scene.robot.config, robots.keys())} Known: ${[...robots.keys()].join(', ')}`,
    );
  }
  const ids = new Set<string>();
  const objects: ResolvedObject[] = [];
  scene.objects.forEach((o, i) => {
    if (ids.has(o.id)) problems.push(`objects[${i}].id: "${o.id}" is used twice; object ids must be unique`);
    ids.add(o.id);
    const type = catalogue.get(o.type);
    if (!type) {
      problems.push(`objects[${i}].type: unknown object type "${o.type}".${didYouMean(o.type, catalogue.keys())}`);
      return;
    }
    if (!o.position && !o.on && !o.in) {
      problems.push(`objects[${i}]: give "position", or "on"/"in" with the id of what it rests on`);
    }
    const { type: typeKey, states, ...rest } = type;
    objects.push({
      ...rest,
      id: o.id,
      type: typeKey,
      name: o.name ?? type.name,
      aliases: [...type.aliases, ...(o.aliases ?? [])],
      color: o.color ?? type.color,
      mass: o.mass ?? type.mass,
      attributes: { ...type.attributes, ...(o.attributes ?? {}) },
      states: defaultStates(type.properties, { ...states, ...(o.state ?? {}) }),
      placement: { position: o.position, on: o.on, in: o.in, yaw: o.yaw },
      hidden: o.hidden ?? false,
    });
  });
  const byId = new Map(objects.map((o) => [o.id, o]));
  scene.objects.forEach((o, i) => {
    for (const rel of ['on', 'in'] as const) {
      const target = o[rel];
      if (!target) continue;
      const t = byId.get(target);
      if (!t) {
        problems.push(`objects[${i}].${rel}: no object "${target}" in this scene.${didYouMean(target, byId.keys())}`);
      } else if (rel === 'in' && !t.receptacle) {
        problems.push(`objects[${i}].in: "${target}" (${t.type}) is not a receptacle`);
      }
    }
  });
  const locationIds = new Set(scene.locations.map((l) => l.id));
  scene.locations.forEach((l, i) => {
    for (const s of l.serves) {
      if (!byId.has(s)) problems.push(`locations[${i}].serves: no object "${s}".${didYouMean(s, byId.keys())}`);
    }
  });
  if (scene.robot.at && !locationIds.has(scene.robot.at)) {
    problems.push(`robot.at: no location "${scene.robot.at}".${didYouMean(scene.robot.at, locationIds)}`);
  }
  if (!scene.robot.at && !scene.robot.pose) problems.push('robot: give "pose" or "at" (a location id)');
  if (robot && robot.arm && !(scene.robot.posture in robot.arm.postures)) {
    problems.push(
      `robot.posture: "${scene.robot.posture}" is not a posture of ${robot.id} (${Object.keys(robot.arm.postures).join(', ')})`,
    );
  }
  for (const p of scene.people) {
    if (ids.has(p.id)) problems.push(`people: id "${p.id}" is already an object id`);
  }
  if (problems.length || !robot) throw new SceneDataError(source, problems);
  return { scene, robot, objects };
}

export const SceneJsonSchema = (): unknown => z.toJSONSchema(SceneSchema, { io: 'input' });
