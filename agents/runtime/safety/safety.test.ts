import { describe, expect, it } from 'vitest';
import { openSim } from '../../../robot/sim/open';
import type { Outcome } from '../../../robot/robot';
import type { SkillCall, SkillPredictor } from '../../../robot/skills';
import { FakeModel } from '../../../test/support/fake-model';
import { findToolSet } from '../../tools/sets';
import { defineTool } from '../../tools/tool';
import { z } from 'zod';
import { runFlow } from '../flow';
import { MemorySink, Trace } from '../trace';
import { type SafetyDecision, type DivergenceReport, SafetyChain, runToolSafely } from './index';

function collect(): {
  decisions: SafetyDecision[];
  divergences: DivergenceReport[];
  scope: { via: 'direct'; report: (d: SafetyDecision) => void; diverged: (d: DivergenceReport) => void };
} {
  const decisions: SafetyDecision[] = [];
  const divergences: DivergenceReport[] = [];
  return { decisions, divergences, scope: { via: 'direct', report: (d) => decisions.push(d), diverged: (d) => divergences.push(d) } };
}

describe('the safety chain', () => {
  it('refuses NaN and infinity and targets outside the workspace before the robot moves', async () => {
    const { robot, control } = await openSim('tabletop/fruits');
    const chain = new SafetyChain(robot);
    const { decisions, scope } = collect();
    const r = chain.guard(scope);
    const before = control.hash();
    const nan = await r.arm!.moveTool({ position: [0.3, Number.NaN, 0], tiltDeg: 0 });
    expect(nan).toMatchObject({ ok: false, code: 'invalid_argument' });
    expect(nan.summary).toMatch(/pose\.position\[1\] must be a finite number/);
    const far = await r.arm!.place({ kind: 'point', position: [40, 0.8, 0] });
    expect(far).toMatchObject({ ok: false, code: 'invalid_argument' });
    expect(far.summary).toMatch(/the target at \(40, 0\.8, 0\) is outside the robot's workspace: it lies \d+(\.\d+)? m beyond the edge/);
    expect(control.hash()).toBe(before);
    expect(decisions.map((d) => [d.verdict, d.checks])).toEqual([
      ['refuse', ['finite']],
      ['refuse', ['workspace']],
    ]);
    chain.dispose();
    control.dispose();
  });

  it('clamps a relative motion, says so in the outcome, and traces the arguments as run', async () => {
    const { robot, control } = await openSim('tabletop/workshop');
    const chain = new SafetyChain(robot, { limits: { maxStepM: 0.2 } });
    const { decisions, scope } = collect();
    const out = await chain.guard(scope).base!.step(3, 0, 0);
    expect(out.summary).toMatch(/^the safety chain changed the call \(forward clamped from 3 to 0.2 m\); /);
    expect(decisions[0]).toMatchObject({ verdict: 'clamp', skill: 'base.step', args: { forward: 3 }, ran: { forward: 0.2 } });
    chain.dispose();
    control.dispose();
  });

  it('a clamped wait says so before the seconds it waited, and a wait clamped to nothing says why it did not run', async () => {
    const { robot, control } = await openSim('kitchen');
    const chain = new SafetyChain(robot);
    const { decisions, scope } = collect();
    const long = await chain.guard(scope).wait(10_000);
    expect(long).toMatchObject({ ok: true });
    expect(long.summary).toBe('the safety chain changed the call (seconds clamped from 10000 to 3600 s); waited 3600 s');
    const none = await chain.guard(scope).wait(-5);
    expect(none).toMatchObject({ ok: false, code: 'invalid_argument' });
    expect(none.summary).toMatch(/^the safety chain changed the call \(seconds clamped from -5 to 0 s\); a wait of 0 s cannot run: /);
    expect(decisions.map((d) => d.verdict)).toEqual(['clamp', 'clamp']);
    chain.dispose();
    control.dispose();
  });

  it('refuses motion under an e-stop and on an empty battery, and rate-limits in the robot’s time', async () => {
    const { robot, control } = await openSim('tabletop/fruits');
    const chain = new SafetyChain(robot, { limits: { maxMotions: 2, rateWindowS: 60 } });
    const { decisions, scope } = collect();
    const r = chain.guard(scope);
    control.inject({ type: 'estop_pressed' });
    expect(await r.arm!.pick('lemon_1')).toMatchObject({ ok: false, code: 'estop', summary: expect.stringMatching(/emergency stop/) });
    control.inject({ type: 'estop_released' });
    control.inject({ type: 'set_battery', percent: 0 });
    expect(await r.arm!.moveToPosture('home')).toMatchObject({ ok: false, code: 'battery_empty' });
    control.inject({ type: 'set_battery', percent: 80 });
    // Two motions within the window run (they fail or not on their own); the third is refused.
    await r.arm!.moveToPosture('home');
    await r.arm!.moveToPosture('home');
    expect(await r.arm!.moveToPosture('home')).toMatchObject({
      ok: false,
      code: 'refused',
      summary: expect.stringMatching(/more than 2 motion/),
    });
    // Speech is not motion: it is neither stopped by the e-stop check nor counted.
    expect((await r.speech!.say('hello')).ok).toBe(true);
    expect(decisions.map((d) => `${d.verdict}:${d.checks.join('+')}`)).toEqual([
      'refuse:estop',
      'refuse:battery',
      'allow:',
      'allow:',
      'refuse:rate',
      'allow:',
    ]);
    chain.dispose();
    control.dispose();
  });

  it('knows an e-stop pressed before the chain started', async () => {
    const { robot, control } = await openSim('tabletop/fruits');
    control.inject({ type: 'estop_pressed' });
    const chain = new SafetyChain(robot);
    expect(await chain.guard({ via: 'direct' }).arm!.pick('lemon_1')).toMatchObject({ code: 'estop', summary: /safety chain/ });
    chain.dispose();
    control.dispose();
  });

  it('holds an action a predictor expects to fail, asks, and reports divergences after the run', async () => {
    const { robot, control } = await openSim('tabletop/fruits');
    const seen: string[] = [];
    const predictor: SkillPredictor = {
      predict: async (call: SkillCall) => {
        seen.push(`predict ${call.skill}`);
        return call.skill === 'arm.pick'
          ? { outcome: { ok: false, code: 'out_of_reach', summary: 'too far' }, concerns: ['arm.pick would fail: too far'] }
          : { outcome: { ok: true, summary: 'fine' }, concerns: [] };
      },
      observe: async (_c, p, actual: Outcome) => {
        seen.push('observe');
        return p.outcome.ok === actual.ok
          ? []
          : [{ kind: 'outcome', subject: 'result', predicted: p.outcome.summary, actual: actual.summary }];
      },
      discard: async () => void seen.push('discard'),
    };
    const chain = new SafetyChain(robot, { predictor });
    const { decisions, divergences, scope } = collect();
    const answers = [false, true];
    const asked: string[] = [];
    const r = chain.guard({ ...scope, ask: async (q) => (asked.push(q.reason), { approved: answers.shift()! }) });
    const no = await r.arm!.pick('lemon_1');
    expect(no).toMatchObject({ ok: false, code: 'refused', summary: /person said no/ });
    expect(control.holding()).toBeUndefined();
    const yes = await r.arm!.pick('lemon_1');
    expect(yes.ok).toBe(true); // the prediction was wrong: the real pick worked
    expect(asked[0]).toMatch(/shadow simulator predicts: arm.pick would fail/);
    expect(decisions.map((d) => [d.verdict, d.answer, d.prediction?.code])).toEqual([
      ['ask', 'rejected', 'out_of_reach'],
      ['ask', 'approved', 'out_of_reach'],
    ]);
    expect(divergences).toEqual([expect.objectContaining({ kind: 'outcome', skill: 'arm.pick', predicted: 'too far' })]);
    expect(seen).toEqual(['predict arm.pick', 'discard', 'predict arm.pick', 'observe']);
    // Without anyone to ask, a held action does not run.
    const alone = await chain.guard({ via: 'direct' }).arm!.pick('lemon_1');
    expect(alone).toMatchObject({ ok: false, code: 'refused', summary: /no one was there/ });
    chain.dispose();
    control.dispose();
  });

  it('runs a tool for an outside caller under the approval policy of its category', async () => {
    const { robot, control } = await openSim('tabletop/fruits');
    const chain = new SafetyChain(robot);
    const tools = await findToolSet('alrm')!.build(robot);
    const pick = tools.find((t) => t.name === 'pick')!;
    const look = tools.find((t) => t.name === 'get_objects')!;
    const readOnly = { policy: { information: 'auto', action: 'deny' } } as const;
    expect((await runToolSafely(chain, look, {}, { via: 'mcp', gate: readOnly })).status).toBe('ok');
    const denied = await runToolSafely(chain, pick, { object_name: 'lemon' }, { via: 'mcp', gate: readOnly });
    expect(denied.status).toBe('denied');
    expect(denied.result.content).toMatch(/not allowed/);
    const bad = await runToolSafely(chain, pick, { object_name: 3 }, { via: 'mcp', gate: readOnly });
    expect(bad.status).toBe('invalid_arguments');
    const decisions: SafetyDecision[] = [];
    const ok = await runToolSafely(chain, pick, '{"object_name":"lemon"}', {
      via: 'mcp',
      gate: { policy: { information: 'auto', action: 'ask' }, ask: async () => ({ approved: true }) },
      report: (d) => decisions.push(d),
    });
    expect(ok.status).toBe('ok');
    expect(control.holding()).toBe('lemon_1');
    expect(decisions).toEqual([expect.objectContaining({ verdict: 'allow', skill: 'arm.pick', via: 'mcp', tool: 'pick' })]);
    chain.dispose();
    control.dispose();
  });

  it('puts a decision for every skill a flow’s tools call into the trace', async () => {
    const { robot, control } = await openSim('tabletop/fruits');
    const tools = await findToolSet('alrm')!.build(robot);
    const sink = new MemorySink();
    const trace = new Trace({ header: { runId: 'r', scene: 'tabletop/fruits', workflow: null, model: 'fake', seed: null }, sinks: [sink] });
    const model = new FakeModel([
      { toolCalls: [{ name: 'move_to', arguments: { pose: { position: { x: 0.3, y: 0.9, z: 1e6 } } } }] },
      { toolCalls: [{ name: 'pick', arguments: { object_name: 'lemon' } }] },
      { content: 'done' },
    ]);
    const r = await runFlow({ model, messages: [{ role: 'user', content: 'go' }], tools: () => tools, robot, trace });
    trace.close();
    expect(r.reason).toBe('final');
    const recs = sink.lines.filter((l) => l.type === 'safety');
    expect(recs).toEqual([
      expect.objectContaining({ verdict: 'refuse', skill: 'arm.moveTool', tool: 'move_to', via: 'tool', checks: ['workspace'] }),
      expect.objectContaining({ verdict: 'allow', skill: 'arm.pick', tool: 'pick' }),
    ]);
    const results = sink.lines.filter((l) => l.type === 'tool_result');
    expect(results[0]).toMatchObject({ ok: false, error: expect.stringMatching(/refused by the safety chain/) });
    expect(control.holding()).toBe('lemon_1');
    control.dispose();
  });

  it('passes the skills of a program’s API calls (ctx.invoke, the sandbox’s path) through the chain as via sandbox', async () => {
    const { robot, control } = await openSim('tabletop/fruits');
    const tools = await findToolSet('alrm')!.build(robot);
    const pick = tools.find((t) => t.name === 'pick')!;
    const moveTo = tools.find((t) => t.name === 'move_to')!;
    // Stands in for run_program: the program's API calls go through ctx.invoke.
    const program = defineTool({
      name: 'run_program',
      description: 'runs a program',
      category: 'action',
      params: z.strictObject({}),
      card: { outputs: 'x', whenToUse: 'x', dimension: 'execution' },
      execute: async (_a, ctx) => {
        const far = await ctx.invoke!(moveTo, { pose: { position: { x: 0.3, y: 0.9, z: -50 } } });
        const got = await ctx.invoke!(pick, { object_name: 'lemon' });
        return { ok: got.ok, content: `${far.content} | ${got.content}` };
      },
    });
    const sink = new MemorySink();
    const trace = new Trace({ header: { runId: 'r', scene: 'tabletop/fruits', workflow: null, model: 'fake', seed: null }, sinks: [sink] });
    const model = new FakeModel([{ toolCalls: [{ name: 'run_program', arguments: {} }] }, { content: 'done' }]);
    await runFlow({ model, messages: [{ role: 'user', content: 'go' }], tools: () => [program], robot, trace });
    trace.close();
    const recs = sink.lines.filter((l) => l.type === 'safety');
    expect(recs).toEqual([
      expect.objectContaining({ verdict: 'refuse', skill: 'arm.moveTool', via: 'sandbox', tool: 'move_to', checks: ['workspace'] }),
      expect.objectContaining({ verdict: 'allow', skill: 'arm.pick', via: 'sandbox', tool: 'pick' }),
    ]);
    expect(control.holding()).toBe('lemon_1');
    control.dispose();
  });
});
