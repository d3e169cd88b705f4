// The non-physics half of a world snapshot: discrete states of entities and
// people that Rapier's own snapshot does not carry, as plain JSON.
import type { Vec3 } from '../math';
import type { Entity } from './entity';
import type { PersonState } from './types';

interface EntitySnap {
  id: string;
  states: Entity['states'];
  door: number | undefined;
  process: Entity['process'];
}

interface PersonSnap {
  id: string;
  position: Vec3;
  yaw: number;
  gaze: PersonState['gaze'];
  handsFree: boolean;
}

export interface SceneStateSnap {
  entities: EntitySnap[];
  people: PersonSnap[];
}

export function captureSceneState(entities: ReadonlyMap<string, Entity>, people: ReadonlyMap<string, PersonState>): SceneStateSnap {
  return {
    entities: [...entities.values()].map((e) => ({ id: e.id, states: { ...e.states }, door: e.door?.value, process: e.process })),
    people: [...people.values()].map((p) => ({ id: p.spec.id, position: p.position, yaw: p.yaw, gaze: p.gaze, handsFree: p.handsFree })),
  };
}

export function applySceneState(entities: ReadonlyMap<string, Entity>, people: ReadonlyMap<string, PersonState>, s: SceneStateSnap): void {
  for (const es of s.entities) {
    const e = entities.get(es.id)!;
    e.states = es.states;
    e.process = es.process;
    if (e.door && es.door !== undefined) e.door.value = es.door;
  }
  for (const ps of s.people) Object.assign(people.get(ps.id)!, ps);
}
