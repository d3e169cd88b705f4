// Joins a scene with the object catalogue and its robot config into the fully
// specified description the simulator builds from. Pure: no file access.
import type { MeshData } from './urdf/mesh';
import type { RobotDescription } from './urdf/model';
import type { RobotExtras } from './urdf/sidecar';
import { z } from 'zod';
import {
  type ObjectStates,
  type ObjectType,
  type Properties,
  type RobotConfig,
  type Scene,
  type SceneObject,
  sceneSchemas,
} from './schema';
import { SCENE_LIMITS } from './limits';
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
  /** A robot from a robot description standing in for the scene's own (its arm is the description's chain). */
  imported?: ImportedDescription;
}

/** A robot description as loaded (without errors), its sidecar's values and the meshes it names. */
export interface ImportedDescription {
  description: RobotDescription;
  extras: RobotExtras;
  meshes: ReadonlyMap<string, { mesh: MeshData }>;
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

/** Rejects absurd sizes before validating item by item (a million objects would exhaust memory first). */
function precheckSizes(data: unknown, source: string): void {
  if (!data || typeof data !== 'object') return;
  const d = data as Record<string, unknown>;
  const caps: Array<[string, number]> = [
    ['objects', SCENE_LIMITS.objects],
    ['people', SCENE_LIMITS.people],
    ['locations', SCENE_LIMITS.locations],
    ['referencePositions', SCENE_LIMITS.referencePositions],
    ['events', SCENE_LIMITS.events],
    ['notes', SCENE_LIMITS.notes],
    ['userInfo', SCENE_LIMITS.userInfo],
  ];
  for (const [field, max] of caps) {
    const v = d[field];
    if (Array.isArray(v) && v.length > max) {
      throw new SceneDataError(source, [`${field}: ${v.length} entries; at most ${max} per scene (see scenes/README.md, Limits)`]);
    }
  }
}

export function parseScene(data: unknown, source: string): Scene {
  precheckSizes(data, source);
  const parsed = sceneSchemas().Scene.safeParse(data);
  if (!parsed.success) throw new SceneDataError(source, describeIssues(parsed.error));
  return parsed.data;
}

/** One catalogue entry, `types[index]` of `source`. */
export function parseObjectType(raw: unknown, source: string, index: number): ObjectType {
  const parsed = sceneSchemas().ObjectType.safeParse(raw);
  if (!parsed.success)
    throw new SceneDataError(
      source,
      describeIssues(parsed.error).map((p) => `types[${index}].${p}`),
    );
  return parsed.data;
}

export function parseCatalogue(entries: readonly unknown[], source: string): Map<string, ObjectType> {
  const out = new Map<string, ObjectType>();
  const problems: string[] = [];
  entries.forEach((raw, i) => {
    const parsed = sceneSchemas().ObjectType.safeParse(raw);
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
  const parsed = sceneSchemas().RobotConfig.safeParse(data);
  if (!parsed.success) throw new SceneDataError(source, describeIssues(parsed.error));
  return parsed.data;
}

/** Mesh types must be loaded from their files (mesh-object/load.ts) and must not shadow a catalogue type. */
function meshTypeProblems(scene: Scene, catalogue: Catalogue, local: Catalogue): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  scene.types.forEach((m, i) => {
    if (catalogue.has(m.type)) out.push(`types[${i}].type: "${m.type}" is a catalogue type already; give the mesh type another id`);
    else if (seen.has(m.type)) out.push(`types[${i}].type: "${m.type}" is defined twice`);
    else if (!local.has(m.type)) out.push(`types[${i}].mesh: mesh files are read only when the scene is loaded from its file`);
    seen.add(m.type);
  });
  return out;
}

/** `local`: the scene's own mesh types, loaded from their files. */
export function resolveScene(
  scene: Scene,
  builtin: Catalogue,
  robots: ReadonlyMap<string, RobotConfig>,
  source: string,
  local: Catalogue = new Map(),
): ResolvedScene {
  const problems: string[] = meshTypeProblems(scene, builtin, local);
  const catalogue: Catalogue = local.size ? new Map([...local, ...builtin]) : builtin;
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
  problems.push(...boundsProblems(scene), ...eventProblems(scene, byId));
  if (!problems.length) problems.push(...chainProblems(scene));
  if (problems.length || !robot) throw new SceneDataError(source, problems);
  return { scene, robot, objects };
}

/** Every position inside the floor's extent and between the floor and the ceiling height. */
function boundsProblems(scene: Scene): string[] {
  const [hx, hz] = [scene.floor.size[0] / 2, scene.floor.size[1] / 2];
  const out: string[] = [];
  const check = (field: string, p: readonly [number, number, number] | undefined, y = true): void => {
    if (!p) return;
    const [x, py, z] = p;
    if (!(Math.abs(x) <= hx) || !(Math.abs(z) <= hz)) {
      out.push(`${field}: [${p.join(', ')}] lies outside the floor (x within ±${hx} m, z within ±${hz} m); move it or enlarge floor.size`);
    } else if (y && !(py >= 0 && py <= SCENE_LIMITS.heightMetres)) {
      out.push(`${field}: height ${py} m is outside 0–${SCENE_LIMITS.heightMetres} m`);
    }
  };
  scene.objects.forEach((o, i) => check(`objects[${i}].position`, o.position, !o.on && !o.in));
  scene.locations.forEach((l, i) => check(`locations[${i}].pose.position`, l.pose.position));
  scene.referencePositions.forEach((r, i) => check(`referencePositions[${i}].position`, r.position));
  scene.people.forEach((p, i) => {
    check(`people[${i}].position`, p.position);
    if (Array.isArray(p.gaze)) check(`people[${i}].gaze`, p.gaze as [number, number, number]);
  });
  check('robot.pose.position', scene.robot.pose?.position);
  scene.events.forEach((e, i) => {
    if (e.event.type === 'object_moved') check(`events[${i}].event.to`, e.event.to);
  });
  return out;
}

/**
 * Scheduled events name things that exist and can do what the event says. A
 * speaker or mover is a label (an operator need not stand in the scene).
 */
function eventProblems(scene: Scene, objects: ReadonlyMap<string, ResolvedObject>): string[] {
  const out: string[] = [];
  scene.events.forEach((e, i) => {
    const ev = e.event;
    if (ev.type === 'object_moved') {
      const o = objects.get(ev.object);
      if (!o) out.push(`events[${i}].event.object: no object "${ev.object}" in this scene.${didYouMean(ev.object, objects.keys())}`);
      else if (o.fixed)
        out.push(`events[${i}].event.object: "${ev.object}" (${o.type}) is fixed in place; only movable objects can be moved`);
    }
  });
  return out;
}

/** on/in chains end on something placed by position, without cycles, at most SCENE_LIMITS.nesting deep. */
function chainProblems(scene: Scene): string[] {
  const byId = new Map(scene.objects.map((o) => [o.id, o]));
  const inCycle = new Set<string>();
  const out: string[] = [];
  scene.objects.forEach((o, i) => {
    const rel = o.in ? 'in' : o.on ? 'on' : undefined;
    if (!rel || inCycle.has(o.id)) return;
    const path = [o.id];
    for (let next = o.in ?? o.on; next; next = byId.get(next)?.in ?? byId.get(next)?.on) {
      if (path.includes(next)) {
        const cycle = path.slice(path.indexOf(next));
        for (const c of cycle) inCycle.add(c);
        out.push(
          `objects[${i}].${rel}: "${o.id}" would rest on itself: ${[...cycle, next].join(' -> ')}; give one of them a "position" instead`,
        );
        return;
      }
      path.push(next);
      if (path.length - 1 > SCENE_LIMITS.nesting) {
        out.push(`objects[${i}].${rel}: "${o.id}" is nested more than ${SCENE_LIMITS.nesting} deep; see scenes/README.md, Limits`);
        return;
      }
    }
  });
  return out;
}

export const SceneJsonSchema = (): unknown => z.toJSONSchema(sceneSchemas().Scene, { io: 'input' });
