// Fuzzy name resolution: exact ids, display names, aliases, types, categories,
// words, typos; ambiguity and unknown names come back as one actionable line.
import { beforeAll, describe, expect, it } from 'vitest';
import { layoutWorld, tableLayout } from '../../test/fixtures/worlds';
import type { SimWorld } from '../world/sim-world';
import { resolveName } from './names';

let sim: SimWorld;

beforeAll(async () => {
  sim = await layoutWorld(
    tableLayout(
      [
        { id: 'bowl_1', type: 'bowl', name: 'red bowl', on: 'table_1', position: [0.3, 0, -0.2] },
        { id: 'bowl_2', type: 'bowl', name: 'green bowl', on: 'table_1', position: [0.3, 0, 0.2] },
        { id: 'plum_1', type: 'plum', on: 'table_1', position: [0.2, 0, 0] },
        { id: 'strawberry_1', type: 'strawberry', on: 'table_1', position: [0.45, 0, 0] },
        { id: 'coke_can_1', type: 'coke_can', on: 'table_1', position: [0.5, 0, 0.3] },
      ],
      {
        people: [{ id: 'person_1', name: 'Adriana', position: [0.3, 0, 1.2], yaw: 90, gaze: 'robot', handsFree: true, known: true }],
        locations: [
          {
            id: 'table_front',
            title: 'Front of the table',
            kind: 'table',
            pose: { position: [-0.05, 0.75, 0], yaw: 0 },
            serves: ['table_1'],
          },
        ],
      },
    ),
  );
});

describe('resolveName', () => {
  it('takes the exact id first, then normalised ids, names and aliases', () => {
    expect(resolveName(sim, 'plum_1')).toEqual({ ok: true, id: 'plum_1', kind: 'object', match: 'id' });
    expect(resolveName(sim, 'Plum-1')).toMatchObject({ ok: true, id: 'plum_1', match: 'name' });
    expect(resolveName(sim, 'the plum')).toMatchObject({ ok: true, id: 'plum_1', match: 'name' });
    expect(resolveName(sim, 'Red Bowl')).toMatchObject({ ok: true, id: 'bowl_1', match: 'name' });
    expect(resolveName(sim, 'coke')).toMatchObject({ ok: true, id: 'coke_can_1', match: 'name' });
    expect(resolveName(sim, 'soda can')).toMatchObject({ ok: true, id: 'coke_can_1', match: 'name' });
    expect(resolveName(sim, 'strawberry')).toMatchObject({ ok: true, id: 'strawberry_1' });
  });

  it('resolves by a describing word, and a name mentioned inside a longer phrase', () => {
    expect(resolveName(sim, 'green')).toMatchObject({ ok: true, id: 'bowl_2', match: 'token' });
    expect(resolveName(sim, 'adriana_user')).toMatchObject({ ok: true, id: 'person_1', kind: 'person', match: 'token' });
    expect(resolveName(sim, 'Adriana')).toMatchObject({ ok: true, id: 'person_1', kind: 'person', match: 'name' });
  });

  it('accepts a small typo with one clear candidate, or only hints at it when asked to', () => {
    expect(resolveName(sim, 'strawbery')).toMatchObject({ ok: true, id: 'strawberry_1', match: 'typo' });
    expect(resolveName(sim, 'plumm', { acceptTypos: false })).toEqual({
      ok: false,
      reason: 'unknown',
      message: 'no object called "plumm". Did you mean plum_1?',
      candidates: ['plum_1'],
    });
  });

  it('reports ambiguity with the candidates and a did-you-mean', () => {
    expect(resolveName(sim, 'bowl')).toEqual({
      ok: false,
      reason: 'ambiguous',
      message: '"bowl" matches several objects: bowl_1 (red bowl), bowl_2 (green bowl). Did you mean one of those?',
      candidates: ['bowl_1', 'bowl_2'],
    });
    expect(resolveName(sim, 'fruit')).toMatchObject({ ok: false, reason: 'ambiguous', candidates: ['plum_1', 'strawberry_1'] });
  });

  it('reports unknown names, listing what there is when nothing is close', () => {
    const r = resolveName(sim, 'banana', { kinds: ['object'] });
    expect(r).toMatchObject({ ok: false, reason: 'unknown', candidates: [] });
    expect(!r.ok && r.message).toBe(
      'no object called "banana". Known objects: bowl_1 (red bowl), bowl_2 (green bowl), coke_can_1 (can of coke), plum_1, strawberry_1, table_1.',
    );
  });

  it('restricts the pool to people, places or visible objects', () => {
    expect(resolveName(sim, 'table', { kinds: ['object'] })).toMatchObject({ ok: true, id: 'table_1' });
    expect(resolveName(sim, 'table', { kinds: ['location'] })).toMatchObject({ ok: true, id: 'table_front', kind: 'location' });
    expect(resolveName(sim, 'front of the table')).toMatchObject({ ok: true, id: 'table_front' });
    expect(resolveName(sim, 'plum', { kinds: ['person'] })).toMatchObject({ ok: false, reason: 'unknown' });
    expect(resolveName(sim, 'plum', { pool: 'visible' })).toMatchObject({ ok: true, id: 'plum_1' });
    expect(resolveName(sim, 'plum', { objects: ['bowl_1'], kinds: ['object'] })).toMatchObject({ ok: false, reason: 'unknown' });
  });
});
