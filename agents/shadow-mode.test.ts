// Shadow mode with the http source: robot-api (another process) serves a world
// where the lemon was moved; the shadow runs the scene as it was prototyped.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConversation } from './conversation';
import { type DivergenceReport, type SafetyDecision, SafetyChain } from './runtime/safety';
import { MemorySink } from './runtime/trace';
import { FakeModel } from '../test/support/fake-model';
import { type RobotApiProcess, startRobotApiProcess } from '../test/support/robot-api-process';
import { openRobot } from '../robot/sources';
import type { Shadow } from '../robot/shadow/shadow';

const ROOT = path.resolve(import.meta.dirname, '..');

/** tabletop/fruits with the lemon 11 cm from where the scene file says. */
function movedLemonScene(): string {
  const scene = JSON.parse(readFileSync(path.join(ROOT, 'scenes/data/tabletop/fruits.json'), 'utf8')) as {
    $schema?: string;
    objects: Array<{ id: string; position?: number[] }>;
  };
  delete scene.$schema;
  const lemon = scene.objects.find((o) => o.id === 'lemon_1')!;
  lemon.position = [0.15, 0, 0.05];
  const dir = mkdtempSync(path.join(tmpdir(), 'sb-shadow-'));
  const file = path.join(dir, 'fruits-moved.json');
  writeFileSync(file, JSON.stringify(scene));
  return file;
}

describe('shadow mode over the http source', () => {
  let api: RobotApiProcess;
  beforeAll(async () => {
    api = await startRobotApiProcess(['--scene', movedLemonScene(), '--fast']);
  }, 90_000);
  afterAll(async () => api?.kill());

  it('syncs from the robot, reports the moved object as a divergence, holds a predicted failure, and the trace keeps it all', async () => {
    const sink = new MemorySink();
    const model = new FakeModel([
      { toolCalls: [{ name: 'pick', arguments: { object_name: 'lemon' } }] },
      { toolCalls: [{ name: 'move_to', arguments: { pose: { position: { x: 1.5, y: 0.9, z: 0 } } } }] },
      { content: 'done' },
    ]);
    const asked: string[] = [];
    const opened = await openConversation({
      robot: { kind: 'http', url: api.url, token: api.token, shadow: { scene: 'tabletop/fruits' } },
      workflow: 'flat',
      toolSet: 'alrm',
      model,
      approval: {
        policy: { information: 'auto', action: 'auto' },
        ask: async (q) => (asked.push(q.reason ?? ''), { approved: false, note: 'not that' }),
      },
      traceSinks: () => [sink],
    });
    const r = await opened.conversation.send('put the lemon somewhere');
    expect(r.reason).toBe('final');
    const lines = sink.lines;
    const drift = lines.filter((l) => l.type === 'divergence');
    expect(drift[0]).toMatchObject({ kind: 'object', subject: 'lemon_1', skill: 'arm.pick', tool: 'pick' });
    expect((drift[0] as { predicted: string }).predicted).toMatch(/^at \[0\.25, /);
    expect((drift[0] as { actual: string }).actual).toMatch(/^at \[0\.1[4-6], /);
    const decisions = lines.filter((l) => l.type === 'safety') as Array<SafetyDecision & { type: 'safety' }>;
    // The pick, once synchronised, is predicted to work and runs; the far move is predicted to fail and is held.
    expect(decisions.map((d) => [d.skill, d.verdict, d.prediction?.ok])).toEqual([
      ['arm.pick', 'allow', true],
      ['arm.moveTool', 'ask', false],
    ]);
    expect(decisions[1]).toMatchObject({ answer: 'rejected', checks: ['shadow'] });
    expect(asked[0]).toMatch(/shadow simulator predicts: arm\.moveTool\(pose=.*\) would fail \(out_of_reach\)/);
    const results = lines.filter((l) => l.type === 'tool_result') as Array<{ name: string; ok: boolean; error?: string }>;
    expect(results.map((x) => [x.name, x.ok])).toEqual([
      ['pick', true],
      ['move_to', false],
    ]);
    expect(results[1]!.error).toMatch(/held by the safety chain .* not run: the person said no \("not that"\)/);
    // The robot itself holds the lemon; the held move never reached it.
    expect(await opened.robot.perception.holding()).toBe('lemon_1');
    await opened.close();
  }, 90_000);

  it('reports a divergence between the predicted and the actual outcome', async () => {
    const real = await openRobot({ kind: 'http', url: api.url, token: api.token, shadow: { scene: 'tabletop/fruits' } });
    const shadow = (real as { shadow?: Shadow }).shadow!;
    const chain = new SafetyChain(real.robot, { predictor: shadow });
    const found: DivergenceReport[] = [];
    const robot = chain.guard({ via: 'direct', diverged: (d) => found.push(d), ask: async () => ({ approved: true }) });
    // The robot still holds the lemon from the test before; the shadow, rebuilt from the scene, does not.
    const out = await robot.arm!.place({ kind: 'object', id: 'bowl_1' });
    expect(out.ok).toBe(true);
    expect(found.map((d) => d.kind)).toEqual(expect.arrayContaining(['holding', 'outcome']));
    const o = found.find((d) => d.kind === 'outcome')!;
    expect(o.predicted).toMatch(/^failure \(hand_empty\)/);
    expect(o.actual).toMatch(/^success/);
    chain.dispose();
    await real.close();
  }, 60_000);
});
