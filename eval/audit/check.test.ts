// The checker catches what it is for: a claim that does not hold, a name the
// robot could not know, numbers that contradict their message, a body through
// the floor. Each case plants the fault in a real world.
import { describe, expect, it } from 'vitest';
import { openSim } from '../../robot/sim/open';
import type { SimWorld } from '../../sim/world/sim-world';
import { type CallUnderCheck, type Unjudged, checkCall, checkMessage } from './check';
import { ROBOT, readWorld } from './truth';
import { locationOf } from '../../sim/world/location';
import { observe } from '../../sim/perception/observe';

async function world(scene = 'tabletop/fruits'): Promise<SimWorld> {
  return (await openSim(scene)).control.world;
}

function call(w: SimWorld, over: Partial<CallUnderCheck>): CallUnderCheck {
  const r = readWorld(w);
  const known = new Set([...w.entities.values()].filter((e) => e.fixed || w.belief.has(e.id)).map((e) => e.id));
  return {
    world: w,
    set: 'alrm',
    tool: 'pick',
    args: {},
    result: { ok: true, content: 'Success: done.' },
    thrown: undefined,
    before: r,
    after: r,
    knownBefore: known,
    knownAfter: known,
    learnt: new Set([...w.entities.keys()].filter((id) => w.belief.everKnew(id))),
    peopleSeen: new Set(),
    mentioned: new Set(),
    movedByEvent: new Set(),
    beliefBefore: new Map(w.belief.objects),
    ended: r.time,
    eventsBefore: w.events.lastId,
    eventsRead: w.events.lastId,
    recognised: new Set(),
    added: new Map(),
    props: new Map(),
    paths: new Map(),
    ...over,
  };
}

describe('the truth audit checker', () => {
  it('calls a success claim that does not hold a lie', async () => {
    const w = await world();
    const outcome = { ok: true, summary: 'picked up lemon_1', data: { claims: [{ kind: 'held', object: 'lemon_1' }] } };
    const f = checkCall(
      call(w, { args: { object_name: 'lemon_1' }, result: { ok: true, content: 'Success: picked up lemon_1.', data: outcome } }),
      new Map(),
    );
    // The structured claim and the sentence each say it.
    expect(f).toEqual([
      expect.objectContaining({ class: 'lies', detail: expect.stringContaining('the hand holds nothing') }),
      expect.objectContaining({ class: 'lies', detail: 'pick: said "picked up lemon_1", but the hand holds nothing' }),
    ]);
  });

  it('calls a name the robot has not perceived a leak, unless the model used it (the world-model set too)', async () => {
    const w = await world('kitchen');
    expect(w.belief.has('apple_1')).toBe(false);
    const said = { result: { ok: false, content: 'apple_1 is inside fridge_1, which is closed' } };
    expect(checkCall(call(w, said), new Map())).toEqual([expect.objectContaining({ class: 'leaks' })]);
    expect(checkCall(call(w, { ...said, args: { object: 'apple_1' } }), new Map())).toEqual([]);
    expect(checkCall(call(w, { ...said, set: 'world-model' }), new Map())).toEqual([expect.objectContaining({ class: 'leaks' })]);
  });

  it('a name the robot learnt during the call (seen, then lost from sight) may be said; its fall must be told, by name or not', async () => {
    const w = await world('kitchen');
    const id = 'plate_1';
    expect(w.belief.has(id)).toBe(false);
    const before = readWorld(w);
    // Seen on the robot's arm as the call began, then knocked off out of sight: forgotten by its end.
    w.belief.set({
      id,
      pose: w.pose(id),
      place: { kind: 'on', id: 'dining_table_1' },
      time: w.time,
      baseMoves: 0,
      at: undefined,
      how: 'seen',
    });
    w.belief.forget(id);
    w.world.getRigidBody(w.entity(id).body).setTranslation({ x: 0.5, y: 0.2, z: 0.5 }, true);
    w.refreshQueries();
    await w.idle(1.5);
    const after = readWorld(w);
    expect(after.places.get(id)).toEqual({ kind: 'on', ids: new Set(['floor']) });
    const said = (content: string) => checkCall(call(w, { tool: 'wave', before, after, result: { ok: true, content } }), new Map());
    expect(said(`Success: waved 2 times. Also: ${id} fell off the robot's arm; it is out of sight now.`)).toEqual([]);
    expect(said("Success: waved. Also: an object the robot had not perceived fell off the robot's arm.")).toEqual([]);
    expect(said('Success: waved 2 times.')).toEqual([
      expect.objectContaining({ class: 'lies', detail: expect.stringContaining(`${id} went from`) }),
    ]);
    // Never perceived: naming it is a leak still.
    const never = {
      ...call(w, { tool: 'wave', before, after, result: { ok: true, content: 'Success: waved. Also: mug_1 is here.' } }),
      learnt: new Set<string>(),
    };
    expect(checkCall(never, new Map()).map((f) => f.class)).toContain('leaks');
  });

  it('finds a body below the floor and an unreported fall', async () => {
    const w = await world();
    const before = readWorld(w);
    w.world.getRigidBody(w.entity('plum_1').body).setTranslation({ x: 0.3, y: -0.5, z: 0.3 }, true);
    w.refreshQueries();
    const f = checkCall(call(w, { before, after: readWorld(w), result: { ok: true, content: 'Success: moved the gripper.' } }), new Map());
    expect(f.map((x) => x.class).sort()).toEqual(['invariants', 'lies']);
  });

  it('reads what bears a container up, not what rests inside it (both readers agree)', async () => {
    const { control } = await openSim('tabletop/utensils');
    const w = control.world;
    const b = w.pose('basket_1').p;
    control.inject({ type: 'object_moved', object: 'toy_block_1', to: [b.x, 1.2, b.z], by: 'a person' });
    await w.idle(1);
    const r = readWorld(w);
    expect(r.places.get('toy_block_1')).toEqual({ kind: 'in', id: 'basket_1' });
    expect(r.places.get('basket_1')).toEqual({ kind: 'on', ids: new Set(['table_1']) });
    expect(locationOf(w, 'basket_1')).toEqual({ kind: 'on', id: 'table_1' });
  });

  it('reads a tilted object leaning on a support above its centre of mass the same way as the world does', async () => {
    // Found by the 100,000-call audit: a laptop set down on the paper towel roll by the toaster.
    const { control } = await openSim('kitchen');
    const w = control.world;
    control.inject({ type: 'object_moved', object: 'laptop_1', to: [2.483, 1.05, -0.816], by: 'a person' });
    expect(locationOf(w, 'laptop_1')).toEqual({ kind: 'on', id: 'paper_towel_roll_1' });
    const r = readWorld(w).places.get('laptop_1');
    expect(r && r.kind === 'on' && r.ids.has('paper_towel_roll_1')).toBe(true);
  });

  it('checks the numbers inside messages', () => {
    expect(checkMessage("Failed (out_of_reach): cup_1 is 0.78 m from the arm's shoulder; the arm reaches 1.01 m.", false)).toHaveLength(1);
    expect(checkMessage("Failed (out_of_reach): cup_1 is 1.2 m from the arm's shoulder; the arm reaches 1.01 m.", false)).toEqual([]);
    expect(checkMessage('Failed (too_heavy): could not lift x: it weighs 0.4 kg and the arm lifts at most 3 kg.', false)).toHaveLength(1);
    expect(checkMessage('Failed (skill_failure): the grasp failed (injected skill failure).', false)).toHaveLength(1);
    expect(checkMessage('Success: perceived at here: no objects.', true)).toHaveLength(1);
  });

  it('reads an object resting on the robot as on the robot, so a claim that it rests on the table is a lie', async () => {
    const { control } = await openSim('tabletop/utensils');
    const w = control.world;
    // Set on the forearm (between the open fingers it would fall through to the table).
    const t = w.world.getRigidBody(w.bodyLinks.arm!.fore).translation();
    control.inject({ type: 'object_moved', object: 'basket_1', to: [t.x, t.y + 0.1, t.z], by: 'a person' });
    await w.idle(1);
    expect(locationOf(w, 'basket_1')).toMatchObject({ kind: 'robot' });
    const r = readWorld(w).places.get('basket_1');
    expect(r?.kind === 'on' && r.ids.has(ROBOT) && !r.ids.has('table_1')).toBe(true);
    const outcome = {
      ok: true,
      summary: 'placed basket_1 on table_1',
      data: { claims: [{ kind: 'rests', object: 'basket_1', relation: 'on', support: 'table_1' }] },
    };
    const unjudged: Unjudged[] = [];
    const f = checkCall(
      call(w, {
        tool: 'place',
        args: { target: 'basket_1' },
        result: { ok: true, content: 'Success: placed basket_1 on table_1.', data: outcome },
      }),
      new Map(),
      unjudged,
    );
    // The structured claim and the sentence each say it.
    expect(f).toEqual([
      expect.objectContaining({ class: 'lies', detail: expect.stringContaining('(robot)') }),
      expect.objectContaining({
        class: 'lies',
        detail: expect.stringMatching(/^place: said "placed basket_1 on table_1", but .*\(robot\)/),
      }),
    ]);
    expect(unjudged).toEqual([]);
  });

  it('counts a claim it cannot judge as unjudged, with the reason, instead of passing it in silence', async () => {
    const w = await world();
    const r = readWorld(w);
    r.places.set('lemon_1', { kind: 'unsure', why: 'on the boundary of a container' });
    const outcome = {
      ok: true,
      summary: 'placed lemon_1 on table_1',
      data: { claims: [{ kind: 'rests', object: 'lemon_1', relation: 'on', support: 'table_1' }] },
    };
    const unjudged: Unjudged[] = [];
    checkCall(
      call(w, { tool: 'place', after: r, result: { ok: true, content: 'Success: placed lemon_1 on table_1.', data: outcome } }),
      new Map(),
      unjudged,
    );
    // Neither the structured claim nor the sentence is passed.
    expect(unjudged).toEqual([
      { class: 'lies', reason: expect.stringContaining('on the boundary of a container') },
      { class: 'lies', reason: expect.stringContaining('on the boundary of a container') },
    ]);
  });

  it('a location fact in a snapshot must be what the robot believes', async () => {
    const w = await world();
    observe(w);
    const [id, entry] = [...w.belief.objects][0]!;
    expect(entry.place.kind).toBe('on');
    const text = `hand_empty(robot)\non(${id}, floor)`;
    const snapshot = { tool: 'get_semantic_environment_representation_snapshot', result: { ok: true, content: text } };
    expect(checkCall(call(w, snapshot), new Map())).toContainEqual(
      expect.objectContaining({ class: 'lies', detail: expect.stringContaining(`on(${id}, floor)`) }),
    );
  });

  it('holds the world-model tools to the belief: no unperceived names, poses as perceived', async () => {
    const w = await world('kitchen');
    expect(w.belief.has('apple_1')).toBe(false);
    const leak = { set: 'world-model', result: { ok: true, content: 'Empty storages: fridge_1. apple_1 is in it.' } };
    expect(checkCall(call(w, leak), new Map())).toEqual([expect.objectContaining({ class: 'leaks' })]);
    const content = 'counter_1: position {"x":0,"y":0,"z":0} (base frame), not on anything known.';
    const wrong = { set: 'world-model', tool: 'get_object_poses', result: { ok: true, content } };
    expect(checkCall(call(w, wrong), new Map())).toEqual([
      expect.objectContaining({ class: 'lies', detail: expect.stringContaining("counter_1's pose") }),
    ]);
  });

  it('calls an exception a crash', async () => {
    const w = await world();
    expect(checkCall(call(w, { result: undefined, thrown: 'TypeError: boom' }), new Map())).toEqual([
      expect.objectContaining({ class: 'crashes' }),
    ]);
  });
});
