// The Embodied Tool Protocol workflow (paper 004 §3.1) on the simulated farm and
// workshop, driven by scripted models: discovery by need grows the visible set,
// describe and invoke, a hanging tool ends at its own timeout and the run goes on,
// a tool out of process, and monitors raising events (a critical one preempting
// the running skill). Each test reads the world or the trace.
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChatMessage } from '../../models/model';
import { openSim } from '../../../robot/sim/open';
import { Conversation } from '../../runtime/conversation';
import { MemorySink, type TraceRecord } from '../../runtime/trace';
import { ChildProcessSource } from '../../tools/external/source';
import { defineTool } from '../../tools/tool';
import { answer, call, FakeModel, type FakeStep } from '../../../test/support/fake-model';
import { type EtpOptions, etpWorkflow } from '.';

const CORE = ['discover_tools', 'describe_tool', 'invoke_tool'];
const results = (sink: MemorySink, name?: string) =>
  sink.records.filter((r): r is Extract<TraceRecord, { type: 'tool_result' }> => r.type === 'tool_result' && (!name || r.name === name));
const text = (r: Extract<TraceRecord, { type: 'tool_result' }> | undefined) => r?.result ?? r?.error ?? '';
const lastTool = (messages: readonly ChatMessage[]): string => {
  const m = [...messages].reverse().find((x) => x.role === 'tool');
  return m?.role === 'tool' ? (m.content ?? '') : '';
};

async function open(scene: string, steps: FakeStep[], opts: EtpOptions = {}) {
  const { robot, control } = await openSim(scene);
  const model = new FakeModel(steps);
  const sink = new MemorySink();
  const conversation = new Conversation({ model, workflow: await etpWorkflow(robot, opts), robot, traceSinks: () => [sink] });
  return { robot, control, model, sink, conversation };
}

describe('etp: discovery and the visible set', () => {
  it('starts with the core, finds tools by need, and the found tools become callable and move the robot', async () => {
    const { control, model, sink, conversation } = await open('farm', [
      call('discover_tools', { need: 'leave the charging dock' }),
      call('discover_tools', { need: 'drive to the tomato bed' }),
      call('undock'),
      call('navigate', { location: 'poi_1' }),
      answer('I am at the tomato bed.'),
      answer('At poi_1.'),
    ]);
    const r = await conversation.send('go to the tomato bed');
    expect(r.final).toBe('I am at the tomato bed.');
    expect(control.facts()).toContain('robot_at(robot, poi_1)');
    // The list grew as tools were found: the core only, then undock, then navigate too.
    expect(model.requests[0]!.tools).toEqual(CORE);
    expect(model.requests[1]!.tools).toEqual(expect.arrayContaining([...CORE, 'undock']));
    expect(model.requests[1]!.tools).not.toContain('navigate');
    expect(model.requests[2]!.tools).toEqual(expect.arrayContaining(['undock', 'navigate']));
    const found = results(sink, 'discover_tools');
    expect(text(found[0])).toMatch(/^1\. undock — Leaves the charging dock/);
    expect(text(found[1])).toMatch(/^1\. navigate — Drives to a named location/);
    expect((found[1]!.data as { found: unknown[] }).found[0]).toMatchObject({ name: 'navigate', source: 'farm', matched: ['drive'] });
    // Direct calls run inside the isolation boundary too.
    expect(results(sink, 'navigate')[0]!.data).toMatchObject({ invocation: { status: 'ok' } });
    // The visible set belongs to the conversation: the next turn starts with what was found.
    await conversation.send('where are you now?');
    expect(model.requests[5]!.tools).toEqual(expect.arrayContaining([...CORE, 'undock', 'navigate']));
    control.dispose();
  });

  it('describes a tool (card and schema) and invokes any registered tool by name; mistakes come back as results', async () => {
    const { control, sink, conversation } = await open('farm', [
      call('describe_tool', { name: 'scann' }),
      call('describe_tool', { name: 'charge' }),
      call('invoke_tool', { name: 'charge', args: { target_percent: 150 } }),
      call('invoke_tool', { name: 'battery_status', args: {} }),
      call('invoke_tool', { name: 'undock', args: '{}' }),
      answer('The battery is at 60% and I have left the dock.'),
    ]);
    const r = await conversation.send('how is the battery, then leave the dock');
    expect(r.reason).toBe('final');
    const described = results(sink, 'describe_tool');
    expect(described[0]).toMatchObject({ ok: false, error: expect.stringMatching(/no tool named "scann".*Did you mean "scan"/) });
    expect(text(described[1])).toMatch(
      /^charge — Charges the battery at the dock up to a target percentage\.\n  inputs: target_percent\?: number/,
    );
    expect(text(described[1])).toMatch(/from: farm\n  arguments \(JSON Schema\): \{.*"target_percent":\{[^}]*"maximum":100/);
    const invoked = results(sink, 'invoke_tool');
    expect(invoked[0]).toMatchObject({ ok: false, error: expect.stringMatching(/^\[invalid_arguments\] Invalid arguments for charge/) });
    expect(invoked[1]).toMatchObject({ ok: true, result: 'Battery 60% (okay; low at 30%, critical at 10%), docked, charging.' });
    expect(invoked[2]).toMatchObject({ ok: true, result: 'Success: undocked; now at shelter_entry.' });
    expect(control.world.body).toMatchObject({ docked: false });
    control.dispose();
  });
});

describe('etp: isolated invocation', () => {
  const frozen = defineTool({
    name: 'read_soil_probe',
    description: 'Reads the soil moisture probe at the current point of interest.',
    category: 'information',
    params: z.strictObject({}),
    card: {
      outputs: 'volumetric water content',
      whenToUse: 'to decide whether beds need watering',
      dimension: 'perception',
      tags: ['soil', 'moisture'],
    },
    // A driver that never answers and never looks at its signal.
    execute: () => new Promise(() => undefined),
  });
  const source = new ChildProcessSource(fileURLToPath(new URL('../../../test/fixtures/external-tools.mjs', import.meta.url)), {
    cancelGraceMs: 100,
  });
  afterAll(() => source.close());

  it('a tool that hangs ends at its own timeout and the run goes on; a tool from outside runs in its own process', async () => {
    const { control, model, sink, conversation } = await open(
      'farm',
      [
        call('discover_tools', { need: 'soil moisture' }),
        call('read_soil_probe'),
        call('invoke_tool', { name: 'frost_forecast' }),
        call('discover_tools', { need: 'crop development from temperatures' }),
        call('growing_degree_days', { daily_mean_c: [14, 18, 21] }),
        call('invoke_tool', { name: 'battery_status' }),
        answer('The probe and the forecast did not answer; 23 degree days so far; battery fine.'),
      ],
      { tools: [frozen], external: [source], isolation: { timeoutMs: 250, graceMs: 50 } },
    );
    const r = await conversation.send('check the soil, the frost risk and the crop development');
    expect(r.reason).toBe('final');
    expect(results(sink, 'read_soil_probe')[0]).toMatchObject({ ok: false, data: { invocation: { status: 'timeout' } } });
    expect(text(results(sink, 'read_soil_probe')[0])).toMatch(/did not finish within 0.25 s and was abandoned/);
    expect(results(sink, 'invoke_tool')[0]).toMatchObject({ ok: false, error: expect.stringMatching(/^\[timeout\] frost_forecast/) });
    const gdd = results(sink, 'growing_degree_days')[0]!;
    expect(gdd).toMatchObject({ ok: true, result: '23.0 growing degree days' });
    const pid = (gdd.data as { pid: number }).pid;
    expect(pid).not.toBe(process.pid);
    expect(source.pids).toContain(pid);
    expect(text(results(sink, 'discover_tools')[1])).toMatch(/^1\. growing_degree_days/);
    // The run went on after both hangs: later calls ran and the model answered.
    expect(results(sink, 'invoke_tool')[1]).toMatchObject({ ok: true, result: expect.stringMatching(/^Battery 60%/) });
    expect(model.requests).toHaveLength(7);
    control.dispose();
  }, 20_000);
});

describe('etp: continuous tools', () => {
  it('a battery monitor runs in the background and its event reaches the model with the next result', async () => {
    let afterDrive = '';
    const { control, sink, conversation } = await open('farm', [
      call('invoke_tool', { name: 'battery_monitor' }),
      call('invoke_tool', { name: 'undock' }),
      call('invoke_tool', { name: 'navigate', args: { location: 'poi_2' } }),
      (req) => {
        afterDrive = lastTool(req.messages);
        return answer('At poi_2; the battery turned low on the way, I should charge soon.');
      },
    ]);
    control.inject({ type: 'set_battery', percent: 31 });
    await conversation.send('drive to poi_2 and watch the battery');
    expect(control.facts()).toContain('robot_at(robot, poi_2)');
    expect(afterDrive).toMatch(
      /^Success: arrived at poi_2[\s\S]*Events raised by running monitors:\n- battery_monitor: t=\S+ battery is low \(30%\)$/,
    );
    expect(sink.records.filter((x) => x.type === 'note').map((x) => (x.type === 'note' ? `${x.stage}: ${x.text}` : ''))).toEqual([
      expect.stringMatching(/^monitors: battery_monitor: t=\S+ battery is low \(30%\)$/),
    ]);
    control.dispose();
  });

  it('a person watcher hears "stop" during a drive: the skill is preempted where the robot is', async () => {
    const { control, sink, conversation } = await open('tabletop/workshop', [
      call('invoke_tool', { name: 'person_watcher' }),
      call('invoke_tool', { name: 'act', args: { action: 'navigate', params: ['table_1'] } }),
      answer('Someone told me to stop, so I stopped.'),
    ]);
    // The person speaks 6 s of simulated time into the 3 m drive.
    const t0 = control.time();
    let fired = false;
    control.world.processHooks.push(() => {
      if (!fired && control.time() > t0 + 6) {
        fired = true;
        control.inject({ type: 'person_said', person: 'Ada', text: 'stop please' });
      }
    });
    await conversation.send('go to table 1');
    const nav = results(sink, 'invoke_tool')[1]!;
    expect(nav).toMatchObject({ status: 'preempted' });
    expect(nav.error).toMatch(/^Interrupted: person_watcher reports: Ada said: "stop please"/);
    expect(control.facts()).not.toContain('robot_at(robot, table_1)');
    control.dispose();
  });
});
