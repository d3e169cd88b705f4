// A robot folder uploaded by a page: its files arrive in chunks into a folder
// of the session's; the robot in it replaces the scene's (the scene rebuilt),
// with its warnings per element; a broken one is refused with the reason and
// the robot before stays; "own" goes back to the scene's robot. Paths a page
// gives never reach above the upload folder.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { inside } from '../../scenes/urdf/paths';
import { AppService } from './app-service';
import { robotUploadProblem } from './robot-file-policy';

const ROBOTS = path.join(import.meta.dirname, '../../test/fixtures/robots');

/** The files of a fixture folder as a page picks them: paths from the folder's own name. */
function picked(name: string): Array<{ path: string; bytes: Buffer }> {
  const out: Array<{ path: string; bytes: Buffer }> = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(ROBOTS, rel))) {
      const r = `${rel}/${e}`;
      if (statSync(path.join(ROBOTS, r)).isDirectory()) walk(r);
      else out.push({ path: r, bytes: readFileSync(path.join(ROBOTS, r)) });
    }
  };
  walk(name);
  return out;
}

/** Uploads a folder in chunks of `chunk` bytes, as the page does. */
async function upload(s: AppService, files: Array<{ path: string; bytes: Buffer }>, chunk = 700): Promise<void> {
  let first = true;
  for (const f of files)
    for (let at = 0; at === 0 || at < f.bytes.length; at += chunk) {
      await s.putRobotFile({ path: f.path, offset: at, data: f.bytes.subarray(at, at + chunk).toString('base64'), start: first });
      first = false;
    }
}

describe('a robot folder uploaded by the page', () => {
  const s = new AppService({ paced: false });
  beforeAll(async () => {
    await s.loadScene({ id: 'tabletop/fruits' });
  });
  afterAll(() => s.dispose());

  it('replaces the scene robot with the uploaded one, package:// meshes found inside the folder', async () => {
    await upload(s, picked('ur5e_like'));
    const r = await s.useRobot({ robot: 'uploaded' });
    expect(r.reason).toBeNull();
    expect(r.ok).toBe(true);
    expect(r.robot).toBe('ur5e_like');
    expect(r.meta!.robot.title).toBe('ur5e_like');
    expect(r.meta!.robot.bodies.map((b) => b.part)).toContain('link:wrist_1_link');
    // Its meshes were read: no "not found" among its problems.
    expect(r.problems.filter((p) => /not found/.test(p.problem))).toEqual([]);
    expect((await s.currentScene())!.robot.title).toBe('ur5e_like');
  }, 30_000);

  it('refuses a broken robot with the reason, each problem on its element, and keeps the robot before', async () => {
    await upload(s, picked('broken'));
    const r = await s.useRobot({ robot: 'uploaded' });
    expect(r.ok).toBe(false);
    expect(r.meta).toBeNull();
    expect(r.reason).toContain('mimics joint "no_such_joint"');
    expect(r.problems.map((p) => p.element)).toContain('joint "finger_joint"');
    // The paths said are inside the folder, not the host's.
    expect(JSON.stringify(r)).not.toContain('skillbridge-robot-');
    expect(r.robot).toBe('ur5e_like');
    expect((await s.currentScene())!.robot.title).toBe('ur5e_like');
  }, 30_000);

  it('"own" goes back to the scene robot', async () => {
    const r = await s.useRobot({ robot: 'own' });
    expect(r).toMatchObject({ ok: true, robot: null, reason: null });
    expect(r.meta!.robot.title).not.toBe('ur5e_like');
  }, 30_000);

  it('refuses a folder without a description, and chunks out of order', async () => {
    await s.putRobotFile({ path: 'x/readme.txt', offset: 0, data: Buffer.from('hi').toString('base64'), start: true });
    expect(await s.useRobot({ robot: 'uploaded' })).toMatchObject({ ok: false, reason: expect.stringMatching(/no \.urdf/) });
    await expect(s.putRobotFile({ path: 'x/a.urdf', offset: 5, data: '', start: true })).rejects.toThrow(/starts at byte 0/);
    await expect(s.useRobot({ robot: 'uploaded' })).rejects.toThrow(/no robot folder was uploaded/);
  });

  it('refuses paths above or outside the folder, naming the field', async () => {
    for (const p of ['../etc/passwd', '/etc/passwd', 'a/../../b', 'a//b', 'C:/x', 'a\\..\\b'])
      await expect(s.putRobotFile({ path: p, offset: 0, data: '' }), p).rejects.toThrow(/^path: /);
  });

  it('every path the policy accepts lies inside the upload folder', () => {
    const part = fc.oneof(fc.constantFrom('..', '.', '', 'a', 'b.urdf', '\\..', 'C:', '~'), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 6 }), fc.boolean(), (parts, lead) => {
        const given = `${lead ? '/' : ''}${parts.join('/')}`;
        if (robotUploadProblem(given) !== undefined) return;
        const root = '/tmp/upload-root';
        const at = path.join(root, given);
        expect(inside(at, root) && at !== root, given).toBe(true);
      }),
      { numRuns: fuzzRuns(300), seed: fuzzSeed(39) },
    );
  });
});
