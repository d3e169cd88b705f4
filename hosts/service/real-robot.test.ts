// The app's session with a real robot (serve --robot): agent runs act on the
// robot served by robot-api in another process, and the loaded scene is its
// shadow — each action is played there first, divergences reach the run view.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent, RunEvent } from '../../contract/schemas';
import { openRobot } from '../../robot/sources';
import { type RobotApiProcess, startRobotApiProcess } from '../../test/support/robot-api-process';
import { AppService } from './app-service';

const dir = mkdtempSync(join(tmpdir(), 'sb-real-'));

describe('the session service driving a real robot with the scene as its shadow', () => {
  let api: RobotApiProcess;
  let session: AppService;
  const events: AppEvent[] = [];
  beforeAll(async () => {
    // The robot's world: tabletop/fruits with the lemon moved 11 cm.
    const scene = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../scenes/data/tabletop/fruits.json'), 'utf8')) as {
      $schema?: string;
      objects: Array<{ id: string; position?: number[] }>;
    };
    delete scene.$schema;
    scene.objects.find((o) => o.id === 'lemon_1')!.position = [0.15, 0, 0.05];
    writeFileSync(join(dir, 'moved.json'), JSON.stringify(scene));
    api = await startRobotApiProcess(['--scene', join(dir, 'moved.json'), '--fast']);
    session = new AppService({
      paced: false,
      traceDir: join(dir, 'traces'),
      robot: { kind: 'http', url: api.url, token: api.token },
      scriptFiles: { dir },
    });
    session.onEvent((e) => events.push(e));
    await session.loadScene({ id: 'tabletop/fruits' });
  }, 90_000);
  afterAll(async () => {
    await session?.dispose();
    await api?.kill();
  });

  it('picks on the robot, predicts in the scene, and shows the moved lemon as a divergence', async () => {
    const file = join(dir, 'turns.json');
    writeFileSync(
      file,
      JSON.stringify([
        { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'pick', arguments: { object_name: 'lemon' } } }] },
        { content: 'done' },
      ]),
    );
    const { runId } = await session.run({ message: 'pick the lemon', workflow: 'flat', model: 'scripted:turns.json' });
    const run = (): RunEvent[] => events.flatMap((e) => (e.type === 'run' && e.event.runId === runId ? [e.event] : []));
    for (let t = 0; t < 400 && !run().some((e) => e.kind === 'final'); t++) await new Promise((r) => setTimeout(r, 50));
    const kinds = run().map((e) => e.kind);
    expect(kinds).toContain('final');
    const d = run().find((e) => e.kind === 'divergence');
    expect(d).toMatchObject({
      subject: 'lemon_1',
      predicted: expect.stringMatching(/^at \[0\.25/),
      actual: expect.stringMatching(/^at \[0\.1[4-6]/),
    });
    expect(run().find((e) => e.kind === 'tool_result')).toMatchObject({ name: 'pick', ok: true });
    // The robot holds the lemon; so does the shadow, which played the pick first.
    const real = await openRobot({ kind: 'http', url: api.url, token: api.token });
    expect(await real.robot.perception.holding()).toBe('lemon_1');
    await real.close();
    expect((await session.getSnapshot()).holding).toBe('lemon_1');
  }, 90_000);
});
