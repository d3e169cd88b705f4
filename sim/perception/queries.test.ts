// get_obj_state, get_obj_properties and robot_holding (paper 001 Fig. 6).
import { describe, expect, it } from 'vitest';
import { layoutWorld, tableLayout } from '../../test/fixtures/worlds';
import { objectProperties, objectState, robotHolding, stateWords } from './queries';

describe('object queries', () => {
  it('states that apply by property, properties with category, attributes, mass and size; an empty hand', async () => {
    const sim = await layoutWorld(
      tableLayout([
        { id: 'bowl_1', type: 'bowl', on: 'table_1', position: [0.3, 0, -0.2], state: { dirty: true } },
        { id: 'cup_1', type: 'cup', on: 'table_1', position: [0.2, 0, 0.15] },
        { id: 'plum_1', type: 'plum', on: 'table_1', position: [0.3, 0, 0.1] },
      ]),
    );
    expect(objectState(sim, 'bowl_1')).toEqual({ dirty: true });
    expect(stateWords(sim, 'bowl_1')).toEqual(['dirty']);
    expect(objectState(sim, 'cup_1')).toEqual({ filled: false });
    expect(stateWords(sim, 'cup_1')).toEqual(['empty']);
    expect(objectState(sim, 'plum_1')).toEqual({ sliced: false });
    expect(objectState(sim, 'table_1')).toEqual({});

    const p = objectProperties(sim, 'bowl_1');
    expect(p).toMatchObject({
      id: 'bowl_1',
      type: 'bowl',
      category: 'container',
      fixed: false,
      massKg: 0.3,
      attributes: { material: 'ceramic' },
      receptacle: { capacity: 4, enclosed: false },
    });
    // 18 cm across and no rim grasp, with a gripper that opens 9 cm: pick refuses it, so the properties say so.
    expect(p.properties).toMatchObject({ pickable: false, receptacle: true, dirtyable: true, openable: false, toggleable: false });
    expect(objectProperties(sim, 'cup_1').properties).toMatchObject({ pickable: true });
    expect(Math.abs(p.sizeM[0] - 0.18)).toBeLessThan(0.002);
    expect(objectProperties(sim, 'table_1')).toMatchObject({ fixed: true, category: 'furniture', properties: { pickable: false } });
    expect(robotHolding(sim)).toBeUndefined();
  });
});
