// The app draws a described robot's <visual> geometry, not its collision shapes:
// meshes as their own triangles (scaled by <mesh scale>), boxes and cylinders as
// written, each where the visual's <origin> puts it in its link, coloured by its
// material (its own rgba or the robot's named one). A visual the app cannot
// draw from its file (COLLADA) is drawn as the link's collision shapes, and the
// scene meta says so on that link.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESH_MAX_VERTICES, SceneMeta, type ShapePart } from '../../contract/schemas';
import { loadRobot } from '../../scenes/urdf/load';
import { readMesh } from '../../scenes/urdf/mesh';
import { LINK_MAX_VERTICES } from '../../scenes/urdf/visuals';
import { robotFiles } from '../../test/support/robot-files';
import { AppService } from './app-service';

const UR5E = join(import.meta.dirname, '../../test/fixtures/robots/ur5e_like');

/** The ur5e_like folder copied, its URDF edited by `edit`. */
function variant(edit: (urdf: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-draw-'));
  cpSync(UR5E, join(dir, 'ur5e_like'), { recursive: true });
  const file = join(dir, 'ur5e_like/urdf/ur5e_like.urdf');
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  return file;
}

const VARIANT = variant((u) =>
  u
    // The forearm drawn as a red box (a named material of the robot), turned a quarter about URDF x and raised 0.1 m.
    .replace(
      '<visual><origin xyz="-0.1961 0 0.007" rpy="0 1.5707963268 0"/><geometry><cylinder radius="0.04" length="0.3922"/></geometry><material name="grey"/></visual>',
      '<visual><origin xyz="0 0 0.1" rpy="1.5707963268 0 0"/><geometry><box size="0.1 0.2 0.3"/></geometry><material name="red"/></visual>',
    )
    .replace('<material name="grey">', '<material name="red"><color rgba="1 0 0 1"/></material><material name="grey">')
    // The second wrist's visual twice the size of its collision mesh, in its own blue.
    .replace(
      /(<link name="wrist_2_link">[\s\S]*?)<visual>[\s\S]*?<\/visual>/,
      '$1<visual><geometry><mesh filename="package://ur5e_like/meshes/wrist.obj" scale="2 2 2"/></geometry><material name="b"><color rgba="0 0 1 0.5"/></material></visual>',
    )
    // The third wrist's visual a COLLADA file: drawn as its collision cylinder.
    .replace(
      /(<link name="wrist_3_link">[\s\S]*?)<visual>[\s\S]*?<\/visual>/,
      '$1<visual><geometry><mesh filename="package://ur5e_like/meshes/wrist3.dae"/></geometry></visual>',
    ),
);

async function sceneOf(file: string): Promise<{ meta: SceneMeta; session: AppService }> {
  const session = new AppService({ paced: false, urdf: loadRobot(robotFiles(file)) });
  return { meta: await session.loadScene({ id: 'tabletop/fruits' }), session };
}

const partsOf = (meta: SceneMeta, part: string): ShapePart[] => meta.robot.bodies.find((b) => b.part === part)!.parts;

describe('a described robot is drawn from its <visual> geometry', () => {
  let ur: { meta: SceneMeta; session: AppService };
  let edited: { meta: SceneMeta; session: AppService };
  beforeAll(async () => {
    ur = await sceneOf(join(UR5E, 'urdf/ur5e_like.urdf'));
    edited = await sceneOf(VARIANT);
  });
  afterAll(async () => {
    await ur.session.dispose();
    await edited.session.dispose();
  });

  it("draws an STL visual as the file's own triangles, in the material's colour", () => {
    expect(SceneMeta.parse(ur.meta)).toEqual(ur.meta);
    // The shoulder (the turret part): shoulder.stl, grey 0.7 (#b3b3b3), named at robot level.
    const stl = readMesh('s.stl', readFileSync(join(UR5E, 'meshes/shoulder.stl')));
    const [shoulder] = partsOf(ur.meta, 'turret');
    expect(shoulder!.color).toBe('#b3b3b3');
    if (shoulder!.geometry.shape !== 'mesh') throw new Error('the shoulder is a mesh');
    expect(shoulder!.geometry.indices.length).toBe(stl.triangles * 3);
    // The fingers have no material: the arm's own colour, darkened as the hand's parts are.
    expect(partsOf(ur.meta, 'fingerA')[0]!.color).not.toBe('#b3b3b3');
    expect(ur.meta.robot.drawNotes).toEqual([]);
  });

  it("places a visual by its <origin>, sizes it as written, and colours it by the robot's named material", () => {
    // The forearm is the 'fore' part: a box 0.1 × 0.2 × 0.3 (URDF x, y, z) turned a quarter about x.
    const [box] = partsOf(edited.meta, 'fore');
    expect(box!.geometry).toEqual({ shape: 'box', size: [0.1, 0.3, 0.2] });
    expect(box!.color).toBe('#ff0000');
    // URDF z 0.1 is the sim's y 0.1.
    expect(box!.position[0]).toBeCloseTo(0, 6);
    expect(box!.position[1]).toBeCloseTo(0.1, 6);
    expect(box!.position[2]).toBeCloseTo(0, 6);
    // A quarter about x, as a quaternion: |qx| = |qw| = √½.
    expect(Math.abs(box!.rotation[0])).toBeCloseTo(Math.SQRT1_2, 5);
    expect(Math.abs(box!.rotation[3])).toBeCloseTo(Math.SQRT1_2, 5);
  });

  it("scales a mesh by <mesh scale> and draws a rgba colour's red, green and blue", () => {
    const obj = readMesh('w.obj', readFileSync(join(UR5E, 'meshes/wrist.obj')));
    const [wrist] = partsOf(edited.meta, 'link:wrist_2_link');
    expect(wrist!.color).toBe('#0000ff');
    if (wrist!.geometry.shape !== 'mesh') throw new Error('the wrist is a mesh');
    const xs = wrist!.geometry.positions.filter((_, i) => i % 3 === 0);
    expect(Math.max(...xs) - Math.min(...xs)).toBeCloseTo(2 * (obj.max[0] - obj.min[0]), 4);
    expect(wrist!.geometry.indices.length).toBe(obj.triangles * 3);
  });

  it('draws a COLLADA visual as the link collision shape, and the scene meta says so on that link', () => {
    const [wrist3] = partsOf(edited.meta, 'link:wrist_3_link');
    expect(wrist3!.geometry).toMatchObject({ shape: 'cylinder', radius: expect.closeTo(0.032, 6) });
    expect(edited.meta.robot.drawNotes).toEqual([
      'link "wrist_3_link": visual mesh "package://ur5e_like/meshes/wrist3.dae": COLLADA (.dae) is not read; the link is drawn as its collision shapes',
    ]);
    expect(loadRobot(robotFiles(VARIANT)).problems.map((p) => `${p.element}: ${p.problem}`)).toContain(
      'link "wrist_3_link": visual mesh "package://ur5e_like/meshes/wrist3.dae": COLLADA (.dae) is not read; the link is drawn as its collision shapes',
    );
  });

  it("one link's vertex budget is what one drawn mesh may carry", () => {
    expect(LINK_MAX_VERTICES).toBe(MESH_MAX_VERTICES);
  });
});
