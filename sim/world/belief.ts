// The robot's belief: what it has perceived, one record per object (where it
// saw it, resting on or in what, when, and from where) and the people it has
// seen. Only perception (sim/perception/observe.ts) and the robot's own actions
// on what it holds (pick, place, handover) write it. Every tool, planner and
// message reads it; the physics and the scorer read the world itself.
import type { Pose, Vec3 } from '../math';
import type { BelievedPlace } from './place';

export interface BeliefEntry {
  id: string;
  /** The object's pose when last perceived (or set down by the robot). */
  pose: Pose;
  /** What it rested on or in then (or that the hand held it); a support it had not perceived is not named. */
  place: BelievedPlace;
  /** Simulated time of the observation. */
  time: number;
  /** The robot's base-move counter then: after the base moves, a wrist-camera observation is stale. */
  baseMoves: number;
  /** The named place the robot stood at, if any. */
  at: string | undefined;
  /** How the robot knows: it saw it, or it put it there / holds it / handed it over itself. */
  how: 'seen' | 'placed' | 'held' | 'handed';
}

export interface PersonSeen {
  id: string;
  position: Vec3;
  time: number;
}

export interface BeliefState {
  objects: BeliefEntry[];
  people: PersonSeen[];
}

export class Belief {
  readonly objects = new Map<string, BeliefEntry>();
  readonly people = new Map<string, PersonSeen>();

  get(id: string): BeliefEntry | undefined {
    return this.objects.get(id);
  }

  has(id: string): boolean {
    return this.objects.has(id);
  }

  set(e: BeliefEntry): void {
    this.objects.set(e.id, e);
  }

  forget(id: string): void {
    this.objects.delete(id);
  }

  snapshot(): BeliefState {
    return { objects: [...this.objects.values()], people: [...this.people.values()] };
  }

  restore(s: BeliefState): void {
    this.objects.clear();
    this.people.clear();
    for (const o of s.objects) this.objects.set(o.id, o);
    for (const p of s.people) this.people.set(p.id, p);
  }
}
