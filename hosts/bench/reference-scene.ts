// The reference physics scene of ../shared/research/performance-anchors.md §1.2:
// three stacks of ten 4 cm boxes and 20 loose ones on an 8 cm grid, a 6-joint arm
// beside them, 240 Hz, every body awake. Two renditions:
// - anchorsWorld: built directly in Rapier exactly as the anchors describe it
//   (motorised arm, ForceBased PD motors), for bare-engine figures per build;
// - referenceSceneData: the same boxes as a Skillbridge scene with our arm, so
//   the full simulation runs it as it runs any scene.
import type { SceneInput } from '../../scenes/schema';
import type { Rapier, RAPIER } from '../../sim/rapier';

export const BOX = 0.04;
const GRID = 0.08;
const STACKS = 3;
const STACK_HEIGHT = 10;
const LOOSE = 20;
const TABLE_TOP = 0.75;

/** Seeded yaw for the loose boxes (mulberry32), the same in every rendition. */
function yaws(seed = 7): number[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: LOOSE }, () => next() * Math.PI);
}

/** Grid cells (x, z) relative to the grid origin: the stacks first, then the loose boxes. */
function cells(): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const cols = 6;
  for (let i = 0; i < STACKS + LOOSE; i++) out.push([(i % cols) * GRID, Math.floor(i / cols) * GRID]);
  return out;
}

export interface BareWorld {
  world: RAPIER.World;
  /** Commands the arm (if any) and steps once. */
  step(): void;
  /** Stacks whose top box is less than a box height lower and less than 2 cm off its start. */
  stacksStanding(): number;
  free(): void;
}

const GROUP_ENV = 0x0001_0002;
const GROUP_BOX = 0x0002_0007;
const GROUP_ARM = 0x0004_0002;

/** Six revolute joints (axes Y, Z, Z, Y, Z, Y), box links 6 cm thick, ~3 kg, on a pedestal 70 cm from the boxes. */
const LINKS = [0.12, 0.25, 0.22, 0.1, 0.08, 0.06];
const AXES: Array<[number, number, number]> = [
  [0, 1, 0],
  [0, 0, 1],
  [0, 0, 1],
  [0, 1, 0],
  [0, 0, 1],
  [0, 1, 0],
];
const ARM_DENSITY = 3.0 / (0.06 * 0.06 * LINKS.reduce((s, l) => s + l, 0));
const KP = 1e5;
const KD = 10;

export function anchorsWorld(R: Rapier, dt = 1 / 240): BareWorld {
  const world = new R.World({ x: 0, y: -9.81, z: 0 });
  world.timestep = dt;
  const fixed = (x: number, y: number, z: number, hx: number, hy: number, hz: number): void => {
    const b = world.createRigidBody(R.RigidBodyDesc.fixed().setTranslation(x, y, z));
    world.createCollider(R.ColliderDesc.cuboid(hx, hy, hz).setCollisionGroups(GROUP_ENV), b);
  };
  fixed(0, -0.05, 0, 5, 0.05, 5);
  fixed(0, TABLE_TOP - 0.02, 0, 0.95, 0.02, 0.5);

  // Boxes: the grid centred on the table's right half, every box 0.5 mm above its support.
  const x0 = 0.05;
  const z0 = -0.12;
  const tops: Array<{ body: RAPIER.RigidBody; x: number; y: number; z: number }> = [];
  const yaw = yaws();
  cells().forEach(([cx, cz], i) => {
    const n = i < STACKS ? STACK_HEIGHT : 1;
    const q = i < STACKS ? 0 : yaw[i - STACKS]!;
    let body: RAPIER.RigidBody | undefined;
    let y = 0;
    for (let k = 0; k < n; k++) {
      y = TABLE_TOP + BOX / 2 + 0.0005 + k * (BOX + 0.0005);
      body = world.createRigidBody(
        R.RigidBodyDesc.dynamic()
          .setTranslation(x0 + cx, y, z0 + cz)
          .setRotation({ x: 0, y: Math.sin(q / 2), z: 0, w: Math.cos(q / 2) })
          .setCanSleep(false),
      );
      world.createCollider(
        R.ColliderDesc.cuboid(BOX / 2, BOX / 2, BOX / 2)
          .setDensity(0.05 / BOX ** 3)
          .setFriction(0.6)
          .setRestitution(0)
          .setCollisionGroups(GROUP_BOX),
        body,
      );
    }
    if (i < STACKS && body) tops.push({ body, x: x0 + cx, y, z: z0 + cz });
  });

  // The arm: a pedestal on the table 70 cm left of the grid, links standing upright.
  const px = x0 - 0.7;
  const pedestalTop = TABLE_TOP + 0.1;
  fixed(px, TABLE_TOP + 0.05, z0, 0.06, 0.05, 0.06);
  let parent = world.createRigidBody(R.RigidBodyDesc.fixed().setTranslation(px, pedestalTop, z0));
  let parentLen = 0;
  let base = pedestalTop;
  const joints: RAPIER.RevoluteImpulseJoint[] = [];
  for (let i = 0; i < LINKS.length; i++) {
    const len = LINKS[i]!;
    const link = world.createRigidBody(
      R.RigidBodyDesc.dynamic()
        .setTranslation(px, base + len / 2, z0)
        .setCanSleep(false),
    );
    world.createCollider(
      R.ColliderDesc.cuboid(0.03, len / 2, 0.03)
        .setDensity(ARM_DENSITY)
        .setCollisionGroups(GROUP_ARM),
      link,
    );
    const [ax, ay, az] = AXES[i]!;
    const data = R.JointData.revolute({ x: 0, y: i === 0 ? 0 : parentLen / 2, z: 0 }, { x: 0, y: -len / 2, z: 0 }, { x: ax, y: ay, z: az });
    const j = world.createImpulseJoint(data, parent, link, true) as RAPIER.RevoluteImpulseJoint;
    j.configureMotorModel(R.MotorModel.ForceBased);
    joints.push(j);
    parent = link;
    parentLen = len;
    base += len;
  }
  // θ_d(t) = A·sin(2πft + φ), A 0.3–0.5 rad, f 0.2–0.45 Hz, with the matching velocity.
  const amp = [0.3, 0.4, 0.5, 0.35, 0.45, 0.3];
  const freq = [0.2, 0.25, 0.3, 0.35, 0.4, 0.45];
  let t = 0;
  return {
    world,
    step() {
      for (let i = 0; i < joints.length; i++) {
        const w = 2 * Math.PI * freq[i]!;
        const ph = i * 0.7;
        joints[i]!.configureMotor(amp[i]! * Math.sin(w * t + ph), amp[i]! * w * Math.cos(w * t + ph), KP, KD);
      }
      world.step();
      t += dt;
    },
    stacksStanding() {
      return tops.filter(({ body, x, y, z }) => {
        const p = body.translation();
        return y - p.y < BOX && Math.hypot(p.x - x, p.z - z) < 0.02;
      }).length;
    },
    free() {
      world.free();
    },
  };
}

/** Our rendition: the arm at its own table, the 50 boxes (4 cm, 50 g) on a second table beyond its reach. */
export function referenceSceneData(): SceneInput {
  const yaw = yaws();
  const objects: SceneInput['objects'] = [
    { id: 'table_1', type: 'work_table', position: [0.3, 0, 0] },
    { id: 'table_2', type: 'work_table', position: [1.3, 0, 0] },
  ];
  cells().forEach(([cx, cz], i) => {
    const x = 1.05 + cx;
    const z = -0.12 + cz;
    if (i < STACKS) {
      for (let k = 0; k < STACK_HEIGHT; k++)
        objects.push({ id: `box_${i}_${k}`, type: 'toy_block', mass: 0.05, on: k ? `box_${i}_${k - 1}` : 'table_2', position: [x, 0, z] });
    } else {
      const deg = (yaw[i - STACKS]! * 180) / Math.PI;
      objects.push({ id: `box_loose_${i - STACKS}`, type: 'toy_block', mass: 0.05, on: 'table_2', position: [x, 0, z], yaw: deg });
    }
  });
  return {
    id: 'bench/reference',
    title: 'Reference scene (performance anchors)',
    description: 'Three 10-box stacks and 20 loose 4 cm boxes beside a tabletop arm: the physics benchmark scene.',
    robot: { config: 'tabletop_arm', pose: { position: [-0.05, 0.75, 0], yaw: 0 }, posture: 'home' },
    objects,
    toolSet: 'alrm',
  };
}

/** The stack tops of a built reference scene, by id. */
export const STACK_TOPS = Array.from({ length: STACKS }, (_, i) => `box_${i}_${STACK_HEIGHT - 1}`);
