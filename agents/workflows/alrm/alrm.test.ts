// ALRM on tabletop/fruits with scripted models: the planner hands subtasks to the
// executor; Tool-as-Policy calls the robot API as tools, Code-as-Policy writes a
// program that runs in the sandbox. Asserted on the physics world (SimControl)
// and on the trace: stages, the program, and each API call nested under it.
import { afterEach, describe, expect, it } from 'vitest';
import { answer, call, FakeModel } from '../../../test/support/fake-model';
import { openSim, type OpenedSim } from '../../../robot/sim/open';
import { Conversation } from '../../runtime/conversation';
import { MemorySink, type TraceRecord } from '../../runtime/trace';
import { alrmWorkflow } from './workflow';

let opened: OpenedSim | undefined;
afterEach(() => {
  opened?.control.dispose();
  opened = undefined;
});

async function fruits(): Promise<OpenedSim> {
  opened = await openSim('tabletop/fruits');
  return opened;
}

const code = (text: string) => answer(`Here is the program.\n\`\`\`javascript\n${text}\n\`\`\``);
const results = (sink: MemorySink) =>
  sink.records.filter((r): r is Extract<TraceRecord, { type: 'tool_result' }> => r.type === 'tool_result');
const calls = (sink: MemorySink) => sink.records.filter((r): r is Extract<TraceRecord, { type: 'tool_call' }> => r.type === 'tool_call');

describe('alrm/tap', () => {
  it('the planner hands a subtask to the executor, which calls the API as tools; the lemon ends in the bowl', async () => {
    const { robot, control } = await fruits();
    // One model for both agents, as `--model scripted:FILE` gives: turns in request order.
    const model = new FakeModel([
      call('executor', { task: 'Pick up lemon_1 and place it in bowl_1.' }, { content: 'Thought: the lemon goes in the bowl.' }),
      call('pick', { object_name: 'lemon' }),
      call('place', { target: 'bowl' }),
      call('move_to_home_pos'),
      answer('Picked lemon_1 and placed it in bowl_1.'),
      answer('The lemon is in the bowl.'),
    ]);
    const sink = new MemorySink();
    const c = new Conversation({ model, workflow: alrmWorkflow('tap'), robot, traceSinks: () => [sink] });
    const r = await c.send('Put the lemon in the bowl.');
    expect(r).toMatchObject({ reason: 'final', final: 'The lemon is in the bowl.' });
    expect(control.facts()).toContain('in(lemon_1, bowl_1)');
    expect(results(sink).map((x) => [x.stage, x.name, x.ok])).toEqual([
      ['planner/executor', 'pick', true],
      ['planner/executor', 'place', true],
      ['planner/executor', 'move_to_home_pos', true],
      ['planner', 'executor', true],
    ]);
    // The planner read the executor's report as its observation.
    expect(model.requests[5]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Picked lemon_1 and placed it in bowl_1.' });
    expect(model.requests[5]!.tools).toEqual(['executor']);
    expect(model.requests[1]!.tools).toEqual(expect.arrayContaining(['pick', 'place', 'get_pose', 'compute_grasp']));
  });
});

describe('alrm/cap', () => {
  it('the executor writes a program; it runs in the sandbox and each API call is traced under run_program', async () => {
    const { robot, control } = await fruits();
    const model = new FakeModel([
      call('executor', { task: 'Pick up lemon_1 and place it in bowl_1.' }),
      code(
        [
          'const objects = get_objects();',
          'pick(objects.find((id) => id.startsWith("lemon")));',
          'place({ target: "bowl_1" });',
          'move_to_home_pos();',
        ].join('\n'),
      ),
      answer('Done: the lemon is in the bowl.'),
    ]);
    const sink = new MemorySink();
    const c = new Conversation({ model, workflow: alrmWorkflow('cap'), robot, traceSinks: () => [sink] });
    const r = await c.send('Put the lemon in the bowl.');
    expect(r).toMatchObject({ reason: 'final', final: 'Done: the lemon is in the bowl.' });
    expect(control.facts()).toContain('in(lemon_1, bowl_1)');
    expect(await robot.perception.holding()).toBeUndefined();
    const program = calls(sink).find((x) => x.name === 'run_program')!;
    expect(program).toMatchObject({ stage: 'planner/executor', arguments: expect.stringContaining('get_objects()') });
    const nested = results(sink).filter((x) => x.parent === program.id);
    expect(nested.map((x) => [x.stage, x.name, x.ok])).toEqual([
      ['planner/executor', 'get_objects', true],
      ['planner/executor', 'pick', true],
      ['planner/executor', 'place', true],
      ['planner/executor', 'move_to_home_pos', true],
    ]);
    expect(calls(sink).find((x) => x.name === 'pick')).toMatchObject({
      parent: program.id,
      arguments: JSON.stringify({ object_name: 'lemon_1' }),
    });
    // The planner's observation is the execution log.
    const report = model.requests[2]!.messages.at(-1);
    expect(report).toMatchObject({
      role: 'tool',
      content: expect.stringMatching(/^The program ran to the end\.\nAPI calls:\n1\. get_objects\(\)/),
    });
    expect(String(report?.content)).toContain('3. place({"target":"bowl_1"}) → Success: put lemon_1');
    // The executor read the API as declarations in base-frame terms, with the one-shot example.
    const system = String(model.requests[1]!.messages[0]!.content);
    expect(system).toContain('function get_pose(name: string): { position: { x: number; y: number; z: number } };');
    expect(system).toContain('x forward, y left, z up');
  });

  const violations: Array<[string, string, RegExp]> = [
    ['an endless loop', 'while (true) {}', /ran longer than its time limit/],
    ['unbounded allocation', 'const a = []; while (true) a.push("x".repeat(100000));', /ran out of memory|ran longer than its time limit/],
    ['an uncaught throw', 'throw new Error("the lemon is not ripe");', /threw|Uncaught Error.*the lemon is not ripe/],
    ['host access', 'const fs = require("fs"); fs.readFileSync("/etc/passwd");', /used require, which is not available/],
  ];
  it.each(violations)(
    '%s is stopped with a readable error that goes back to the executor; its next program runs',
    async (_what, bad, why) => {
      const { robot, control } = await fruits();
      const model = new FakeModel([
        call('executor', { task: 'Pick up plum_1 and place it in bowl_1.' }),
        code(bad),
        code('pick("plum_1");\nplace({ target: "bowl_1" });'),
        answer('The plum is in the bowl.'),
      ]);
      const sink = new MemorySink();
      const wf = alrmWorkflow('cap', { programLimits: { timeMs: 1500, memoryBytes: 8 * 1024 * 1024 } });
      const c = new Conversation({ model, workflow: wf, robot, traceSinks: () => [sink] });
      const r = await c.send('Put the plum in the bowl.');
      expect(r).toMatchObject({ reason: 'final', final: 'The plum is in the bowl.' });
      const programs = results(sink).filter((x) => x.name === 'run_program');
      expect(programs.map((x) => x.ok)).toEqual([false, true]);
      expect(programs[0]!.error).toMatch(why);
      // The executor model read the error, and was asked for a corrected program.
      const feedback = model.requests[2]!.messages.at(-1);
      expect(feedback).toMatchObject({ role: 'user', content: expect.stringMatching(/^The program failed:\n/) });
      expect(String(feedback?.content)).toMatch(why);
      expect(control.facts()).toContain('in(plum_1, bowl_1)');
    },
  );

  it('a program that keeps failing ends the subtask; the planner reads why and the world is unchanged', async () => {
    const { robot, control } = await fruits();
    const before = control.hash();
    const model = new FakeModel([
      call('executor', { task: 'Pick up the durian and place it in bowl_1.' }),
      code('pick("durian");'),
      code('pick("durian_1");'),
      code('pick("the durian");'),
      answer('There is no durian on the table.'),
    ]);
    const sink = new MemorySink();
    const c = new Conversation({ model, workflow: alrmWorkflow('cap'), robot, traceSinks: () => [sink] });
    const r = await c.send('Put the durian in the bowl.');
    expect(r.final).toBe('There is no durian on the table.');
    const report = results(sink).find((x) => x.name === 'executor')!;
    expect(report).toMatchObject({ ok: false, stage: 'planner' });
    expect(report.error).toMatch(/^The subtask was not completed after 3 program\(s\)\.\nAPI calls:\n1\. pick\("the durian"\) ✗/);
    expect(control.hash()).toBe(before);
  });
});

describe('alrm/cap under Stop', () => {
  it('Stop while a program runs ends the program and the running skill at once; nothing is placed', async () => {
    const { robot, control } = await fruits();
    const model = new FakeModel([
      call('executor', { task: 'Pick up lemon_1 and place it in bowl_1.' }),
      code('pick("lemon_1");\nplace({ target: "bowl_1" });'),
    ]);
    const sink = new MemorySink();
    const c = new Conversation({
      model,
      workflow: alrmWorkflow('cap'),
      robot,
      traceSinks: () => [sink],
      // The person presses Stop while the program's pick runs: the skill yields to the event loop as it steps.
      onEvent: (e) => e.type === 'tool_start' && e.name === 'pick' && setImmediate(() => c.stop('stopped from the test')),
    });
    const r = await c.send('Put the lemon in the bowl.');
    expect(r).toMatchObject({ reason: 'stopped', stopped: { message: 'stopped from the test' } });
    expect(control.facts()).not.toContain('in(lemon_1, bowl_1)');
    expect(calls(sink).some((x) => x.name === 'place')).toBe(false);
    // Every call has its result in the trace, the interrupted pick too, before the program's own.
    expect(results(sink).map((x) => [x.name, x.ok])).toEqual([
      ['pick', false],
      ['run_program', false],
      ['executor', false],
    ]);
    expect(await robot.perception.holding()).toBeUndefined();
  });
});

describe('positions in the robot base frame (REP 103)', () => {
  it('get_pose answers x forward, y left, z up; "10 cm above the bowl" in a program means what it says', async () => {
    const { robot, control } = await fruits();
    const model = new FakeModel([
      call('executor', { task: 'Get the position of center-right, then hover 10 cm above bowl_1.' }),
      code(
        [
          'const ref = get_pose("center-right").position;',
          'print(JSON.stringify(ref));',
          'const bowl = get_pose("bowl_1").position;',
          'move_to({ pose: { position: { x: bowl.x, y: bowl.y, z: bowl.z + 0.1 } } });',
        ].join('\n'),
      ),
      answer('Hovering above the bowl.'),
    ]);
    const sink = new MemorySink();
    const c = new Conversation({ model, workflow: alrmWorkflow('cap'), robot, traceSinks: () => [sink] });
    await c.send('Hover above the bowl.');
    // center-right is at world (0.28, 0.75, 0.17), the arm's base at (-0.05, 0.75, 0) facing +x: 0.33 ahead, 0.17 to the right.
    expect(results(sink).find((x) => x.name === 'get_pose')!.data).toEqual({ position: { x: 0.33, y: -0.17, z: 0 } });
    const bowl = (await robot.perception.pose('bowl_1'))!.position;
    const tcp = control.world.tcp()!.p;
    expect(tcp.x).toBeCloseTo(bowl[0], 1);
    expect(tcp.z).toBeCloseTo(bowl[2], 1);
    expect(tcp.y - bowl[1]).toBeCloseTo(0.1, 1);
    const moved = results(sink).find((x) => x.name === 'move_to')!;
    expect(moved.result).toMatch(/^Success: the gripper is at \(x [\d.]+, y -?[\d.]+, z [\d.]+\)/);
  });
});
