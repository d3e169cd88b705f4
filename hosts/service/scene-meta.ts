// Static scene metadata for the renderer, built once per load from the resolved
// scene and the world just built from it: shapes, colours, sizes, robot bodies,
// places and people, and the order of bodies in every pose frame.
import type { Environment, SceneMeta, ShapePart } from '../../contract/schemas';
import type { PrimitivePart } from '../../scenes/shapes';
import { bodyShapes } from '../../sim/world/body-shapes';
import { drawNotes, linkParts, linksOfBodies } from './robot-drawing';
import { type Pose, qEulerDeg } from '../../sim/math';
import { type StreamEntry, streamEntries } from '../../sim/world/stream';
import type { SimWorld } from '../../sim/world/sim-world';

export const ARM_JOINTS = ['yaw', 'shoulder', 'elbow', 'wristPitch', 'wristRoll', 'gripper'] as const;

/** The joints a frame carries after the poses: the arm's own (a described arm's by their URDF names), then the gripper. */
export function armJointNames(sim: SimWorld): string[] {
  if (!sim.scene.robot.arm) return [];
  const k = sim.kinematics;
  return k?.kind === 'chain' ? [...k.jointNames, 'gripper'] : [...ARM_JOINTS];
}

/** The arm's joint values and the gripper opening into a frame at `offset`: `count` slots (armJointNames' length). */
export function writeJoints(sim: SimWorld, frame: Float32Array, offset: number, count: number): void {
  if (!count) return;
  const q = sim.body.q;
  for (let i = 0; i < count - 1; i++) frame[offset + i] = q?.[i] ?? 0;
  frame[offset + count - 1] = sim.body.opening;
}

const COLLIDER_COLOUR = '#39d353';

function tuple3(v: { x: number; y: number; z: number }): [number, number, number] {
  return [v.x, v.y, v.z];
}

function quat4(q: { x: number; y: number; z: number; w: number }): [number, number, number, number] {
  return [q.x, q.y, q.z, q.w];
}

function visualParts(prims: readonly PrimitivePart[], fallback: string): ShapePart[] {
  return prims
    .filter((p) => p.visual)
    .map((p) => ({
      name: p.name,
      // A mesh goes to the view as its triangles alone (how it collides is the physics' business).
      geometry:
        p.geometry.shape === 'mesh' ? { shape: 'mesh' as const, positions: p.geometry.positions, indices: p.geometry.indices } : p.geometry,
      position: [...p.position],
      rotation: quat4(qEulerDeg(p.rotation)),
      color: p.color ?? fallback,
    }));
}

function colliderParts(sim: SimWorld, handle: number, colour = COLLIDER_COLOUR): ShapePart[] {
  return bodyShapes(sim, handle).map((s) => ({
    name: '',
    geometry: s.geometry,
    position: s.position,
    rotation: s.rotation,
    color: colour,
  }));
}

/** Which backdrop the view draws: the data says grass for fields; kitchens and benches by id and robot. */
export function environmentOf(sim: SimWorld): Environment {
  const s = sim.scene.scene;
  if (s.floor.kind === 'grass' || sim.scene.robot.kind === 'rover') return 'field';
  if (s.id.startsWith('kitchen')) return 'kitchen';
  if (sim.scene.robot.kind === 'fixed_arm') return 'workbench';
  return 'workshop';
}

function darken(hex: string, f: number): string {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((x) => Math.round(x * f));
  return `#${c.map((x) => x.toString(16).padStart(2, '0')).join('')}`;
}

export interface BuiltMeta {
  meta: SceneMeta;
  entries: StreamEntry[];
}

export function buildSceneMeta(sim: SimWorld, generation: number): BuiltMeta {
  const entries = streamEntries(sim);
  const index = new Map(entries.map((e, i) => [e.id, i]));
  const pose = (handle: number): { position: [number, number, number]; rotation: [number, number, number, number] } => {
    const p: Pose = sim.bodyPose(handle);
    return { position: tuple3(p.p), rotation: quat4(p.q) };
  };
  const scene = sim.scene.scene;
  const cfg = sim.scene.robot;
  const objects: SceneMeta['objects'] = [...sim.entities.values()].map((e) => {
    const size = tuple3({
      x: e.localAabb.max.x - e.localAabb.min.x,
      y: e.localAabb.max.y - e.localAabb.min.y,
      z: e.localAabb.max.z - e.localAabb.min.z,
    });
    return {
      id: e.id,
      name: e.spec.name,
      type: e.spec.type,
      category: e.spec.category,
      color: e.spec.color,
      fixed: e.fixed,
      hidden: e.spec.hidden,
      size,
      body: {
        stream: index.get(e.id) ?? null,
        ...pose(e.body),
        parts: visualParts(e.prims, e.spec.color),
        colliders: colliderParts(sim, e.body),
      },
      door: e.door
        ? {
            stream: index.get(`${e.id}#door`) ?? null,
            ...pose(e.door.body),
            parts: visualParts(e.door.prims, e.spec.color),
            colliders: colliderParts(sim, e.door.body),
          }
        : null,
      states: { ...e.states },
    };
  });
  const armColor = cfg.arm?.color ?? '#e0e0e0';
  const links = linksOfBodies(sim);
  const bodies: SceneMeta['robot']['bodies'] = entries
    .filter((e) => e.kind === 'base' || e.kind === 'arm')
    .map((e) => {
      const part = e.id.slice('robot#'.length);
      const colour = part === 'base' ? cfg.base.color : part.startsWith('finger') || part === 'hand' ? darken(armColor, 0.55) : armColor;
      // A described robot's link is drawn from its <visual>; the scene's own robot from its colliders.
      const link = links.get(e.body);
      const collision = () => colliderParts(sim, e.body, colour);
      const shapes = (link !== undefined ? linkParts(sim, link, colour, collision) : undefined) ?? collision();
      return { part, stream: index.get(e.id) ?? null, ...pose(e.body), parts: shapes, colliders: colliderParts(sim, e.body) };
    });
  const people: SceneMeta['people'] = [...sim.people.values()].map((p) => {
    const h = p.spec.seated ? p.spec.height * 0.7 : p.spec.height;
    const torso = Math.max(0.2, h - 0.3 - 0.34);
    return {
      id: p.spec.id,
      name: p.spec.name,
      height: p.spec.height,
      seated: p.spec.seated,
      body: {
        stream: index.get(p.spec.id) ?? null,
        ...pose(p.body),
        parts: [
          {
            name: 'torso',
            geometry: { shape: 'capsule', radius: 0.17, height: torso },
            position: [0, (h - 0.26) / 2 + 0.02, 0],
            rotation: [0, 0, 0, 1],
            color: '#4f6d8f',
          },
          {
            name: 'head',
            geometry: { shape: 'sphere', radius: 0.11 },
            position: [0, h - 0.12, 0],
            rotation: [0, 0, 0, 1],
            color: '#e0b899',
          },
        ],
        colliders: colliderParts(sim, p.body),
      },
    };
  });
  const meta: SceneMeta = {
    id: scene.id,
    title: scene.title,
    description: scene.description,
    generation,
    environment: environmentOf(sim),
    floor: { size: [...scene.floor.size], color: scene.floor.color, kind: scene.floor.kind },
    objects,
    robot: {
      id: scene.robot.id,
      title: cfg.title,
      kind: cfg.kind,
      description: cfg.description,
      baseColor: cfg.base.color,
      armColor,
      baseSize: [...cfg.base.size],
      wheelRadius: cfg.base.wheelRadius ?? (cfg.kind === 'fixed_arm' ? null : Math.min(0.12, cfg.base.size[1] * 0.4)),
      bodies,
      camera: {
        mount: cfg.camera.mount,
        position: [...cfg.camera.position],
        pitchDeg: cfg.camera.pitch,
        fovDeg: cfg.camera.fov,
        range: cfg.camera.range,
      },
      jointNames: armJointNames(sim),
      drawNotes: drawNotes(sim),
    },
    locations: scene.locations.map((l) => ({
      id: l.id,
      title: l.title ?? null,
      kind: l.kind,
      position: [...l.pose.position],
      yawDeg: l.pose.yaw,
    })),
    people,
    stream: entries.map((e) => e.id),
    toolSet: scene.toolSet,
    notes: scene.notes,
  };
  return { meta, entries };
}
