// serve --urdf: the host loads and checks the description once, and every page's
// session — a worker thread that gets the loaded robot as cloned data — puts it
// in its scene in place of the scene's own, and acts with it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRobot } from '../../scenes/urdf/load';
import { robotFiles } from '../../test/support/robot-files';
import { startWorkerSession } from './worker-session';

const UR5E = join(import.meta.dirname, '../../test/fixtures/robots/ur5e_like/urdf/ur5e_like.urdf');

describe('a described robot in a worker session', () => {
  it("stands in the page's scene and picks with its own arm", async () => {
    const api = await startWorkerSession({ paced: false, urdf: loadRobot(robotFiles(UR5E)) });
    try {
      const meta = await api.loadScene({ id: 'tabletop/fruits' });
      expect(meta.robot.title).toBe('ur5e_like');
      expect(meta.robot.jointNames.slice(0, 2)).toEqual(['shoulder_pan_joint', 'shoulder_lift_joint']);
      expect(meta.robot.bodies.map((b) => b.part)).toEqual(expect.arrayContaining(['link:wrist_1_link']));
      const r = await api.callTool({ name: 'pick', args: { object_name: 'lemon' } });
      expect(r.ok, r.content).toBe(true);
    } finally {
      await api.dispose();
    }
  });
});
