import { describe, expect, it } from 'vitest';
import { TOOLS } from '../test/fake-api';
import { buildArgs, fieldsOf } from './schema-fields';

describe('schema fields', () => {
  const fields = fieldsOf(TOOLS[1]!.parameters);

  it('makes one typed field per property, marking the required ones', () => {
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['object_name', 'string', true],
      ['speed', 'number', false],
      ['side', 'enum', false],
      ['to', 'vector', false],
    ]);
    expect(fields[2]!.options).toEqual(['left', 'right']);
    expect(fields[3]!.length).toBe(3);
  });

  it('leaves empty fields out and types the rest', () => {
    expect(buildArgs(fields, { object_name: 'lemon', speed: '0.5', side: '', to: '1, 2,3' })).toEqual({
      object_name: 'lemon',
      speed: 0.5,
      to: [1, 2, 3],
    });
  });

  it('passes what it cannot type through unchanged, so the tool itself answers', () => {
    expect(buildArgs(fields, { object_name: '', speed: 'fast', to: '1, x' })).toEqual({ speed: 'fast', to: '1, x' });
  });
});
