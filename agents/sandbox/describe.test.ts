import { describe, expect, it } from 'vitest';
import { ALRM } from '../tools/sets/alrm';
import { describeApi, formatResult, namedArgs, paramsOf } from './describe';
import type { SandboxApi, SandboxResult } from './types';

const noop = async () => undefined;

describe('describeApi', () => {
  it('renders one declaration a line with its doc, then print', () => {
    const api: SandboxApi = { pick: noop, get_objects: noop, wave: noop };
    const text = describeApi(api, {
      pick: { params: 'object_name: string', returns: 'string', doc: 'Picks up an object:\n  moves to it and lifts it.' },
      get_objects: { returns: 'string[]', doc: 'Names of the objects present.' },
    });
    expect(text.split('\n')).toEqual([
      'function pick(object_name: string): string; // Picks up an object: moves to it and lifts it.',
      'function get_objects(): string[]; // Names of the objects present.',
      'function wave(...args: unknown[]): unknown;',
      'function print(...values: unknown[]): void; // writes a line to the output (console.log does the same)',
    ]);
  });

  it('renders parameters from a real tool’s JSON Schema (ALRM place and move_to)', () => {
    const place = ALRM.find((t) => t.name === 'place')!;
    const moveTo = ALRM.find((t) => t.name === 'move_to')!;
    expect(paramsOf(place.parameters)).toBe('target?: string, position?: { x: number; y: number; z: number }');
    expect(paramsOf(moveTo.parameters)).toBe('pose: { position: { x: number; y: number; z: number }; tilt_deg?: number }');
    const line = describeApi({ place: noop }, { place: { params: place.parameters, returns: 'string', doc: place.description } });
    expect(line.split('\n')[0]).toBe(
      `function place(target?: string, position?: { x: number; y: number; z: number }): string; // ${place.description}`,
    );
  });

  it('renders enums, arrays and unions', () => {
    expect(
      paramsOf({
        properties: {
          side: { enum: ['left', 'right'] },
          ids: { type: 'array', items: { type: ['string', 'number'] } },
          n: { type: 'integer' },
        },
        required: ['side'],
      }),
    ).toBe('side: "left" | "right", ids?: (string | number)[], n?: number');
  });
});

describe('namedArgs', () => {
  it('maps positional arguments to names, and passes one object through', () => {
    expect(namedArgs('place', ['bowl_1'], ['target', 'position'])).toEqual({ target: 'bowl_1' });
    expect(namedArgs('place', [undefined, { x: 1 }], ['target', 'position'])).toEqual({ position: { x: 1 } });
    expect(namedArgs('place', { target: 'bowl_1' }, ['target', 'position'])).toEqual({ target: 'bowl_1' });
  });

  it('says how many arguments a function takes when given too many', () => {
    expect(() => namedArgs('pick', ['a', 'b'], ['object_name'])).toThrow('pick takes at most 1 argument(s): object_name; it got 2.');
    expect(() => namedArgs('get_objects', ['a'], [])).toThrow('get_objects takes no arguments; it got 1.');
  });
});

describe('formatResult', () => {
  const calls: SandboxResult['calls'] = [
    { seq: 1, name: 'pick', args: ['lemon_1'], startedAt: 0, durationMs: 5, outcome: { ok: true, value: 'Success: picked lemon_1.' } },
    {
      seq: 2,
      name: 'place',
      args: { target: 'moon' },
      startedAt: 5,
      durationMs: 1,
      outcome: { ok: false, error: 'no object called moon' },
    },
  ];

  it('lists the calls, the output and the error for the model', () => {
    const text = formatResult({
      ok: false,
      error: { kind: 'api_error', line: 2, message: 'place({"target":"moon"}) failed at line 2: no object called moon.' },
      output: 'holding the lemon\n',
      calls,
    });
    expect(text).toBe(
      [
        'API calls:',
        '1. pick("lemon_1") → Success: picked lemon_1.',
        '2. place({"target":"moon"}) ✗ no object called moon',
        'Output:',
        'holding the lemon',
        'place({"target":"moon"}) failed at line 2: no object called moon.',
      ].join('\n'),
    );
  });

  it('gives the returned value, clipped', () => {
    expect(formatResult({ ok: true, value: { n: 1 }, output: '', calls: [] })).toBe('The program finished and returned {"n":1}.');
    expect(formatResult({ ok: true, value: undefined, output: '', calls: [] })).toBe('The program finished.');
    expect(formatResult({ ok: true, value: 'x'.repeat(50), output: '', calls: [] }, 10)).toBe(
      `The program finished and returned ${'x'.repeat(9)}….`,
    );
  });
});
