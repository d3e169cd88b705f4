// The field-rover tool set on the farm scene, built through the tool-set
// registry as a session builds it: names and schemas the model sees, readable
// refusals of bad arguments, a survey leg run through the tools, battery events
// through check_events, and the same script giving the same world twice.
import { describe, expect, it } from 'vitest';
import type { Robot } from '../../../robot/robot';
import { openSim } from '../../../robot/sim/open';
import type { ToolContext, ToolResult } from '../tool';
import { buildToolSet, setsFor } from '.';

const ctxFor = (robot: Robot): ToolContext => ({ robot, signal: new AbortController().signal, state: new Map() });

/** Calls tools by name from one registry, as a model's calls arrive. */
function caller(robot: Robot, set = 'farm') {
  const reg = buildToolSet(set, robot);
  const ctx = ctxFor(robot);
  return async (tool: string, args: unknown = {}): Promise<ToolResult> => (await reg).get(tool)!.call(args, ctx);
}

describe('farm tool set', () => {
  it('offers six tools with strict JSON schemas', async () => {
    const { robot, control } = await openSim('farm');
    const reg = await buildToolSet('farm', robot);
    expect(reg.names()).toEqual(['navigate', 'scan', 'dock', 'undock', 'charge', 'battery_status']);
    const schema = (n: string) => reg.get(n)!.schema().parameters;
    expect(schema('navigate')).toEqual({
      type: 'object',
      properties: { location: { type: 'string', minLength: 1 } },
      required: ['location'],
      additionalProperties: false,
    });
    expect(schema('charge')).toMatchObject({
      properties: { target_percent: { type: 'number', minimum: 1, maximum: 100, default: 100 } },
      additionalProperties: false,
    });
    expect(schema('scan')).toMatchObject({ properties: { poi: { type: 'string' } }, additionalProperties: false });
    expect(schema('scan')).not.toHaveProperty('required');
    for (const n of ['dock', 'undock', 'battery_status'])
      expect(schema(n)).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(reg.list({ category: 'information' }).map((t) => t.name)).toEqual(['battery_status']);
    control.dispose();
  });

  it("builds every tool set the scene lists; the DFKI set's act knows the rover's actions", async () => {
    const { robot, control } = await openSim('farm');
    const scene = control.world.scene.scene;
    const usable = setsFor(robot).map((s) => s.id);
    for (const id of [scene.toolSet, ...scene.toolSets]) {
      expect(usable).toContain(id);
      await expect(buildToolSet(id, robot)).resolves.toBeDefined();
    }
    const act = (await buildToolSet('dfki', robot)).get('act')!.schema().parameters as {
      properties: { action: { enum: string[] } };
    };
    expect(act.properties.action.enum).toEqual(expect.arrayContaining(['navigate', 'scan', 'dock', 'undock', 'charge', 'speak']));
    expect(act.properties.action.enum).not.toContain('pick');
    // The former name stays an alias for one release.
    expect((await buildToolSet('planner-executor', robot)).names()).toEqual((await buildToolSet('dfki', robot)).names());
    control.dispose();
  });

  it('answers invalid arguments with a message naming the field and the fix', async () => {
    const { robot, control } = await openSim('farm');
    const call = caller(robot);
    const tooMuch = await call('charge', { target_percent: 150 });
    expect(tooMuch.ok).toBe(false);
    expect(tooMuch.content).toContain('Invalid arguments for charge');
    expect(tooMuch.content).toMatch(/- target_percent: .*100/);
    expect((await call('charge', '{"target_percent": "full"}')).content).toMatch(/target_percent: .*expected number/);
    const wrongKey = await call('navigate', { place: 'poi_1' });
    expect(wrongKey.content).toContain('- location: missing (required)');
    expect(wrongKey.content).toContain('unknown argument(s) "place"; accepted: location');
    expect(wrongKey.content).toContain('Call navigate again');
    // Names that are not places: an unknown one lists the places, a near miss asks which.
    const paris = await call('navigate', { location: 'Paris' });
    expect(paris.ok).toBe(false);
    expect(paris.content).toMatch(/no place called "Paris"\. Known places: .*poi_1/);
    expect((await call('navigate', { location: 'poi_9' })).content).toMatch(/matches several places: poi_1 .*Did you mean/);
    // Nothing ran: the robot is still docked where it started.
    expect(control.world.body).toMatchObject({ docked: true, at: 'charging_dock' });
    expect(await robot.time()).toBe(0);
    control.dispose();
  });

  it('runs a survey leg: status, undock, fuzzy place names, scan, no driving onto the dock, dock, charge', async () => {
    const { robot, control } = await openSim('farm');
    const call = caller(robot);
    expect(await call('battery_status')).toMatchObject({
      ok: true,
      content: 'Battery 60% (okay; low at 30%, critical at 10%), docked, charging.',
      data: { percent: 60, level: 'okay', docked: true, charging: true },
    });
    expect((await call('navigate', { location: 'poi_1' })).content).toBe(
      'Failed (docked): the robot is docked in its shelter; undock first (driving inside the shelter is not allowed).',
    );
    expect((await call('undock')).content).toBe('Success: undocked; now at shelter_entry.');
    const nav = await call('navigate', { location: 'the tomato bed' });
    expect(nav.ok).toBe(true);
    expect(nav.content).toMatch(/^Success: arrived at poi_1 after 9\.64 m; battery now 5\d\.\d%\.$/);
    const scan = await call('scan', { poi: 'poi 1' });
    expect(scan.ok).toBe(true);
    expect(scan.content).toMatch(/^Success: scanned poi_1, 3 plants: tomato_1 \(tomato, fruiting, NDVI/);
    expect(scan.content).toContain('tomato_2 (tomato, flowering');
    expect(scan.content).toContain('stressed: lower leaves yellowing');
    const elsewhere = await call('scan', { poi: 'poi_3' });
    expect(elsewhere).toMatchObject({ ok: false, content: 'Failed (not_here): the robot is at poi_1, not poi_3; drive there first.' });
    expect((await call('dock')).content).toMatch(/^Failed \(not_at_entry\): docking starts from the shelter entry pose \(shelter_entry\)/);
    const onDock = await call('navigate', { location: 'charging_dock' });
    expect(onDock).toMatchObject({
      ok: false,
      content: 'charging_dock is the charging dock: it is reached only by docking. Navigate to shelter_entry, then call dock.',
    });
    expect((await call('navigate', { location: 'shelter' })).content).toMatch(/^Success: arrived at shelter_entry/);
    expect((await call('charge', { target_percent: 90 })).content).toBe('Failed (not_docked): charging happens at the dock; dock first.');
    expect((await call('dock')).content).toBe('Success: docked at charging_dock.');
    const charged = await call('charge', { target_percent: 90 });
    expect(charged.content).toMatch(/^Success: charged from 5\d% to 90% in \d+ min\.$/);
    expect((await call('battery_status')).content).toBe('Battery 90% (okay; low at 30%, critical at 10%), docked, charging.');
    control.dispose();
  });

  it('a low battery reaches the DFKI planner-executor through check_events', async () => {
    const { robot, control } = await openSim('farm');
    const call = caller(robot, 'dfki');
    expect((await call('check_events')).content).toBe('No events.');
    expect((await call('act', { action: 'undock' })).ok).toBe(true);
    control.inject({ type: 'set_battery', percent: 30.4 });
    expect((await call('act', { action: 'navigate', params: ['poi_1'] })).ok).toBe(true);
    const events = await call('check_events');
    expect(events.content).toMatch(/undocked\n.*battery is low \(30%\)$/);
    expect((await call('get_semantic_environment_representation_snapshot')).content.split('\n')).toEqual(
      expect.arrayContaining(['battery(robot, low)', 'robot_at(robot, poi_1)']),
    );
    expect((await call('check_events')).content).toBe('No events.');
    control.dispose();
  });

  it('is deterministic: the same script twice gives the same results, facts and poses', async () => {
    const script: Array<[string, unknown]> = [
      ['undock', {}],
      ['navigate', { location: 'poi_5' }],
      ['scan', {}],
      ['navigate', { location: 'shelter_entry' }],
      ['dock', {}],
      ['charge', { target_percent: 70 }],
      ['battery_status', {}],
    ];
    const run = async () => {
      // Sensor noise on: the seeded generator must replay too.
      const { robot, control } = await openSim('farm', { seed: 11, noise: { distanceSigma: 0.01 } });
      const call = caller(robot);
      const results: string[] = [];
      for (const [tool, args] of script) results.push((await call(tool, args)).content);
      const out = {
        results,
        facts: await robot.perception.snapshot(),
        pose: control.world.body.basePose,
        battery: control.world.battery.percent,
        time: await robot.time(),
        scans: [...control.world.scans.values()],
      };
      control.dispose();
      return out;
    };
    const a = await run();
    const b = await run();
    expect(a.results.every((r) => !r.startsWith('Failed'))).toBe(true);
    expect(b).toEqual(a);
    expect(a.facts).toEqual(expect.arrayContaining(['docked(robot)', 'robot_at(robot, charging_dock)', 'battery(robot, okay)']));
  });
});
