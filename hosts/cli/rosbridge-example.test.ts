// The rosbridge examples of examples/rosbridge/README.md, run as written (the
// rosbridge URL pointed at the protocol stand-in; the run's model, which needs
// a model server, replaced by a scripted one) so they keep working.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOAL, type RosbridgeTestServer, startRosbridgeServer } from '../../test/support/rosbridge-server';
import { main } from './main';

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

/** The README's `npx skillbridge …` commands (continuation lines joined), split as a shell would. */
function commands(readme: string): string[][] {
  const joined = readme.replace(/\\\n\s*/g, '');
  return [...joined.matchAll(/^npx skillbridge (.+)$/gm)].map((m) =>
    [...m[1]!.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((a) => a[1] ?? a[2] ?? a[3]!).filter((a) => a !== '#'),
  );
}

describe('examples/rosbridge/README.md', () => {
  let server: RosbridgeTestServer;
  const goals: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    server = await startRosbridgeServer();
    server.repeat('/emergency_stop', { data: false }, 200, { type: 'std_msgs/msg/Bool', latch: true });
    server.repeat('/battery_state', { percentage: 0.9, power_supply_status: 2 }, 200, {
      type: 'sensor_msgs/msg/BatteryState',
      latch: true,
    });
    server.publish(
      '/amcl_pose',
      { pose: { pose: { position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } } } },
      { latch: true },
    );
    server.publish('/detections', { detections: [] }, { latch: true });
    server.actions.set(
      '/navigate_to_pose',
      async (g) => (goals.push(g.args), { status: GOAL.SUCCEEDED, values: { error_code: 0, error_msg: '' } }),
    );
  });
  afterAll(async () => server.close());

  const readme = readFileSync(join(import.meta.dirname, '../../examples/rosbridge/README.md'), 'utf8');
  const [run, call] = commands(readme);
  const here = (argv: string[]) => argv.map((a) => a.replace('ws://127.0.0.1:9090', server.url));

  it('the call example drives the mapped Nav2 action', async () => {
    expect(call![0]).toBe('call');
    const r = await cli([...here(call!), '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/arrived/);
    expect(goals.at(-1)).toMatchObject({ pose: { header: { frame_id: 'map' }, pose: { position: { x: 2, y: 1, z: 0 } } } });
  }, 30_000);

  it('the run example, with a scripted model in place of the model server', async () => {
    expect(run![0]).toBe('run');
    const dir = mkdtempSync(join(tmpdir(), 'sb-ros-example-'));
    const script = join(dir, 'model.json');
    writeFileSync(
      script,
      JSON.stringify([
        { tool_calls: [{ function: { name: 'act', arguments: { action: 'navigate', params: ['kitchen_table'] } } }] },
        { content: 'I am at the kitchen table.' },
      ]),
    );
    const argv = here(run!).map((a, i, all) => (all[i - 1] === '--model' ? `scripted:${script}` : a));
    const before = goals.length;
    const r = await cli([...argv, '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(goals.length).toBe(before + 1);
  }, 30_000);
});
