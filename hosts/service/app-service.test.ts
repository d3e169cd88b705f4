import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poseOffset, readHeader } from '../../contract/frames';
import type { AppEvent, SceneMeta } from '../../contract/schemas';
import { AppService } from './app-service';

function positionIn(frame: Float32Array, meta: SceneMeta, id: string): [number, number, number] {
  const i = meta.stream.indexOf(id);
  expect(i).toBeGreaterThanOrEqual(0);
  const o = poseOffset(i);
  return [frame[o]!, frame[o + 1]!, frame[o + 2]!];
}

describe('AppService (headless)', () => {
  const session = new AppService({ paced: false });
  let meta: SceneMeta;
  let latest: Float32Array | undefined;
  const events: AppEvent[] = [];

  beforeAll(async () => {
    session.onPoses((f) => (latest = f));
    session.onEvent((e) => events.push(e));
    meta = await session.loadScene({ id: 'tabletop/fruits' });
  });
  afterAll(() => session.dispose());

  it('describes the scene once: objects with shapes and colours, the robot, the stream layout', () => {
    expect(meta.id).toBe('tabletop/fruits');
    expect(meta.environment).toBe('workbench');
    const lemon = meta.objects.find((o) => o.id === 'lemon_1')!;
    expect(lemon.body.parts.length).toBeGreaterThan(0);
    expect(lemon.color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(lemon.body.stream).toBe(meta.stream.indexOf('lemon_1'));
    const table = meta.objects.find((o) => o.fixed)!;
    expect(table.body.stream).toBeNull();
    expect(meta.robot.bodies.map((b) => b.part)).toEqual(expect.arrayContaining(['base', 'upper', 'hand', 'fingerA']));
    expect(meta.robot.jointNames).toHaveLength(6);
    expect(events.some((e) => e.type === 'scene_loaded' && e.generation === meta.generation)).toBe(true);
  });

  it('streams one packed frame: header, 7 floats per body, then the joints', () => {
    expect(latest).toBeDefined();
    expect(latest!.length).toBe(5 + meta.stream.length * 7 + meta.robot.jointNames.length);
    const h = readHeader(latest!);
    expect(h.generation).toBe(meta.generation);
    expect(Math.abs(h.wallMs - Date.now())).toBeLessThan(60_000);
  });

  it('calls a tool exactly as a model would, and the object moves in the pose stream', async () => {
    const before = positionIn(latest!, meta, 'lemon_1');
    const r = await session.callTool({ name: 'pick', args: { object_name: 'lemon' } });
    expect(r.ok).toBe(true);
    expect(r.content).toMatch(/picked up lemon_1/);
    expect(r.simSeconds).toBeGreaterThan(0.5);
    const after = positionIn(latest!, meta, 'lemon_1');
    expect(after[1] - before[1]).toBeGreaterThan(0.05);
    const activity = events.filter((e) => e.type === 'tool_activity');
    expect(activity.map((e) => e.type === 'tool_activity' && e.phase)).toEqual(['start', 'end']);
    expect(activity[0]?.type === 'tool_activity' && activity[0].targets).toEqual(['lemon_1']);
  });

  it('returns the validation message a model gets for bad arguments', async () => {
    const r = await session.callTool({ name: 'pick', args: { objec: 'lemon' } });
    expect(r.ok).toBe(false);
    expect(r.content).toContain('Invalid arguments for pick');
    expect(r.content).toContain('object_name: missing (required)');
    const raw = await session.callTool({ name: 'pick', args: '{"object_name": ' });
    expect(raw.content).toMatch(/not valid JSON/);
    const unknown = await session.callTool({ name: 'fly', args: {} });
    expect(unknown.ok).toBe(false);
    expect(unknown.content).toMatch(/Unknown tool "fly"\. Available tools: .*pick/);
  });

  it('feeds injected events to the robot: the emergency stop blocks motion until released', async () => {
    const ack = await session.injectEvent({ type: 'estop_pressed' });
    expect(ack.ok).toBe(true);
    expect((await session.getSnapshot({})).estop).toBe(true);
    const r = await session.callTool({ name: 'move_to_home_pos', args: {} });
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/estop|emergency stop/i);
    expect(events.some((e) => e.type === 'robot_event' && e.event.type === 'estop_pressed')).toBe(true);
    await session.injectEvent({ type: 'estop_released' });
    expect((await session.callTool({ name: 'move_to_home_pos', args: {} })).ok).toBe(true);
  });

  it('moves objects, hears people and sets the battery', async () => {
    // Set down on what lies below the point: the answer says it did not stay 45 cm up.
    const moved = await session.injectEvent({ type: 'object_moved', object: 'plum', to: [0.3, 1.2, 0.2] });
    expect(moved.ok).toBe(true);
    expect(moved.message).toMatch(
      /^moved plum_1: it came to rest (4[0-9]) cm below (and \d+ cm to the side of )?the point given, on table_1$/,
    );
    const plum = positionIn(latest!, meta, 'plum_1');
    expect(plum[0]).toBeCloseTo(0.3, 2);
    // Where it rests now (its underside, as the point is taken): it stays there.
    const half = meta.objects.find((o) => o.id === 'plum_1')!.size[1] / 2;
    const again = await session.injectEvent({ type: 'object_moved', object: 'plum_1', to: [plum[0], plum[1] - half, plum[2]] });
    expect(again.message).toBe('moved plum_1: it rests there, on table_1');
    // The lemon the earlier test picked is in the hand: a move takes it out, and it lands on the table.
    expect((await session.getSnapshot({})).holding).toBe('lemon_1');
    const lemon = positionIn(latest!, meta, 'lemon_1');
    const out = await session.injectEvent({ type: 'object_moved', object: 'lemon_1', to: lemon });
    expect(out.message).toMatch(
      /^moved lemon_1 out of the robot's hand: it came to rest \d+ cm below (and \d+ cm to the side of )?the point given, on table_1$/,
    );
    expect((await session.getSnapshot({})).holding).toBeNull();
    expect((await session.injectEvent({ type: 'object_moved', object: 'unicorn', to: [0, 1, 0] })).ok).toBe(false);
    await session.injectEvent({ type: 'person_said', text: 'please stop' });
    expect(events.some((e) => e.type === 'robot_event' && e.event.text.includes('please stop'))).toBe(true);
    await session.injectEvent({ type: 'set_battery', percent: 12 });
    expect((await session.getBattery({})).percent).toBeCloseTo(12, 0);
    expect((await session.getSnapshot({})).facts.length).toBeGreaterThan(3);
  });

  it('lists tool sets for the scene, with unusable ones marked and explained', async () => {
    const sets = await session.listToolSets({});
    expect(sets[0]).toMatchObject({ id: 'alrm', isDefault: true, available: true });
    const farm = sets.find((s) => s.id === 'farm')!;
    expect(farm.available).toBe(false);
    expect(farm.reason).toMatch(/rover/);
    const tools = await session.listTools({});
    expect(tools.find((t) => t.name === 'pick')?.parameters).toMatchObject({ required: ['object_name'] });
    await expect(session.listTools({ set: 'nope' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('rejects unknown scenes with the list of known ones, and resets to the scene data', async () => {
    await expect(session.loadScene({ id: 'moon' })).rejects.toMatchObject({
      code: 'unknown_scene',
      message: expect.stringMatching(/tabletop\/fruits/),
    });
    const again = await session.resetScene({});
    expect(again.generation).toBeGreaterThan(meta.generation);
    const snap = await session.getSnapshot({});
    expect(snap.holding).toBeNull();
    expect(snap.time).toBeLessThan(1);
  });
});

describe('AppService (paced)', () => {
  it('steps physics in wall time from its own ticker', async () => {
    const session = new AppService({ paced: true });
    try {
      await session.loadScene({ id: 'tabletop/boxes' });
      const t0 = (await session.getSnapshot({})).time;
      await new Promise((r) => setTimeout(r, 400));
      const dt = (await session.getSnapshot({})).time - t0;
      // 0.4 s of wall time; generous bounds for a loaded CI machine.
      expect(dt).toBeGreaterThan(0.15);
      expect(dt).toBeLessThan(0.6);
    } finally {
      await session.dispose();
    }
  });
});

describe('AppService: a person speaks', () => {
  it('the robot names a speaker it has not identified "a person"; the view is told who spoke', async () => {
    const session = new AppService({ paced: false });
    const events: AppEvent[] = [];
    session.onEvent((e) => events.push(e));
    try {
      await session.loadScene({ id: 'kitchen/assistive' });
      await session.injectEvent({ type: 'person_said', person: 'adriana', text: 'a glass of water, please' });
      const robotSaid = events.find((e) => e.type === 'robot_event' && e.event.type === 'person_said');
      expect(robotSaid?.type === 'robot_event' && robotSaid.event.text).toMatch(/a person said: "a glass of water, please"/);
      expect(events.find((e) => e.type === 'person_spoke')).toMatchObject({ person: 'adriana', text: 'a glass of water, please' });
    } finally {
      await session.dispose();
    }
  });
});
