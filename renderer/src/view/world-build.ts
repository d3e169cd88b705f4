// Building a scene's meshes once from SceneMeta: lights and backdrop, one node
// per body with its parts merged into one mesh coloured per vertex (one shared
// material, one draw call per body: software GL pays per draw call), wheels,
// location markers, collider wireframes (hidden until asked for), shadows, and
// frozen static bodies.
import type { Engine } from '@babylonjs/core/Engines/engine';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { ShadowGenerator } from '@babylonjs/core/Lights/Shadows/shadowGenerator';
import '@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox, CreateBoxVertexData } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateCapsule, CreateCapsuleVertexData } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import { CreateCylinder, CreateCylinderVertexData } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import { CreateDiscVertexData } from '@babylonjs/core/Meshes/Builders/discBuilder';
import { CreateSphere, CreateSphereVertexData } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import '@babylonjs/core/Rendering/outlineRenderer';
// Every material here is a StandardMaterial: its shaders load with the page rather
// than by a dynamic import the first frame would wait for after the scene is built.
import '@babylonjs/core/Shaders/default.vertex';
import '@babylonjs/core/Shaders/default.fragment';
import { Scene } from '@babylonjs/core/scene';
import type { BodyMeta, SceneMeta, ShapePart } from '../../../contract/schemas';
import { BACKDROPS, buildBackdrop } from './environment';
import { Batches } from './world-batch';

/** What a pickable mesh carries: the id it stands for and the label a person reads. */
export interface Tagged {
  id: string;
  label: string;
}

/** The built scene: nodes and meshes by what they stand for. */
export interface SceneGraph {
  scene: Scene;
  /** Nodes by stream index (what each pose frame moves). */
  streamed: Array<TransformNode | undefined>;
  /** Nodes by id (objects, people, "robot#part", doors as "<id>#door", locations whose id no object has). */
  nodes: Map<string, TransformNode>;
  meshesById: Map<string, Mesh[]>;
  /** The collider wireframes built so far (none until first shown: see buildColliders). */
  colliderMeshes: Mesh[];
  /**
   * Builds the collider wireframes (hidden) on first call, then returns them: most
   * views never show them, and building them would sit before the first frame.
   */
  buildColliders(): Mesh[];
  /** Bodies at rest drawn merged per material and cell, and the undrawn meshes that stand for each (world-batch.ts). */
  batched: Batches;
}

export interface BuildOptions {
  /** Software GL: no specular term, no image-processing pass. */
  software: boolean;
  shadows: boolean;
}

/** Builds the whole scene for `meta` on `engine`. */
export function buildScene(engine: Engine, meta: SceneMeta, opts: BuildOptions): SceneGraph {
  const scene = new Scene(engine);
  scene.useRightHandedSystem = true;
  const backdrop = BACKDROPS[meta.environment];
  const built = buildBackdrop(scene, meta, opts.software);

  const hemi = new HemisphericLight('ambient', new Vector3(0.2, 1, 0.1), scene);
  hemi.intensity = 0.62;
  hemi.diffuse = backdrop.ambientSky;
  hemi.groundColor = backdrop.ambientGround;
  const sun = new DirectionalLight('sun', new Vector3(-0.45, -1, -0.3), scene);
  sun.intensity = backdrop.sunIntensity;
  sun.position = new Vector3(4, 10, 3);
  if (opts.software) {
    // Software GL pays per pixel: no specular term and no image-processing pass in
    // the shaders (exposure and contrast are 1, so the colours do not change).
    hemi.specular = Color3.Black();
    sun.specular = Color3.Black();
    scene.imageProcessingConfiguration.isEnabled = false;
  }

  // Batches made or dropped later (a body leaving its batch) cast shadows in place of their meshes.
  let sg: ShadowGenerator | undefined;
  const batched = new Batches(undefined, (made, dropped, freed) => {
    for (const m of dropped) sg?.removeShadowCaster(m, false);
    for (const m of [...made, ...freed]) sg?.addShadowCaster(m, false);
  });
  const b = new Builder(scene, meta.stream.length, batched, meta.environment === 'field' ? COARSE : FINE);
  const casters: Mesh[] = [];
  const receivers: Mesh[] = [...built.receivers];
  for (const o of meta.objects) {
    const label = o.name === o.id ? o.id : `${o.name} (${o.id})`;
    const meshes = b.body(o.id, { id: o.id, label }, o.body);
    casters.push(...meshes);
    if (o.fixed) receivers.push(...meshes);
    if (o.door) casters.push(...b.body(`${o.id}#door`, { id: o.id, label }, o.door));
  }
  for (const p of meta.people) casters.push(...b.body(p.id, { id: p.id, label: `${p.name} (person)` }, p.body));
  const r = meta.robot;
  // The wheels turn with the base: drawn in its mesh.
  const wheels = wheelPieces(meta);
  for (const body of r.bodies)
    casters.push(...b.body(`robot#${body.part}`, { id: 'robot', label: r.title }, body, body.part === 'base' ? wheels : []));
  b.locations(meta);

  for (const m of receivers) m.receiveShadows = opts.shadows;
  b.freezeStatic(meta);
  // After freezing: the batches are built from the meshes of the bodies at rest where they stand.
  const batches = batched.add(b.restingMeshes(meta), b.movableNodes(meta));
  if (opts.shadows) {
    sg = new ShadowGenerator(1024, sun);
    sg.bias = 0.0015;
    sg.normalBias = 0.01;
    sg.darkness = 0.35;
    // The batches cast for the meshes they replace (undrawn meshes cast no shadow).
    for (const m of [...casters, ...batches]) if (!batched.proxies.has(m)) sg.addShadowCaster(m, false);
  }
  // The backdrop never moves nor changes colour (frozen once its shadows are set: a material compiles on its first draw).
  for (const m of built.receivers) {
    m.computeWorldMatrix(true);
    m.freezeWorldMatrix();
    m.doNotSyncBoundingInfo = true;
    m.material?.freeze();
  }
  return b.graph;
}

/**
 * Triangles as vertex data, drawn from both sides: a described robot's mesh may
 * wind its faces either way, and its convex hulls are small enough to send twice.
 */
function trianglesData(positions: readonly number[], indices: readonly number[]): VertexData {
  const n = positions.length / 3;
  const d = new VertexData();
  d.positions = [...positions, ...positions];
  const back: number[] = [];
  for (let i = 0; i + 2 < indices.length; i += 3) back.push(indices[i]! + n, indices[i + 2]! + n, indices[i + 1]! + n);
  d.indices = [...indices, ...back];
  const normals: number[] = [];
  VertexData.ComputeNormals(d.positions, d.indices, normals);
  d.normals = normals;
  return d;
}

/**
 * How finely round shapes are cut. A field is seen from tens of metres: its
 * plants' small spheres and posts look the same with fewer facets, and the
 * vertices saved are most of what a field draws. Large shapes (a tree's crown)
 * keep their facets.
 */
export interface Detail {
  sphere: number;
  cylinder: number;
  capsule: number;
}
export const FINE: Detail = { sphere: 12, cylinder: 20, capsule: 14 };
export const COARSE: Detail = { sphere: 8, cylinder: 10, capsule: 8 };
/** Radius from which a coarse scene still cuts a shape finely, metres. */
const LARGE_M = 0.5;

/** The facets for a shape of radius `r` in a scene drawn at `detail`. */
export function facets(detail: Detail, r: number): Detail {
  return r >= LARGE_M ? FINE : detail;
}

/** A part's shape as vertex data, placed where the part sits in its body, coloured. */
function partData(part: ShapePart, detail: Detail): VertexData {
  const g = part.geometry;
  let d: VertexData;
  switch (g.shape) {
    case 'mesh':
      d = trianglesData(g.positions, g.indices);
      break;
    case 'box':
      d = CreateBoxVertexData({ width: g.size[0], height: g.size[1], depth: g.size[2] });
      break;
    case 'sphere':
      d = CreateSphereVertexData({ diameter: g.radius * 2, segments: facets(detail, g.radius).sphere });
      break;
    case 'cylinder':
      d = CreateCylinderVertexData({ height: g.height, diameter: g.radius * 2, tessellation: facets(detail, g.radius).cylinder });
      break;
    case 'capsule':
      d = CreateCapsuleVertexData({
        height: g.height + g.radius * 2,
        radius: g.radius,
        tessellation: facets(detail, g.radius).capsule,
        capSubdivisions: 4,
      });
      break;
  }
  const [x, y, z] = part.position;
  const [qx, qy, qz, qw] = part.rotation;
  d.transform(Matrix.Compose(Vector3.One(), new Quaternion(qx, qy, qz, qw), new Vector3(x, y, z)));
  return coloured(d, part.color);
}

/**
 * Paints every vertex with a colour: the shared body material is white, and
 * the standard shader multiplies its diffuse term by the vertex colour, which
 * draws exactly what a material of that diffuse colour drew.
 */
export function coloured(d: VertexData, hex: string): VertexData {
  const c = Color3.FromHexString(hex);
  const n = (d.positions?.length ?? 0) / 3;
  const colors = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) colors.set([c.r, c.g, c.b, 1], i * 4);
  d.colors = colors;
  return d;
}

/** The robot's wheels as coloured pieces placed in its base's frame (none for a robot without wheels). */
function wheelPieces(meta: SceneMeta): VertexData[] {
  const r = meta.robot.wheelRadius;
  if (r === null) return [];
  const [len, , width] = meta.robot.baseSize;
  const xs = meta.robot.kind === 'rover' ? [-len * 0.36, 0, len * 0.36] : [-len * 0.3, len * 0.3];
  // The wheel's axle along z: the cylinder (along y) turned a quarter about x.
  const axle = Quaternion.RotationAxis(Vector3.Right(), Math.PI / 2);
  const wheels: VertexData[] = [];
  for (const x of xs) {
    for (const side of [-1, 1]) {
      const w = CreateCylinderVertexData({ height: 0.07, diameter: r * 2, tessellation: 18 });
      w.transform(Matrix.Compose(Vector3.One(), axle, new Vector3(x, r, side * (width / 2 + 0.04))));
      wheels.push(coloured(w, WHEEL_COLOUR));
    }
  }
  return wheels;
}

const WHEEL_COLOUR = '#2b2d31';

/**
 * One mesh from several placed pieces, merged as vertex data: the pieces never
 * become meshes (with their own GPU buffers made, then freed by a mesh merge).
 */
function mergedMesh(name: string, pieces: VertexData[], scene: Scene): Mesh {
  const [first, ...rest] = pieces;
  const m = new Mesh(name, scene);
  if (first) (rest.length ? first.merge(rest, true) : first).applyToMesh(m);
  return m;
}

export class Builder {
  readonly graph: SceneGraph;
  private bodyMat: StandardMaterial | undefined;
  /** The location markers' nodes (a location may share its id with an object: the object keeps the id's node). */
  private readonly locationNodes: TransformNode[] = [];
  /** Each body's colliders, built into wireframes only when first shown. */
  private readonly colliderSpecs: Array<{ key: string; node: TransformNode; parts: ShapePart[] }> = [];
  private collidersBuilt = false;

  constructor(
    private readonly scene: Scene,
    streams: number,
    batched: Batches,
    private readonly detail: Detail,
  ) {
    this.graph = {
      scene,
      streamed: new Array<TransformNode | undefined>(streams),
      nodes: new Map(),
      meshesById: new Map(),
      colliderMeshes: [],
      buildColliders: () => this.colliders(),
      batched,
    };
  }

  private colliders(): Mesh[] {
    const out = this.graph.colliderMeshes;
    if (this.collidersBuilt) return out;
    this.collidersBuilt = true;
    const mat = new StandardMaterial('collider-mat', this.scene);
    mat.emissiveColor = Color3.FromHexString('#39d353');
    mat.diffuseColor = Color3.Black();
    mat.wireframe = true;
    mat.disableLighting = true;
    for (const { key, node, parts } of this.colliderSpecs)
      parts.forEach((c, i) => {
        const m = this.primitive(c, `${key}:collider${i}`);
        m.parent = node;
        m.material = mat;
        m.isPickable = false;
        m.setEnabled(false);
        out.push(m);
      });
    return out;
  }

  /** Every body's material: white diffuse (the colour is each vertex's), the same specular for all. */
  private bodyMaterial(): StandardMaterial {
    if (!this.bodyMat) {
      const m = new StandardMaterial('body-mat', this.scene);
      m.diffuseColor = Color3.White();
      m.specularColor = new Color3(0.14, 0.14, 0.14);
      m.specularPower = 48;
      this.bodyMat = m;
    }
    return this.bodyMat;
  }

  private primitive(part: ShapePart, name: string): Mesh {
    const g = part.geometry;
    const scene = this.scene;
    let m: Mesh;
    switch (g.shape) {
      case 'mesh':
        m = new Mesh(name, scene);
        trianglesData(g.positions, g.indices).applyToMesh(m);
        break;
      case 'box':
        m = CreateBox(name, { width: g.size[0], height: g.size[1], depth: g.size[2] }, scene);
        break;
      case 'sphere':
        m = CreateSphere(name, { diameter: g.radius * 2, segments: 12 }, scene);
        break;
      case 'cylinder':
        m = CreateCylinder(name, { height: g.height, diameter: g.radius * 2, tessellation: 20 }, scene);
        break;
      case 'capsule':
        m = CreateCapsule(name, { height: g.height + g.radius * 2, radius: g.radius, tessellation: 14, capSubdivisions: 4 }, scene);
        break;
    }
    m.position.set(part.position[0], part.position[1], part.position[2]);
    m.rotationQuaternion = new Quaternion(part.rotation[0], part.rotation[1], part.rotation[2], part.rotation[3]);
    return m;
  }

  /** One node per body; its parts (and `extra` pieces, already coloured) merged into one mesh. */
  body(key: string, tag: Tagged, body: BodyMeta, extra: readonly VertexData[] = []): Mesh[] {
    const g = this.graph;
    const node = new TransformNode(key, this.scene);
    node.position.set(body.position[0], body.position[1], body.position[2]);
    node.rotationQuaternion = new Quaternion(body.rotation[0], body.rotation[1], body.rotation[2], body.rotation[3]);
    if (body.stream !== null) g.streamed[body.stream] = node;
    g.nodes.set(key, node);
    const pieces = [...body.parts.map((p) => partData(p, this.detail)), ...extra];
    const out: Mesh[] = [];
    if (pieces.length) {
      const merged = mergedMesh(`${key}:body`, pieces, this.scene);
      merged.parent = node;
      merged.material = this.bodyMaterial();
      merged.metadata = tag;
      out.push(merged);
    }
    const list = g.meshesById.get(tag.id) ?? [];
    list.push(...out);
    g.meshesById.set(tag.id, list);
    if (body.colliders.length) this.colliderSpecs.push({ key, node, parts: body.colliders });
    return out;
  }

  locations(meta: SceneMeta): void {
    const mat = new StandardMaterial('location-mat', this.scene);
    mat.diffuseColor = Color3.FromHexString('#2f6fde');
    mat.emissiveColor = Color3.FromHexString('#10306a');
    mat.alpha = 0.75;
    for (const l of meta.locations) {
      const node = new TransformNode(`loc:${l.id}`, this.scene);
      node.position.set(l.position[0], 0.004, l.position[2]);
      node.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 1, 0), (l.yawDeg * Math.PI) / 180);
      const disc = CreateDiscVertexData({ radius: 0.16, tessellation: 24 });
      disc.transform(Matrix.RotationX(Math.PI / 2));
      const arrow = CreateBoxVertexData({ width: 0.22, height: 0.004, depth: 0.035 });
      arrow.transform(Matrix.Translation(0.18, 0.002, 0));
      const merged = mergedMesh(`loc:${l.id}:disc_merged`, [disc, arrow], this.scene);
      merged.parent = node;
      merged.material = mat;
      merged.metadata = { id: l.id, label: `${l.title ?? l.id} (${l.kind} location)` } satisfies Tagged;
      this.locationNodes.push(node);
      // "counter_1" is a counter and the place in front of it: the id's node stays the body's, and a highlight shows both.
      if (!this.graph.nodes.has(l.id)) this.graph.nodes.set(l.id, node);
      this.graph.meshesById.set(l.id, [...(this.graph.meshesById.get(l.id) ?? []), merged]);
    }
    mat.freeze();
  }

  /**
   * The nodes that never move: bodies that stream no poses (tables, counters, walls,
   * shelters; not doors) and the location markers painted on the floor. They keep
   * their world matrices, and colours never change: freezing both saves per-frame
   * CPU, which software GL shares with the rasteriser.
   */
  private stillNodes(meta: SceneMeta): TransformNode[] {
    const bodies = meta.objects.filter((o) => o.body.stream === null && !o.door).flatMap((o) => this.graph.nodes.get(o.id) ?? []);
    return [...bodies, ...this.locationNodes];
  }

  /**
   * The drawn meshes of the bodies batched while at rest: the still ones and the
   * movable objects (not doors, people nor the robot, which move often).
   */
  restingMeshes(meta: SceneMeta): Mesh[] {
    const bodies = meta.objects.filter((o) => !o.door).flatMap((o) => this.graph.nodes.get(o.id)?.getChildMeshes(false) ?? []);
    return [...bodies, ...this.locationNodes.flatMap((n) => n.getChildMeshes(false))] as Mesh[];
  }

  /** The nodes of the movable objects among them (watched: one that moves leaves its batch). */
  movableNodes(meta: SceneMeta): Set<TransformNode> {
    const ids = meta.objects.filter((o) => !o.door && o.body.stream !== null).map((o) => o.id);
    return new Set(ids.flatMap((id) => this.graph.nodes.get(id) ?? []));
  }

  freezeStatic(meta: SceneMeta): void {
    for (const node of this.stillNodes(meta)) {
      node.computeWorldMatrix(true);
      node.freezeWorldMatrix();
      for (const m of node.getChildMeshes(false)) {
        m.computeWorldMatrix(true);
        m.freezeWorldMatrix();
        // Their bounds were computed with the matrix: no per-frame bounding update.
        m.doNotSyncBoundingInfo = true;
      }
    }
    this.bodyMat?.freeze();
  }
}
