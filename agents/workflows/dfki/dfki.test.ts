// The DFKI workflow (paper 003) driven by scripted models, one per agent as in
// Table 1: the router's two branches, each critic verdict, the round limit,
// preemption of a running skill by a critical event, and the farm mission with a
// low battery. Every test reads the world (SimControl) or the trace.
import { describe, expect, it } from 'vitest';
import type { ChatMessage, CompletionRequest } from '../../models/model';
import { openSim } from '../../../robot/sim/open';
import type { SimControl } from '../../../robot/sim/control';
import { Conversation } from '../../runtime/conversation';
import { MemorySink, type TraceRecord } from '../../runtime/trace';
import { answer, call, FakeModel, type FakeTurn } from '../../../test/support/fake-model';
import { createWorkflow } from '..';
import { type DfkiOptions, dfkiWorkflow } from '.';

const routeTo = (category: 'chat' | 'task') => new FakeModel([call('classify_request', { category })]);
const verdicts = (...vs: Array<Record<string, string>>) => new FakeModel(vs.map((v) => answer(JSON.stringify(v))));
const act = (action: string, ...params: string[]) => call('act', { action, params });
const snapshot = () => call('get_semantic_environment_representation_snapshot');
const events = () => call('check_events');

async function open(scene: string, models: DfkiOptions['models'], opts: Omit<DfkiOptions, 'models'> = {}) {
  const { robot, control } = await openSim(scene);
  const sink = new MemorySink();
  const workflow = await dfkiWorkflow(robot, { ...opts, models });
  const conversation = new Conversation({ model: new FakeModel([]), workflow, robot, traceSinks: () => [sink] });
  return { robot, control, sink, conversation };
}

const notes = (sink: MemorySink) =>
  sink.records.filter((r) => r.type === 'note').map((r) => (r.type === 'note' ? `${r.stage}: ${r.text}` : ''));
const stagesInOrder = (sink: MemorySink): string[] => sink.records.map((r) => r.stage ?? '').filter((s, i, all) => s !== all[i - 1]);
const results = (sink: MemorySink, name?: string) =>
  sink.records.filter((r): r is Extract<TraceRecord, { type: 'tool_result' }> => r.type === 'tool_result' && (!name || r.name === name));
const lastToolMessage = (req: { messages: readonly ChatMessage[] }): string => {
  const m = [...req.messages].reverse().find((x) => x.role === 'tool');
  return m?.role === 'tool' ? (m.content ?? '') : '';
};
const place = (control: SimControl): string | undefined => control.facts().find((f) => f.startsWith('robot_at('));

describe('dfki: router', () => {
  it('sends chit-chat to the chatbot, which answers without acting; the planner and critic never run', async () => {
    const chatbot = new FakeModel([call('get_available_locations'), answer('I can go to poi_1 to poi_5 and the shelter.')]);
    const planner = new FakeModel([]);
    const { control, sink, conversation } = await open('farm', { router: routeTo('chat'), chatbot, planner, critic: new FakeModel([]) });
    const before = control.hash();
    const r = await conversation.send('Hi! Where can you go?');
    expect(r).toMatchObject({ reason: 'final', final: 'I can go to poi_1 to poi_5 and the shelter.' });
    expect(notes(sink)).toEqual(['router: route: chat']);
    expect(stagesInOrder(sink)).toEqual(['router', 'chatbot']);
    // The chatbot talks; it is not offered act.
    expect(chatbot.requests[0]!.tools).toEqual([
      'get_today_date',
      'get_available_locations',
      'get_semantic_environment_representation_snapshot',
      'speak',
    ]);
    expect(results(sink, 'get_available_locations')[0]!.result).toMatch(/poi_1 \(poi\)/);
    expect(planner.requests).toHaveLength(0);
    expect(control.hash()).toBe(before);
    control.dispose();
  });

  it('sends a task to the planner, whose prompt is built from the robot and scene; the critic confirms it achieved', async () => {
    const planner = new FakeModel([
      call('reflect', { thought: 'Docked; undock, drive to poi_1, scan.', plan: ['undock', 'navigate poi_1', 'scan'] }),
      snapshot(),
      act('undock'),
      act('navigate', 'poi_1'),
      act('scan', 'poi_1'),
      events(),
      answer('Scanned poi_1: tomato_2 shows yellowing lower leaves.'),
    ]);
    const critic = verdicts({ verdict: 'achieved', reason: 'poi_1 was scanned successfully.' });
    const { control, sink, conversation } = await open('farm', { router: routeTo('task'), planner, critic });
    const r = await conversation.send('scan poi_1');
    expect(r).toMatchObject({ reason: 'final', final: 'Scanned poi_1: tomato_2 shows yellowing lower leaves.' });
    expect(control.world.scans.has('poi_1')).toBe(true);
    expect(place(control)).toBe('robot_at(robot, poi_1)');
    expect(stagesInOrder(sink)).toEqual(['router', 'planner', 'critic']);
    expect(notes(sink)).toEqual(['router: route: task', 'critic: round 1: achieved — poi_1 was scanned successfully.']);
    // The planner got the paper's tools and a prompt made from this robot and scene.
    expect(planner.requests[0]!.tools).toEqual(['reflect', 'act', 'get_semantic_environment_representation_snapshot', 'check_events']);
    const system = planner.requests[0]!.messages[0]!.content as string;
    expect(system).toMatch(/Valdemar/);
    expect(system).toMatch(/shelter_entry/);
    expect(system).toMatch(/low at 30% or less, critical at 10% or less/);
    // The critic read the execution log, with the scan's result in it.
    const seen = critic.requests[0]!.messages.at(-1)!.content as string;
    expect(seen).toMatch(/^Goal: scan poi_1/);
    expect(seen).toMatch(/\[result of act\] Success: scanned poi_1, 3 plants/);
    control.dispose();
  });
});

describe('dfki: the goal-completion critic', () => {
  it('continue: a planner that only described the task is sent back, and acts in its second round', async () => {
    const planner = new FakeModel([
      answer('To do this I would undock and drive to poi_2, then scan it.'),
      act('undock'),
      act('navigate', 'poi_2'),
      act('scan', 'poi_2'),
      answer('Done: poi_2 scanned.'),
    ]);
    const critic = verdicts(
      { verdict: 'continue', reason: 'nothing was done yet: the robot is still docked and poi_2 is not scanned' },
      { verdict: 'achieved', reason: 'poi_2 scanned' },
    );
    const { control, sink, conversation } = await open('farm', { router: routeTo('task'), planner, critic });
    const r = await conversation.send('scan poi_2');
    expect(r).toMatchObject({ reason: 'final', final: 'Done: poi_2 scanned.' });
    expect(control.world.scans.has('poi_2')).toBe(true);
    expect(stagesInOrder(sink)).toEqual(['router', 'planner', 'critic', 'planner', 'critic']);
    // Round 2 began with the critic's reason, in the planner's own history.
    expect(planner.requests[1]!.messages.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/^The goal-completion critic says the request is not done yet: nothing was done yet/),
    });
    // The second verdict saw both rounds.
    expect(critic.requests[1]!.messages.at(-1)!.content).toMatch(/I would undock[\s\S]*scanned poi_2/);
    control.dispose();
  });

  it('stop (blocked): with the emergency stop pressed the planner fails to move; the critic stops instead of retrying', async () => {
    const planner = new FakeModel([act('undock'), events(), answer('I cannot move: the emergency stop is pressed.')]);
    const critic = verdicts({ verdict: 'stop', cause: 'blocked', reason: 'the emergency stop is pressed; a person must release it' });
    const { control, sink, conversation } = await open('farm', { router: routeTo('task'), planner, critic });
    control.inject({ type: 'estop_pressed' });
    const r = await conversation.send('scan poi_1');
    expect(r).toMatchObject({ reason: 'final', final: 'I cannot move: the emergency stop is pressed.' });
    expect(results(sink, 'act')[0]).toMatchObject({ ok: false, error: expect.stringMatching(/^Failed \(estop\)/) });
    expect(notes(sink)).toContain('critic: round 1: stop (blocked) — the emergency stop is pressed; a person must release it');
    expect(planner.requests).toHaveLength(3);
    expect(control.world.body).toMatchObject({ docked: true });
    control.dispose();
  });

  it('stop (infeasible): an impossible request goes to the planner, which refuses; nothing moves', async () => {
    const planner = new FakeModel([answer("I can't fly, and Paris is far outside the field I work in.")]);
    const critic = verdicts({ verdict: 'stop', cause: 'infeasible', reason: 'the robot cannot fly and may not leave the field' });
    const { control, sink, conversation } = await open('farm', { router: routeTo('task'), planner, critic });
    const before = control.hash();
    const r = await conversation.send('Fly to Paris');
    expect(r.final).toMatch(/can't fly/);
    expect(notes(sink)).toEqual([
      'router: route: task',
      'critic: round 1: stop (infeasible) — the robot cannot fly and may not leave the field',
    ]);
    expect(control.hash()).toBe(before);
    control.dispose();
  });

  it('stops at the round limit when the critic keeps asking to continue', async () => {
    const planner = new FakeModel([act('undock'), answer('Undocked.'), events(), answer('Checked events.')]);
    const critic = verdicts(
      { verdict: 'continue', reason: 'poi_4 not scanned' },
      { verdict: 'continue', reason: 'poi_4 still not scanned' },
    );
    const { control, sink, conversation } = await open('farm', { router: routeTo('task'), planner, critic }, { maxRounds: 2 });
    const r = await conversation.send('scan poi_4');
    expect(r).toMatchObject({ reason: 'max_iterations', final: 'Checked events.' });
    expect(notes(sink).at(-1)).toBe('critic: round limit reached (2): the critic still asks to continue');
    expect(critic.requests).toHaveLength(2);
    expect(control.world.scans.size).toBe(0);
    expect(control.world.body).toMatchObject({ docked: false });
    control.dispose();
  });
});

describe('dfki: preemption', () => {
  it('a critical battery during a drive stops the rover at once; the planner reads the reason as the call’s result', async () => {
    let seen = '';
    const planner = new FakeModel([
      act('undock'),
      act('navigate', 'poi_3'),
      (req) => {
        seen = lastToolMessage(req);
        return events();
      },
      answer('The battery turned critical on the way to poi_3, so I stopped there.'),
    ]);
    const critic = verdicts({ verdict: 'stop', cause: 'blocked', reason: 'battery critical' });
    const { control, sink, conversation } = await open('farm', { router: routeTo('task'), planner, critic });
    control.inject({ type: 'set_battery', percent: 11.2 });
    const r = await conversation.send('go to poi_3');
    expect(r.reason).toBe('final');
    const nav = results(sink, 'act')[1]!;
    expect(nav).toMatchObject({ status: 'preempted', ok: false });
    expect(nav.error).toMatch(/^Interrupted: the battery is critical \(10%\)\. act reported: Failed \(aborted\)/);
    expect(seen).toMatch(/^Interrupted: the battery is critical/);
    // Stopped in the physics, part-way: not at poi_3, the battery just past the threshold (not drained by the full drive).
    expect(place(control)).not.toBe('robot_at(robot, poi_3)');
    expect(control.world.battery.percent).toBeGreaterThan(9.5);
    expect(notes(sink)).toContain('planner: preempted the running action: the battery is critical (10%)');
    control.dispose();
  });

  it.each([
    [
      'a person saying stop',
      { type: 'person_said', person: 'Ada', text: 'Stop! Wait there.' } as const,
      /^Interrupted: Ada said "Stop! Wait there\."/,
    ],
    [
      'the emergency stop',
      { type: 'estop_pressed' } as const,
      /^Interrupted: the emergency stop was pressed\. act reported: Failed \((aborted|estop)\): stopped while driving to table_1/,
    ],
  ])('%s during a drive ends the skill where the robot is, and the planner goes on', async (_what, event, expected) => {
    const planner = new FakeModel([act('navigate', 'table_1'), events(), answer('I stopped because I was told to.')]);
    const critic = verdicts({ verdict: 'achieved', reason: 'stopping was right' });
    const { control, sink, conversation } = await open('tabletop/workshop', { router: routeTo('task'), planner, critic });
    const start = { ...control.world.body.basePose.p };
    // The event arrives 6 s of simulated time into the 3 m drive (after the turn on the spot, mid-way).
    const t0 = control.time();
    let fired = false;
    control.world.processHooks.push(() => {
      if (!fired && control.time() > t0 + 6) {
        fired = true;
        control.inject(event);
      }
    });
    const r = await conversation.send('go to table 1');
    expect(r.final).toBe('I stopped because I was told to.');
    expect(results(sink, 'act')[0]).toMatchObject({ status: 'preempted', error: expect.stringMatching(expected) });
    expect(place(control)).not.toBe('robot_at(robot, table_1)');
    const p = control.world.body.basePose.p;
    const moved = Math.hypot(p.x - start.x, p.z - start.z);
    expect(moved).toBeGreaterThan(0.3);
    expect(moved).toBeLessThan(2.5);
    // check_events still reports it afterwards.
    expect(results(sink, 'check_events')[0]!.result).toMatch(event.type === 'estop_pressed' ? /emergency stop pressed/ : /Ada said/);
    control.dispose();
  });
});

/** A planner that follows the paper's Experiment 6 policy from what it reads: survey, charge when low, resume, dock. */
function missionPlanner(pois: string[]): (req: CompletionRequest) => FakeTurn {
  const queue: FakeTurn[] = [snapshot(), act('undock')];
  for (const p of pois) queue.push(act('navigate', p), events(), act('scan', p), events());
  queue.push(act('navigate', 'shelter_entry'), act('dock'), answer(`Scanned ${pois.join(', ')}; recharged once on the way; docked.`));
  let charged = false;
  return (req) => {
    const last = lastToolMessage(req);
    if (!charged && /battery is low/.test(last)) {
      charged = true;
      // Interrupt the survey: the scans not done yet go after the charge.
      const scanned = new Set(
        req.messages.flatMap((m) =>
          m.role === 'tool' && m.content?.startsWith('Success: scanned ') ? [m.content.split(' ')[2]!.replace(',', '')] : [],
        ),
      );
      const rest = pois.filter((p) => !scanned.has(p));
      queue.splice(0, queue.length);
      queue.push(act('navigate', 'shelter_entry'), act('dock'), act('charge', '80'), act('undock'));
      for (const p of rest) queue.push(act('navigate', p), events(), act('scan', p), events());
      queue.push(act('navigate', 'shelter_entry'), act('dock'), answer(`Scanned ${pois.join(', ')}; recharged once on the way; docked.`));
    }
    return queue.shift()!;
  };
}

describe('dfki: the farm mission', () => {
  it('surveys the points of interest, returns to dock and charge when the battery turns low, resumes, and docks at the end', async () => {
    const planner = new FakeModel(missionPlanner(['poi_1', 'poi_2', 'poi_3']));
    const critic = verdicts({ verdict: 'achieved', reason: 'all three scanned, robot docked' });
    const { control, sink, conversation } = await open('farm', { router: routeTo('task'), planner, critic });
    control.inject({ type: 'set_battery', percent: 31.5 });
    const r = await conversation.send('scan poi_1, poi_2 and poi_3, then return to the dock');
    expect(r).toMatchObject({ reason: 'final', final: 'Scanned poi_1, poi_2, poi_3; recharged once on the way; docked.' });
    // The world: every point scanned, the rover docked, the battery charged.
    expect([...control.world.scans.keys()].sort()).toEqual(['poi_1', 'poi_2', 'poi_3']);
    expect(control.world.body).toMatchObject({ docked: true });
    expect(control.facts()).toContain('battery(robot, okay)');
    // The order in the trace: low battery read, back to charge, then the survey resumed.
    const acts = results(sink, 'act').map((x) => (x.result ?? x.error ?? '').split(/[;.:]/)[0]!);
    const low = sink.records.findIndex(
      (x) => x.type === 'tool_result' && x.name === 'check_events' && /battery is low/.test(x.result ?? ''),
    );
    const charge = sink.records.findIndex((x) => x.type === 'tool_result' && /^Success: charged from/.test(x.result ?? ''));
    const lastScan = sink.records.findLastIndex((x) => x.type === 'tool_result' && /^Success: scanned/.test(x.result ?? ''));
    expect(low).toBeGreaterThan(0);
    expect(charge).toBeGreaterThan(low);
    expect(lastScan).toBeGreaterThan(charge);
    expect(acts.filter((a) => a === 'Success')).toHaveLength(acts.length);
    expect(notes(sink).at(-1)).toBe('critic: round 1: achieved — all three scanned, robot docked');
    control.dispose();
  }, 60_000);

  it('runs from the workflow registry with one model for every agent (as the CLI does)', async () => {
    const { robot, control } = await openSim('farm');
    const model = new FakeModel([
      call('classify_request', { category: 'task' }),
      act('undock'),
      act('navigate', 'poi_5'),
      act('scan', 'poi_5'),
      answer('poi_5 scanned: sunflower_1 is wilting.'),
      answer('{"verdict":"achieved","reason":"poi_5 scanned"}'),
    ]);
    const sink = new MemorySink();
    const c = new Conversation({ model, robot, workflow: await createWorkflow('dfki', robot), traceSinks: () => [sink] });
    expect((await c.send('scan poi_5')).final).toBe('poi_5 scanned: sunflower_1 is wilting.');
    expect(control.world.scans.get('poi_5')?.readings.length).toBe(3);
    expect(stagesInOrder(sink)).toEqual(['router', 'planner', 'critic']);
    control.dispose();
  });
});
