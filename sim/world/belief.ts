// The robot's belief: what it has perceived, one record per object (where it
// saw it, resting on or in what, in which states, when, and from where), the
// people it has seen (a handle, and a name only once it recognised them), the
// storages it has looked inside and when, and what an operator told it. Only
// perception (sim/perception/observe.ts), the robot's own actions on what it
// holds (pick, place, handover) and the world-model setters write it. Every
// tool, planner and message reads it; the physics and the scorer read the world.
import type { ObjectStates } from '../../scenes/schema';
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
  /** Its states (dirty, sliced, filled, ...) as perceived then: a change out of view is not known. */
  states?: ObjectStates;
}

export interface PersonSeen {
  /** The person's id in the world (never shown unless recognised: `handle` is what the robot calls them). */
  id: string;
  position: Vec3;
  time: number;
  /** What the robot calls this person: their id once recognised, else a tracker handle ("person_1"). */
  handle: string;
  /** The robot has recognised their face (known to it, close enough, facing it): it may use their name. */
  recognised: boolean;
}

/** When the robot last looked inside a storage, and how many changes it could have missed had happened then. */
export interface InsideSeen {
  time: number;
  missable: number;
}

type Attr = string | number | boolean;

/** A node an operator added (AIMM's AddObject): where it is, in the operator's words. */
export interface OperatorNode {
  id: string;
  type: string;
  parent: string;
  relation: 'on' | 'in';
  time: number;
}

export interface BeliefState {
  objects: BeliefEntry[];
  people: PersonSeen[];
  insides?: Array<[string, InsideSeen]>;
  missable?: number;
  added?: OperatorNode[];
  overrides?: Array<[string, Record<string, Attr>]>;
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
  /** Storages the robot has looked inside (its whole bottom in plain view), by id. */
  readonly insides = new Map<string, InsideSeen>();
  /** What operators added (AddObject), by id. */
  readonly added = new Map<string, OperatorNode>();
  /** Properties operators set (SetObjectProperty), by node id: said by an operator, not perceived. */
  readonly overrides = new Map<string, Record<string, Attr>>();

  /**
   * Changes the robot could have missed so far: a person's move, a drop, a
   * physics fault, an incident of its own skill. A storage looked inside before
   * the last of them may hold something new: its contents are not known.
   */
  private missableCount = 0;

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

  /**
   * A person seen now: a new one gets `handle()` (a tracker handle, or their id
   * when recognised at first sight); one recognised once stays recognised.
   */
  seePerson(id: string, position: Vec3, time: number, recognisedNow: boolean, handle: () => string): PersonSeen {
    const was = this.people.get(id);
    const recognised = Boolean(was?.recognised) || recognisedNow;
    const p: PersonSeen = { id, position, time, recognised, handle: recognised ? id : (was?.handle ?? handle()) };
    this.people.set(id, p);
    return p;
  }

  /** Something happened that the robot may not have watched (see missableCount). */
  noteMissable(): void {
    this.missableCount++;
  }

  get missable(): number {
    return this.missableCount;
  }

  /** The robot sees the whole inside of a storage now. */
  sawInside(id: string, time: number): void {
    this.insides.set(id, { time, missable: this.missableCount });
  }

  /** Has the robot looked inside since the last change it could have missed? */
  contentsKnown(id: string): boolean {
    return this.insides.get(id)?.missable === this.missableCount;
  }

  snapshot(): BeliefState {
    return {
      objects: [...this.objects.values()],
      people: [...this.people.values()],
      insides: [...this.insides],
      missable: this.missableCount,
      added: [...this.added.values()],
      overrides: [...this.overrides].map(([id, o]) => [id, { ...o }]),
    };
  }

  restore(s: BeliefState): void {
    this.objects.clear();
    this.people.clear();
    for (const o of s.objects) {
      this.objects.set(o.id, o);
      this.learnt.add(o.id);
    }
    // A snapshot from before people had handles: none of them counts as recognised.
    s.people.forEach((p, i) => this.people.set(p.id, { ...p, handle: p.handle ?? `person_${i + 1}`, recognised: p.recognised ?? false }));
    this.insides.clear();
    for (const [id, i] of s.insides ?? []) this.insides.set(id, i);
    this.missableCount = s.missable ?? 0;
    this.added.clear();
    for (const n of s.added ?? []) this.added.set(n.id, n);
    this.overrides.clear();
    for (const [id, o] of s.overrides ?? []) this.overrides.set(id, { ...o });
  }
}
