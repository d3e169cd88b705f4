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

/** A map that counts its changes, so readers can cache what they derive from it. */
class CountedMap<V> extends Map<string, V> {
  changes = 0;
  override set(k: string, v: V): this {
    this.changes++;
    return super.set(k, v);
  }
  override delete(k: string): boolean {
    this.changes++;
    return super.delete(k);
  }
  override clear(): void {
    this.changes++;
    super.clear();
  }
}

export class Belief {
  readonly objects: Map<string, BeliefEntry> = new CountedMap<BeliefEntry>();
  readonly people: Map<string, PersonSeen> = new CountedMap<PersonSeen>();

  /** Writes that only renewed the time of a record (seen again, unchanged). */
  private renewals = 0;

  /** Every object the robot has held a record of, forgotten since or not: a name it has learnt. */
  private readonly learnt = new Set<string>();

  /** Moves on with every write (objects or people). */
  get revision(): number {
    return (this.objects as CountedMap<BeliefEntry>).changes + (this.people as CountedMap<PersonSeen>).changes;
  }

  /** Moves on with every write but a renewal: a key for what is derived from poses and places, not times. */
  get placeRevision(): number {
    return this.revision - this.renewals;
  }

  /** The record of an object or person seen again, unchanged, at `time` (a new record: snapshots keep the old one). */
  renew(id: string, time: number): void {
    const o = this.objects.get(id);
    if (o) {
      this.objects.set(id, { ...o, time });
      this.renewals++;
    }
  }

  renewPerson(id: string, time: number): void {
    const p = this.people.get(id);
    if (p) {
      this.people.set(id, { ...p, time });
      this.renewals++;
    }
  }

  get(id: string): BeliefEntry | undefined {
    return this.objects.get(id);
  }

  has(id: string): boolean {
    return this.objects.has(id);
  }

  set(e: BeliefEntry): void {
    this.objects.set(e.id, e);
    this.learnt.add(e.id);
  }

  /** Has the robot ever perceived (or placed) this object? Its name is known from then on. */
  everKnew(id: string): boolean {
    return this.learnt.has(id);
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
    for (const o of s.objects) {
      this.objects.set(o.id, o);
      this.learnt.add(o.id);
    }
    for (const p of s.people) this.people.set(p.id, p);
  }
}
