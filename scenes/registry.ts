// The built-in scenes, catalogue and robots, imported statically so every host
// (CLI, Electron main, workers) carries them without touching the file system.
import farmCatalogue from './catalogue/farm.json' with { type: 'json' };
import kitchenCatalogue from './catalogue/kitchen.json' with { type: 'json' };
import tabletopCatalogue from './catalogue/tabletop.json' with { type: 'json' };
import workshopCatalogue from './catalogue/workshop.json' with { type: 'json' };
import farm from './data/farm.json' with { type: 'json' };
import kitchenAssistive from './data/kitchen/assistive.json' with { type: 'json' };
import kitchen from './data/kitchen.json' with { type: 'json' };
import boxes from './data/tabletop/boxes.json' with { type: 'json' };
import fruits from './data/tabletop/fruits.json' with { type: 'json' };
import utensils from './data/tabletop/utensils.json' with { type: 'json' };
import workshop from './data/tabletop/workshop.json' with { type: 'json' };
import householdManipulator from './robots/household-manipulator.json' with { type: 'json' };
import mobipick from './robots/mobipick.json' with { type: 'json' };
import tabletopArm from './robots/tabletop-arm.json' with { type: 'json' };
import valdemar from './robots/valdemar.json' with { type: 'json' };
import { PREVALIDATED, type Prevalidated } from './prevalidated';
import { type Catalogue, type ResolvedScene, parseCatalogue, parseObjectType, parseRobotConfig, parseScene, resolveScene } from './resolve';
import type { ObjectType, RobotConfig, Scene } from './schema';
import { SceneDataError, didYouMean } from './validation';

const CATALOGUES: Record<string, { types: unknown[] }> = {
  'catalogue/tabletop.json': tabletopCatalogue,
  'catalogue/kitchen.json': kitchenCatalogue,
  'catalogue/workshop.json': workshopCatalogue,
  'catalogue/farm.json': farmCatalogue,
};

const ROBOTS: Record<string, unknown> = {
  'robots/tabletop-arm.json': tabletopArm,
  'robots/mobipick.json': mobipick,
  'robots/household-manipulator.json': householdManipulator,
  'robots/valdemar.json': valdemar,
};

const SCENES: Record<string, unknown> = {
  'data/tabletop/fruits.json': fruits,
  'data/tabletop/utensils.json': utensils,
  'data/tabletop/boxes.json': boxes,
  'data/tabletop/workshop.json': workshop,
  'data/kitchen.json': kitchen,
  'data/kitchen/assistive.json': kitchenAssistive,
  'data/farm.json': farm,
};

/** A built-in file as validated when the command-line bundle was built, if it was. */
function prevalidated<T>(kind: keyof Prevalidated, key: string): T | undefined {
  const text = PREVALIDATED?.[kind][key];
  return text === undefined ? undefined : (JSON.parse(text) as T);
}

let catalogue: Map<string, ObjectType> | undefined;
let lazyCatalogue: Catalogue | undefined;
let robots: Map<string, RobotConfig> | undefined;
let scenes: Map<string, Scene> | undefined;

/** Every type of every built-in catalogue file, each validated. */
function fullCatalogue(): Map<string, ObjectType> {
  if (!catalogue && PREVALIDATED)
    catalogue = new Map(Object.keys(PREVALIDATED.types).map((type) => [type, prevalidated<ObjectType>('types', type)!]));
  if (!catalogue) {
    catalogue = new Map();
    for (const [file, data] of Object.entries(CATALOGUES)) {
      for (const [k, v] of parseCatalogue(data.types, `scenes/${file}`)) {
        if (catalogue.has(k)) throw new SceneDataError(`scenes/${file}`, [`type "${k}" is also defined in another catalogue file`]);
        catalogue.set(k, v);
      }
    }
  }
  return catalogue;
}

/**
 * The built-in catalogue, each type validated when first looked up: a scene uses a
 * handful of its ~70 types, and validating them all cost a one-shot command ~5 % of
 * its time. Anything that walks the whole catalogue validates all of it, as before;
 * so does a catalogue whose entries do not each name a distinct type.
 */
export function builtinCatalogue(): Catalogue {
  if (catalogue) return catalogue;
  if (lazyCatalogue) return lazyCatalogue;
  const raw = new Map<string, { file: string; index: number; data: unknown }>();
  // Validated when the bundle was built: the raw files are not in the bundle then (scripts/build-cli.mjs).
  if (PREVALIDATED) for (const type of Object.keys(PREVALIDATED.types)) raw.set(type, { file: '', index: -1, data: undefined });
  else
    for (const [file, data] of Object.entries(CATALOGUES)) {
      for (const [index, entry] of data.types.entries()) {
        const type = (entry as { type?: unknown } | null)?.type;
        if (typeof type !== 'string' || raw.has(type)) return fullCatalogue(); // the full parse names the problem
        raw.set(type, { file, index, data: entry });
      }
    }
  const parsed = new Map<string, ObjectType>();
  const one = (type: string): ObjectType | undefined => {
    let t = parsed.get(type);
    if (!t) {
      const r = raw.get(type);
      if (!r) return undefined;
      t = prevalidated<ObjectType>('types', type) ?? parseObjectType(r.data, `scenes/${r.file}`, r.index);
      parsed.set(type, t);
    }
    return t;
  };
  lazyCatalogue = {
    get: one,
    has: (type) => raw.has(type),
    get size() {
      return raw.size;
    },
    keys: () => raw.keys(),
    values: () => fullCatalogue().values(),
    entries: () => fullCatalogue().entries(),
    forEach: (f, thisArg) => fullCatalogue().forEach(f, thisArg),
    [Symbol.iterator]: () => fullCatalogue()[Symbol.iterator](),
  };
  return lazyCatalogue;
}

export function builtinRobots(): ReadonlyMap<string, RobotConfig> {
  if (!robots) {
    robots = new Map();
    for (const [file, data] of Object.entries(ROBOTS)) {
      const r = prevalidated<RobotConfig>('robots', file) ?? parseRobotConfig(data, `scenes/${file}`);
      robots.set(r.id, r);
    }
  }
  return robots;
}

function builtinScenes(): Map<string, Scene> {
  if (!scenes) {
    scenes = new Map();
    for (const [file, data] of Object.entries(SCENES)) {
      const s = prevalidated<Scene>('scenes', file) ?? parseScene(data, `scenes/${file}`);
      scenes.set(s.id, s);
    }
  }
  return scenes;
}

/** Scene files by the id they declare, read without validating (validation runs when one is used). */
let sceneFiles: Map<string, string> | undefined;
const oneScene = new Map<string, Scene>();

/**
 * One built-in scene, validated alone: a command on one scene need not validate
 * all seven. Undefined for an unknown id.
 */
function builtinSceneData(id: string): Scene | undefined {
  if (!scenes && !sceneFiles) {
    const byId = new Map<string, string>();
    for (const [file, data] of Object.entries(SCENES)) {
      const declared = PREVALIDATED ? prevalidated<string>('sceneIds', file) : (data as { id?: unknown }).id;
      if (typeof declared !== 'string' || byId.has(declared)) return builtinScenes().get(id); // the full parse reports it
      byId.set(declared, file);
    }
    sceneFiles = byId;
  }
  if (scenes || !sceneFiles) return builtinScenes().get(id);
  const file = sceneFiles.get(id);
  if (!file) return undefined;
  let s = oneScene.get(id);
  if (!s) {
    s = prevalidated<Scene>('scenes', file) ?? parseScene(SCENES[file], `scenes/${file}`);
    if (s.id !== id) return builtinScenes().get(id);
    oneScene.set(id, s);
  }
  return s;
}

export interface SceneSummary {
  id: string;
  title: string;
  description: string;
  robot: string;
  robotKind: RobotConfig['kind'];
  toolSet: string;
  toolSets: string[];
  objects: number;
  paper: string | undefined;
}

export function listScenes(): SceneSummary[] {
  const rs = builtinRobots();
  return [...builtinScenes().values()].map((s) => ({
    id: s.id,
    title: s.title,
    description: s.description,
    robot: s.robot.config,
    robotKind: rs.get(s.robot.config)?.kind ?? 'fixed_arm',
    toolSet: s.toolSet,
    toolSets: [s.toolSet, ...s.toolSets.filter((t) => t !== s.toolSet)],
    objects: s.objects.length,
    paper: s.paper,
  }));
}

export function isBuiltinScene(id: string): boolean {
  return builtinSceneData(id) !== undefined;
}

/** Resolves a built-in scene by id. */
export function builtinScene(id: string): ResolvedScene {
  const s = builtinSceneData(id);
  if (!s) {
    throw new SceneDataError('--scene', [
      `unknown scene "${id}".${didYouMean(id, builtinScenes().keys())} Known scenes: ${[...builtinScenes().keys()].join(', ')}`,
    ]);
  }
  return resolveScene(s, builtinCatalogue(), builtinRobots(), `scene "${id}"`);
}

/**
 * Every built-in file validated, for the command-line bundle's build (scenes/prevalidated.ts):
 * throws as a command would on the first invalid one.
 */
export function validatedBuiltins(): {
  scenes: Record<string, Scene>;
  sceneIds: Record<string, string>;
  robots: Record<string, RobotConfig>;
  types: Record<string, ObjectType>;
} {
  const types = Object.fromEntries(fullCatalogue());
  const robots = Object.fromEntries(Object.entries(ROBOTS).map(([file, data]) => [file, parseRobotConfig(data, `scenes/${file}`)]));
  const scenes = Object.fromEntries(Object.entries(SCENES).map(([file, data]) => [file, parseScene(data, `scenes/${file}`)]));
  const sceneIds = Object.fromEntries(Object.entries(scenes).map(([file, scene]) => [file, scene.id]));
  return { scenes, sceneIds, robots, types };
}

/** Resolves scene data that came from elsewhere (a user's file). */
export function resolveSceneData(data: unknown, source: string, local?: Catalogue): ResolvedScene {
  return resolveScene(parseScene(data, source), builtinCatalogue(), builtinRobots(), source, local);
}
