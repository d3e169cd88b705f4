import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Robot } from '../../robot/robot';
import { ToolRegistry } from './registry';
import { defineTool } from './tool';

const fakeRobot = (caps: string[] = ['perception']): Robot => ({ has: (c: string) => caps.includes(c) }) as unknown as Robot;
const ctx = (robot = fakeRobot()) => ({ robot, signal: new AbortController().signal, state: new Map() });

const move = defineTool({
  name: 'take_a_step',
  description: 'Takes a step.',
  category: 'action',
  params: z.strictObject({
    leg: z.enum(['left', 'right']).describe('which leg'),
    x: z.number().min(-0.15).max(0.15).describe('forward, metres'),
    yaw: z.number().min(-45).max(45).default(0),
  }),
  card: { outputs: 'the new pose', whenToUse: 'to walk a little', dimension: 'execution', requires: ['base'] },
  execute: (a) => ({ ok: true, content: `stepped ${a.leg} ${a.x}` }),
});

describe('defineTool', () => {
  it('builds the JSON Schema on first use: a tool whose schema has no JSON form still takes valid arguments', () => {
    const when = defineTool({
      name: 'at_time',
      description: 'Acts at a time.',
      category: 'action',
      params: z.strictObject({ at: z.date() }),
      card: { outputs: '', whenToUse: '', dimension: 'execution' },
      execute: () => ({ ok: true, content: 'done' }),
    });
    expect(when.parse({ at: new Date(0) }).ok).toBe(true);
    expect(() => when.schema()).toThrow();
  });

  it('carries the lazily built schema and input line through JSON and spread copies', () => {
    const copy = { ...move };
    expect(copy.parameters).toEqual(move.schema().parameters);
    const card = JSON.parse(JSON.stringify(move.card)) as { inputs: string };
    expect(card.inputs).toBe(move.card.inputs);
    expect(card.inputs).toMatch(/^leg: one of "left"\|"right" \(which leg\); x: number/);
  });

  it('gives the model a JSON Schema made from the zod schema, with ranges and descriptions', () => {
    expect(move.schema()).toEqual({
      name: 'take_a_step',
      description: 'Takes a step.',
      parameters: {
        type: 'object',
        properties: {
          leg: { type: 'string', enum: ['left', 'right'], description: 'which leg' },
          x: { type: 'number', minimum: -0.15, maximum: 0.15, description: 'forward, metres' },
          yaw: { type: 'number', minimum: -45, maximum: 45, default: 0 },
        },
        required: ['leg', 'x'],
        additionalProperties: false,
      },
    });
  });

  it('rejects out-of-range, missing and unknown arguments with text naming each field', async () => {
    const r = await move.call({ x: 0.4, foot: 'left' }, ctx(fakeRobot(['base'])));
    expect(r.ok).toBe(false);
    expect(r.content).toContain('Invalid arguments for take_a_step');
    expect(r.content).toContain('- leg: missing (required: which leg)');
    expect(r.content).toMatch(/- x: .*0\.15/);
    expect(r.content).toContain('unknown argument(s) "foot"; accepted: leg, x, yaw');
    expect(r.content).toContain('Call take_a_step again');
  });

  it('accepts JSON text arguments as models send them, and explains broken JSON', async () => {
    expect(await move.call('{"leg":"left","x":0.1}', ctx(fakeRobot(['base'])))).toMatchObject({ ok: true, content: 'stepped left 0.1' });
    const bad = await move.call('{"leg": left}', ctx(fakeRobot(['base'])));
    expect(bad).toMatchObject({ ok: false });
    expect(bad.content).toContain('not valid JSON');
  });

  it('refuses to run on a robot without the capabilities the tool card requires', async () => {
    const r = await move.call({ leg: 'left', x: 0 }, ctx(fakeRobot(['perception'])));
    expect(r).toMatchObject({ ok: false });
    expect(r.content).toContain('no base capability');
  });

  it('builds a tool card from the schema and the spec', () => {
    expect(move.card).toMatchObject({
      capability: 'Takes a step.',
      inputs: expect.stringContaining('leg: one of "left"|"right" (which leg)'),
      mode: 'on-demand',
      dimension: 'execution',
      requires: ['base'],
    });
    expect(move.card.inputs).toContain('yaw?: number');
  });

  it('rejects tool names a model API would not accept', () => {
    expect(() =>
      defineTool({
        name: 'bad name!',
        description: 'x',
        category: 'information',
        params: z.strictObject({}),
        card: { outputs: '', whenToUse: '', dimension: 'perception' },
        execute: () => ({ ok: true, content: '' }),
      }),
    ).toThrow(/must match/);
  });
});

describe('ToolRegistry', () => {
  const look = defineTool({
    name: 'dist_to_target',
    description: 'Distance to a target.',
    category: 'information',
    params: z.strictObject({ target: z.string() }),
    card: {
      outputs: 'metres',
      whenToUse: 'to check whether a target is within reach',
      dimension: 'perception',
      tags: ['distance', 'reach'],
    },
    execute: () => ({ ok: true, content: '' }),
  });
  const reg = new ToolRegistry([move, look]);

  it('lists by category and discovers tools by capability words', () => {
    expect(reg.list({ category: 'information' }).map((t) => t.name)).toEqual(['dist_to_target']);
    expect(reg.discover('is the bowl reachable, how far away is it?')[0]!.tool.name).toBe('dist_to_target');
    expect(reg.discover('walk forward a step')[0]!.tool.name).toBe('take_a_step');
    expect(reg.discover('zzz')).toEqual([]);
  });

  it('refuses two different tools under one name', () => {
    const other = defineTool({
      ...{
        name: 'dist_to_target',
        description: 'x',
        category: 'information',
        params: z.strictObject({}),
        card: { outputs: '', whenToUse: '', dimension: 'perception' },
      },
      execute: () => ({ ok: true, content: '' }),
    });
    expect(() => reg.register(other)).toThrow(/already registered/);
  });

  it('keeps only the tools a robot can use', () => {
    expect(reg.availableFor(fakeRobot(['perception'])).names()).toEqual(['dist_to_target']);
  });
});
