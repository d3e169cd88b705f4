// The data contract of scenes, object types and robot configs. Everything in
// scenes/ is data; this schema validates it and is exported as JSON Schema
// (scenes/scene.schema.json) for editors. Units SI, Y up, metres, degrees for
// hand-written angles. Robot frames: forward +X, left -Z, up +Y (ROS x, z, -y).
import { z } from 'zod';
import { SCENE_LIMITS as L } from './limits';
import type { MeshPart } from './mesh-object/part';

/**
 * Builds the schemas once, on the first parse: constructing them costs a one-shot
 * command ~15 ms, and a bundled command's built-in scenes come validated already
 * (scenes/registry.ts), so most commands never need them.
 */
function build() {
  const Vec3 = z.tuple([z.number(), z.number(), z.number()]).describe('[x, y, z] in metres (Y up)');
  const Vec2 = z.tuple([z.number(), z.number()]).describe('[x, z] in metres on the floor plane');
  const Text = z.string().max(L.textChars, `at most ${L.textChars} characters`);
  const list = <T extends z.ZodType>(item: T, max: number, what: string) => z.array(item).max(max, `at most ${max} ${what} per scene`);
  const Color = z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'a colour must look like "#rrggbb"')
    .describe('CSS hex colour, "#rrggbb"');
  const Id = z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/, 'an id uses lower-case letters, digits and "_", starting with a letter (e.g. "lemon_1")');

  const PartBase = {
    name: z.string().optional().describe('names a part so an articulation or a handle can refer to it'),
    position: Vec3.optional().describe('offset of the part centre from the body origin'),
    rotation: Vec3.optional().describe('XYZ Euler angles in degrees'),
    color: Color.optional(),
    collider: z.boolean().optional().describe('false: drawn only (default true)'),
    visual: z.boolean().optional().describe('false: collides but is not drawn (default true)'),
    mass: z.number().positive().optional().describe('kg; by default the body mass is shared by part volume'),
  };

  const Part = z.discriminatedUnion('shape', [
    z.object({ shape: z.literal('box'), size: Vec3.describe('full extents [x, y, z]'), ...PartBase }).strict(),
    z.object({ shape: z.literal('sphere'), radius: z.number().positive(), ...PartBase }).strict(),
    z.object({ shape: z.literal('cylinder'), radius: z.number().positive(), height: z.number().positive(), ...PartBase }).strict(),
    z
      .object({
        shape: z.literal('capsule'),
        radius: z.number().positive(),
        height: z.number().positive().describe('length of the straight segment, along Y'),
        ...PartBase,
      })
      .strict(),
    z
      .object({
        shape: z.literal('open_box'),
        size: Vec3.describe('outer extents [x, y, z]; open at the top'),
        wall: z.number().positive().default(0.01),
        ...PartBase,
      })
      .strict(),
    z
      .object({
        shape: z.literal('bowl'),
        radius: z.number().positive().describe('outer radius'),
        height: z.number().positive(),
        wall: z.number().positive().default(0.008),
        segments: z.number().int().min(6).max(32).default(12),
        ...PartBase,
      })
      .strict(),
  ]);

  const Properties = z
    .object({
      pickable: z.boolean().default(false),
      openable: z.boolean().default(false),
      toggleable: z.boolean().default(false),
      sliceable: z.boolean().default(false),
      cookable: z.boolean().default(false),
      receptacle: z.boolean().default(false),
      fillable: z.boolean().default(false),
      dirtyable: z.boolean().default(false),
      canSlice: z.boolean().default(false).describe('a cutting tool (a knife)'),
      movable: z.boolean().default(false).describe('a person can push it aside (a chair)'),
    })
    .strict();

  const ObjectStates = z
    .object({
      open: z.boolean().optional(),
      on: z.boolean().optional(),
      sliced: z.boolean().optional(),
      dirty: z.boolean().optional(),
      filled: z.boolean().optional(),
      cooked: z.boolean().optional(),
    })
    .strict();

  const Box = z.object({ center: Vec3, size: Vec3.describe('full extents') }).strict();

  const Articulation = z
    .object({
      kind: z.enum(['hinge', 'slide']),
      parts: z.array(z.string()).min(1).describe('names of the parts that move (a door, a drawer)'),
      pivot: Vec3.describe('hinge point or drawer origin in the body frame'),
      axis: Vec3.describe('hinge axis, or the direction a drawer slides out'),
      open: z.number().describe('open position: degrees for a hinge, metres for a slide'),
    })
    .strict();

  const Receptacle = z
    .object({
      interior: Box.describe('the space objects go into (body frame)'),
      capacity: z.number().int().positive().optional().describe('how many objects fit'),
      maxLoadKg: z.number().positive().optional(),
      enclosed: z.boolean().default(false).describe('closed on all sides when shut (fridge), so contents are hidden'),
      carryLoaded: z
        .boolean()
        .default(false)
        .describe('made to be carried with things inside (a crate with a handle); otherwise it must be emptied before it is picked'),
    })
    .strict();

  const Toggle = z
    .object({
      effect: z.enum(['heat', 'brew', 'water', 'light', 'none']).default('none'),
      zone: Box.optional().describe('where the effect acts (body frame), e.g. under the spout'),
    })
    .strict();

  const ObjectType = z
    .object({
      type: Id.describe('catalogue key, e.g. "apple"'),
      name: z.string().describe('display name, e.g. "apple"'),
      aliases: z.array(z.string()).default([]),
      category: z.string().describe('e.g. fruit, utensil, container, furniture, appliance, tool'),
      description: z.string().optional(),
      color: Color.default('#b0b0b0'),
      parts: z.array(Part).min(1),
      mass: z.number().positive().describe('kg'),
      friction: z.number().min(0).default(0.8),
      restitution: z.number().min(0).max(1).default(0),
      fixed: z.boolean().default(false).describe('furniture and appliances do not move'),
      properties: Properties.default(Properties.parse({})),
      states: ObjectStates.default({}),
      attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
      surfaces: z.array(Box).default([]).describe('tops that things can be placed on (body frame)'),
      receptacle: Receptacle.optional(),
      articulation: Articulation.optional(),
      toggle: Toggle.optional(),
      grasp: z
        .object({
          height: z.number().optional().describe('grasp point height above the object bottom'),
          part: z.string().optional().describe('part to grasp (a handle)'),
          mode: z.enum(['center', 'rim']).default('center').describe('rim: close on the wall nearest the robot (bowls, pots)'),
          wrap: z
            .boolean()
            .default(false)
            .describe(
              'the fingers close around the part (a carry bar or loop handle): it cannot twist out, so the grip resists several times its friction torque',
            ),
        })
        .strict()
        .optional(),
    })
    .strict();

  const MeshType = ObjectType.omit({ parts: true })
    .extend({
      mass: z.number().positive().max(L.massKg, `at most ${L.massKg} kg`).describe('kg'),
      mesh: z.string().min(1).describe('a .glb, .gltf, .stl or .obj file, relative to the scene file'),
      scale: z
        .union([z.number().positive(), z.tuple([z.number().positive(), z.number().positive(), z.number().positive()])])
        .default(1)
        .describe("multiplies the file's coordinates into metres (0.001 for a file in millimetres)"),
      rotation: Vec3.optional().describe('XYZ Euler degrees applied to the file first ([-90, 0, 0] stands a Z-up file upright)'),
      collision: z
        .enum(['hull', 'decomposed'])
        .default('hull')
        .describe('hull: one convex hull; decomposed: convex parts found by V-HACD, for concave shapes (a bowl, a mug)'),
      maxParts: z.number().int().min(1).max(64).default(16).describe('most convex parts a decomposition may make'),
    })
    .strict();

  const Catalogue = z.object({ $schema: z.string().optional(), types: z.array(ObjectType) }).strict();

  const Pose2 = z.object({ position: Vec3, yaw: z.number().default(0).describe('degrees; 0 faces +X, 90 faces -Z (left turn)') }).strict();

  const Deg2 = z.tuple([z.number(), z.number()]).describe('[min, max] degrees');
  const ArmPosture = z
    .tuple([z.number(), z.number(), z.number(), z.number(), z.number()])
    .describe('joint angles in degrees: [yaw, shoulder, elbow, wrist pitch, wrist roll]');

  const ArmConfig = z
    .object({
      mount: Vec3.describe('arm base in the robot base frame'),
      shoulderHeight: z.number().positive().describe('from mount to the shoulder axis'),
      upperArm: z.number().positive(),
      forearm: z.number().positive(),
      hand: z.number().positive().describe('wrist pitch axis to the tool centre point'),
      linkRadius: z.number().positive().default(0.03),
      limits: z.object({ yaw: Deg2, shoulder: Deg2, elbow: Deg2, wristPitch: Deg2, wristRoll: Deg2 }).strict(),
      maxJointSpeed: z.number().positive().describe('degrees per second'),
      maxToolSpeed: z.number().positive().default(0.25).describe('m/s for straight-line approach and retreat'),
      payloadKg: z.number().positive(),
      gripTorqueNm: z.number().positive().describe('torque the fingers hold before the object twists out'),
      gripperMaxOpening: z.number().positive().describe('metres between the fingers when open'),
      fingerLength: z.number().positive().default(0.05),
      postures: z.record(z.string(), ArmPosture).describe('named postures, e.g. home, transport, observe'),
      color: Color.default('#e0e0e0'),
    })
    .strict();

  const RobotConfig = z
    .object({
      $schema: z.string().optional(),
      id: Id,
      title: z.string(),
      kind: z.enum(['fixed_arm', 'mobile_manipulator', 'rover']),
      description: z.string(),
      base: z
        .object({
          size: Vec3.describe('footprint box [length, height, width]'),
          color: Color.default('#3a6ea5'),
          maxSpeed: z.number().positive().default(0.5).describe('m/s'),
          maxYawRate: z.number().positive().default(60).describe('degrees per second'),
          wheelRadius: z.number().positive().optional(),
          autoTuck: z
            .boolean()
            .default(false)
            .describe('tuck the arm by itself before driving (otherwise driving with the arm out is refused)'),
        })
        .strict(),
      arm: ArmConfig.optional(),
      camera: z
        .object({
          mount: z.enum(['head', 'wrist']),
          position: Vec3.describe('head camera position in the base frame'),
          pitch: z.number().default(-30).describe('degrees, negative looks down; a wrist camera is tilted from the hand axis'),
          fov: z.number().positive().default(90).describe('horizontal field of view, degrees'),
          range: z.number().positive().default(3),
        })
        .strict(),
      battery: z
        .object({
          capacityWh: z.number().positive(),
          idleW: z.number().min(0),
          driveWhPerM: z.number().min(0),
          armW: z.number().min(0).describe('extra power while the arm moves'),
          scanWh: z.number().min(0).default(0),
          chargeW: z.number().positive(),
        })
        .strict(),
    })
    .strict();

  const SceneObject = z
    .object({
      id: Id,
      type: Id.describe('a catalogue type'),
      name: z.string().optional().describe('display name override (e.g. "red bowl")'),
      aliases: z.array(z.string()).optional(),
      position: Vec3.optional().describe('body origin; y is computed when "on" or "in" is given'),
      on: Id.optional().describe('rest on this object (placed on its surface at position x/z)'),
      in: Id.optional().describe('rest inside this receptacle'),
      yaw: z.number().default(0).describe('degrees'),
      color: Color.optional(),
      mass: z.number().positive().max(L.massKg, `at most ${L.massKg} kg`).optional(),
      state: ObjectStates.optional(),
      attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
      hidden: z.boolean().optional().describe('not named to the model up front (a distractor it must discover)'),
    })
    .strict();

  const Location = z
    .object({
      id: Id,
      title: z.string().optional(),
      kind: z.enum(['table', 'counter', 'appliance', 'room', 'poi', 'shelter', 'dock', 'entry', 'person', 'waypoint']),
      pose: Pose2.describe('where the robot base stands to work here'),
      serves: z.array(Id).default([]).describe('objects (tables, appliances) reachable from this pose'),
      description: z.string().optional(),
    })
    .strict();

  const ReferencePosition = z.object({ id: z.string().min(1), position: Vec3, description: z.string().optional() }).strict();

  const Person = z
    .object({
      id: Id,
      name: z.string(),
      position: Vec3.describe('feet position'),
      yaw: z.number().default(0),
      height: z.number().positive().max(L.personHeightMetres, `at most ${L.personHeightMetres} m`).default(1.7),
      gaze: z.union([z.literal('robot'), z.literal('away'), Vec3]).default('away'),
      handsFree: z.boolean().default(true),
      known: z.boolean().default(true).describe('the robot has this face on record'),
      seated: z.boolean().default(false),
    })
    .strict();

  const SceneEvent = z.discriminatedUnion('type', [
    z.object({ type: z.literal('estop_pressed') }).strict(),
    z.object({ type: z.literal('estop_released') }).strict(),
    z.object({ type: z.literal('person_said'), person: z.string().optional(), text: Text }).strict(),
    z.object({ type: z.literal('object_moved'), object: z.string(), to: Vec3, by: z.string().optional() }).strict(),
    z.object({ type: z.literal('set_battery'), percent: z.number().min(0).max(100) }).strict(),
  ]);

  const Scene = z
    .object({
      $schema: z.string().optional(),
      id: z.string().regex(/^[a-z][a-z0-9_-]*(\/[a-z][a-z0-9_-]*)?$/, 'a scene id looks like "kitchen" or "tabletop/fruits"'),
      title: Text,
      description: Text,
      paper: z.string().optional().describe('which paper and section the scene comes from'),
      floor: z
        .object({
          size: z
            .tuple([z.number().positive().max(L.floorMetres), z.number().positive().max(L.floorMetres)])
            .describe(`[x, z] extent of the floor in metres, each at most ${L.floorMetres}`),
          color: Color.default('#9a9a9a'),
          kind: z.enum(['floor', 'grass']).default('floor'),
        })
        .strict()
        .default({ size: [6, 6], color: '#9a9a9a', kind: 'floor' }),
      robot: z
        .object({
          config: Id.describe('a robot config in scenes/robots'),
          id: Id.default('robot'),
          pose: Pose2.optional(),
          at: Id.optional().describe('start at this location'),
          posture: z.string().default('home'),
          docked: z.boolean().default(false),
          battery: z
            .object({
              percent: z.number().min(0).max(100).default(100),
              low: z.number().min(0).max(100).default(30),
              critical: z.number().min(0).max(100).default(10),
              drainScale: z.number().positive().default(1).describe('multiplies every consumption rate'),
            })
            .strict()
            .default({ percent: 100, low: 30, critical: 10, drainScale: 1 }),
        })
        .strict(),
      types: list(MeshType, L.meshTypes, 'mesh object types')
        .default([])
        .describe('object types made from mesh files; objects name them by "type" like catalogue types'),
      objects: list(SceneObject, L.objects, 'objects'),
      locations: list(Location, L.locations, 'locations').default([]),
      referencePositions: list(ReferencePosition, L.referencePositions, 'reference positions').default([]),
      people: list(Person, L.people, 'people').default([]),
      perception: z
        .object({
          partialObservability: z.boolean().default(false).describe('the robot knows what is on a surface only after perceiving it there'),
        })
        .strict()
        .default({ partialObservability: false }),
      toolSet: z.string().describe('default tool set for this scene'),
      toolSets: z.array(z.string()).default([]).describe('other tool sets that fit this scene'),
      userInfo: list(Text, L.userInfo, 'user facts').default([]).describe('facts about the user (RAIDER §5.1)'),
      events: list(
        z.object({ at: z.number().min(0).max(L.eventSeconds, `at most ${L.eventSeconds} s after the start`), event: SceneEvent }).strict(),
        L.events,
        'scheduled events',
      ).default([]),
      notes: list(Text, L.notes, 'notes')
        .default([])
        .describe('what is true of the scene at load time, for prompts (affordances, constraints); never a hint at the task'),
    })
    .strict();
  return {
    Vec3,
    Vec2,
    Color,
    Id,
    Part,
    Properties,
    ObjectStates,
    Box,
    Articulation,
    Receptacle,
    Toggle,
    ObjectType,
    MeshType,
    Catalogue,
    Pose2,
    ArmPosture,
    ArmConfig,
    RobotConfig,
    SceneObject,
    Location,
    ReferencePosition,
    Person,
    SceneEvent,
    Scene,
  };
}

export type SceneSchemas = ReturnType<typeof build>;
let built: SceneSchemas | undefined;

/** The schemas of scene, catalogue and robot files (built on first use). */
export function sceneSchemas(): SceneSchemas {
  return (built ??= build());
}

/** A part: a shape from a data file, or a mesh a scene's mesh type was loaded into. */
export type Part = z.infer<SceneSchemas['Part']> | MeshPart;
export type Properties = z.infer<SceneSchemas['Properties']>;
export type ObjectStates = z.infer<SceneSchemas['ObjectStates']>;
export type Box = z.infer<SceneSchemas['Box']>;
export type Articulation = z.infer<SceneSchemas['Articulation']>;
export type ObjectType = Omit<z.infer<SceneSchemas['ObjectType']>, 'parts'> & { parts: Part[] };
export type MeshType = z.infer<SceneSchemas['MeshType']>;
export type ObjectTypeInput = z.input<SceneSchemas['ObjectType']>;
export type Pose2 = z.infer<SceneSchemas['Pose2']>;
export type ArmConfig = z.infer<SceneSchemas['ArmConfig']>;
export type RobotConfig = z.infer<SceneSchemas['RobotConfig']>;
export type SceneObject = z.infer<SceneSchemas['SceneObject']>;
export type Location = z.infer<SceneSchemas['Location']>;
export type Person = z.infer<SceneSchemas['Person']>;
export type SceneEvent = z.infer<SceneSchemas['SceneEvent']>;
export type Scene = z.infer<SceneSchemas['Scene']>;
export type SceneInput = z.input<SceneSchemas['Scene']>;
