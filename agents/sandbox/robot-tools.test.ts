// The sandbox driving real tools of a simulated robot: ALRM's Code-as-Policy
// executor (paper 002 §III.B.2) in miniature, with the tools wrapped as the API.
import { describe, expect, it } from 'vitest';
import { openSimRobot } from '../../robot/sim/open';
import { findToolSet } from '../tools/sets';
import type { Tool } from '../tools/tool';
import type { Robot } from '../../robot/robot';
import { namedArgs } from './describe';
import { runProgram } from './sandbox';
import type { SandboxApi } from './types';

/** Each tool as an API function: arguments by position or by name, a failed tool throws its message. */
function toolApi(tools: readonly Tool[], robot: Robot): SandboxApi {
  const state = new Map<string, unknown>();
  const entries = tools.map((tool): [string, SandboxApi[string]] => {
    const names = Object.keys((tool.parameters['properties'] ?? {}) as Record<string, unknown>);
    return [
      tool.name,
      async (args, signal) => {
        const r = await tool.call(namedArgs(tool.name, args, names), { robot, signal, state });
        if (!r.ok) throw new Error(r.content);
        return r.content;
      },
    ];
  });
  return Object.fromEntries(entries);
}

describe('a program over the ALRM tools of tabletop/fruits', () => {
  it('puts the lemon in the bowl in the physics world, each call traced with its result', async () => {
    const robot = await openSimRobot('tabletop/fruits');
    const api = toolApi(await findToolSet('alrm')!.build(robot), robot);
    const code = [
      'const objects = get_objects();',
      'print(objects);',
      'pick("lemon");',
      'const placed = place({ target: "bowl" });',
      'move_to_home_pos();',
      'return placed;',
    ].join('\n');
    const r = await runProgram(code, { api });
    expect(r.ok).toBe(true);
    expect(r.calls.map((c) => [c.name, c.args])).toEqual([
      ['get_objects', []],
      ['pick', ['lemon']],
      ['place', { target: 'bowl' }],
      ['move_to_home_pos', []],
    ]);
    expect(r.calls.every((c) => c.outcome.ok)).toBe(true);
    expect(r.output).toContain('lemon_1');
    expect(r.ok && r.value).toMatch(/^Success: /);
    expect(await robot.perception.related('in', 'bowl_1')).toContain('lemon_1');
    expect(await robot.perception.holding()).toBeUndefined();
  });

  it('gives a tool’s refusal to the program, which can react to it', async () => {
    const robot = await openSimRobot('tabletop/fruits');
    const api = toolApi(await findToolSet('alrm')!.build(robot), robot);
    const r = await runProgram('try { pick("durian") } catch (e) { print("could not: " + e.message) }\npick("lemon", "extra")', { api });
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/^could not: /);
    expect(!r.ok && r.error).toMatchObject({
      kind: 'api_error',
      line: 2,
      message: expect.stringContaining('pick takes at most 1 argument(s): object_name'),
    });
    expect(await robot.perception.holding()).toBeUndefined();
  });
});
