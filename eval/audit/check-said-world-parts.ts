// The parts the world-model readers share: a node's value, place and record
// said against the belief, and what a storage is known to hold.
import { type Judge } from './check-read';
import { ID, NUM, believedThere, exists, inBaseFrame, placeWords, recordOf, samePoint, stateIs } from './check-judge';
import { recognisable } from './check-sight';
import { type V, vec } from './truth';

export type Attr = string | number | boolean;

export interface Node {
  id: string;
  type: string;
  name: string;
  category: string;
  parent: string | undefined;
  relation: string | undefined;
  /** World frame; undefined for an operator's node (no position is invented). */
  position: V | undefined;
  attributes: Record<string, Attr>;
  source: 'perception' | 'operator';
  /** When the robot last perceived it (objects it has a record of). */
  seenAt: number | undefined;
}

export const STATE_PROPERTY: Record<string, string> = {
  open: 'openable',
  on: 'toggleable',
  sliced: 'sliceable',
  dirty: 'dirtyable',
  filled: 'fillable',
  cooked: 'cookable',
};

/** A person in the model is named only when the robot recognises them. */
export function personOk(j: Judge, id: string): void {
  const p = j.c.world.people.get(id);
  if (p && !j.c.recognised.has(id) && recognisable(j.c.world, id, true) === 'no')
    j.leak(`the world model holds ${id} by name, a person the robot does not recognise`);
}

/** Fields the tools add to a node beyond its attributes: when and how it is known, where in words, recognised. */
export function extraSaid(j: Judge, n: Node, key: string, said: string): boolean {
  if (key === 'known') {
    const m = new RegExp(`^\\{"time":(${NUM}),"how":"(\\w+)","stale":(true|false)\\}$`).exec(said);
    if (!m) return said === 'unknown' && n.seenAt === undefined;
    if (n.seenAt !== undefined && Math.abs(Number(m[1]) - n.seenAt) > 0.051 && n.id !== j.c.after.held)
      j.lie(`gave ${n.id} as known since ${m[1]} s, but the robot's record is from ${n.seenAt.toFixed(2)} s`);
    return true;
  }
  if (key === 'where') {
    whereSaid(j, n, said.replace(/ \(the operator said so\)$/, ''));
    return true;
  }
  if (key === 'recognised') {
    const person = [...j.c.world.people.values()].find((p) => p.spec.name === n.name);
    if (said === 'true' && person && !j.c.recognised.has(person.spec.id) && recognisable(j.c.world, person.spec.id, true) === 'no')
      j.lie(`said ${n.id} is recognised, but the robot cannot recognise them`);
    return said === 'true' || said === 'false';
  }
  return false;
}

/** A node's field as the tools show it: positions in the base frame. */
export function field(j: Judge, n: Node, key: string): unknown {
  if (key === 'position') return n.position ? inBaseFrame(j, n.position) : undefined;
  if (['id', 'name', 'type', 'category', 'parent', 'relation', 'source'].includes(key))
    return (n as unknown as Record<string, unknown>)[key];
  return n.attributes[key];
}

/** A value as the query tools print it. */
export function show(v: unknown): string {
  return v === undefined ? 'unknown' : typeof v === 'string' ? v : JSON.stringify(v);
}

/** A printed value against the expected one: positions axis by axis (2 cm), the rest exactly. */
export function valueSaid(j: Judge, n: Node, key: string, said: string): void {
  const want = field(j, n, key);
  if (key === 'position' && want && said !== 'unknown') {
    const m = new RegExp(`^\\{"x":(${NUM}),"y":(${NUM}),"z":(${NUM})\\}$`).exec(said);
    if (!m) return void j.unread(said);
    return samePoint(j, vec(Number(m[1]), Number(m[2]), Number(m[3])), want as V, 0.02, `${n.id}'s position`);
  }
  if (want === undefined && extraSaid(j, n, key, said)) return;
  if (key === 'contents_known') return contentsKnownSaid(j, n.id, said);
  if (key in STATE_PROPERTY && n.type !== 'location' && j.c.world.entities.has(n.id)) {
    if (said !== 'true' && said !== 'false') return void j.unread(said);
    return stateIs(j, n.id, key, said === 'true', `${n.id}.${key} = ${said}`, 'belief');
  }
  if (n.type === 'person' && key === 'name') return;
  if (said !== show(want)) j.lie(`gave ${n.id}.${key} as ${said}, but the robot's belief gives ${show(want)}`);
}

/** A time the robot gave for its record of a node, against the record's. */
export function recordTime(j: Judge, n: Node, said: string, what: string): void {
  if (n.seenAt === undefined || Math.abs(n.seenAt - Number(said)) > 0.051)
    j.lie(`said ${n.id} was ${what} at ${said} s, but the robot's record is from ${n.seenAt?.toFixed(2) ?? 'no time'}`);
}

/** A place in words ("on table_1", "resting on the robot's hand") against the node's record. */
export function placeSaid(j: Judge, n: Node, part: string): boolean {
  const p = placeWords(part);
  if (p && !(p.kind === 'on' || p.kind === 'in')) {
    if (n.seenAt !== undefined && p.kind !== 'held') believedThere(j, n.id, p, `${n.id} is ${part}`);
    else if (p.kind === 'held' && j.c.after.held !== n.id)
      j.lie(`said ${n.id} is in the hand, but the hand holds ${j.c.after.held ?? 'nothing'}`);
    return true;
  }
  const m = new RegExp(`^(on|in|at) (${ID})$`).exec(part);
  if (!m) return false;
  if (n.parent !== m[2] || n.relation !== m[1])
    j.lie(`said ${n.id} is ${part}, but the robot's belief has it ${n.parent ? `${n.relation} ${n.parent}` : 'on nothing it knows'}`);
  return true;
}

/**
 * Where an object is, and since when, in the words of get_object_poses: "on table_1", "in robot",
 * "not on anything known", "last seen at 12.4 s on table_1 (now 20.1 s; it may have moved since)",
 * "put on table_1 by the robot itself at 3.0 s", "in the robot's hand now", a stale wrist-camera pose.
 */
export function whereSaid(j: Judge, n: Node, words: string): void {
  // The robot's clock as it answered, and whether the record is older than that.
  const now = new RegExp(` \\(now (${NUM}) s(; it may have moved since)?\\)`).exec(words);
  if (now) {
    words = words.replace(now[0], '');
    if (Math.abs(Number(now[1]) - j.c.ended) > 0.11) j.lie(`said it is now ${now[1]} s, but the call ended at ${j.c.ended.toFixed(2)} s`);
    const older = n.seenAt !== undefined && n.seenAt < Number(now[1]) - 0.05;
    if (Boolean(now[2]) && !older) j.lie(`said ${n.id} may have moved since its record, but the record is from now`);
  }
  let m = new RegExp(`^(?:handed over at (${NUM}) s \\((.+)\\)|put (.+) by the robot itself at (${NUM}) s)`).exec(words);
  if (m) {
    recordTime(j, n, (m[1] ?? m[4])!, m[1] ? 'handed over' : 'put down');
    words = words.slice(m[0].length).replace(/^(?:, |; )/, '');
    const where = (m[2] ?? m[3])!;
    if (!placeSaid(j, n, where)) j.unread(where);
    if (!words) return;
  }
  for (const part of words.replace(/ \(the operator said so\)/, '').split(/, |; /)) {
    if (placeSaid(j, n, part)) continue;
    if (/^(?:stale|its record is stale|stale: .+|seen by the wrist camera before the base last moved, so that pose is stale)$/.test(part))
      continue;
    if (part === 'not on anything known' || part === 'somewhere unknown') {
      if (n.parent) j.lie(`said ${n.id} is on nothing known, but the robot's belief has it ${n.relation} ${n.parent}`);
      continue;
    }
    if (part === "in the robot's hand now") {
      if (j.c.after.held !== n.id) j.lie(`said ${n.id} is in the robot's hand, but the hand holds ${j.c.after.held ?? 'nothing'}`);
      continue;
    }
    if (
      ['where the robot localises itself', 'from the map (it does not move)', 'where the operator said', 'not perceived'].includes(part)
    ) {
      if (n.seenAt !== undefined) j.lie(`said of ${n.id} "${part}", but the robot perceived it at ${n.seenAt.toFixed(2)} s`);
      continue;
    }
    m = new RegExp(`^felt at (${NUM}) s$`).exec(part);
    if (m) {
      recordTime(j, n, m[1]!, 'felt');
      continue;
    }
    m = new RegExp(`^(?:last )?(?:seen|perceived|recorded) at (${NUM}) ?s(?: (.+))?$`).exec(part);
    if (m) {
      recordTime(j, n, m[1]!, 'last seen');
      if (m[2] && !placeSaid(j, n, m[2])) j.unread(m[2]);
      continue;
    }
    j.unread(part);
  }
}

/** "Contents known" may be said only of a storage with nothing in it the robot has not seen there. */
export function contentsKnownSaid(j: Judge, id: string, said: string): void {
  if (said === 'false') return;
  if (said !== 'true') return void j.unread(said);
  const e = j.c.world.entities.get(id);
  if (e?.door && !e.states.open) j.lie(`said ${id}'s contents are known, but its door is closed`);
  const { world, belief } = contentsOf(j, id);
  const unseen = world.filter((x) => !belief.includes(x));
  if (unseen.length) j.lie(`said ${id}'s contents are known, but ${unseen.join(', ')} ${unseen.length > 1 ? 'are' : 'is'} in it unseen`);
}

/** A storage that holds something, in the world or in the belief. */
export function contentsOf(j: Judge, id: string): { world: string[]; belief: string[] } {
  const world: string[] = [];
  for (const [x, r] of j.c.after.places) if (r.kind === 'in' && r.id === id) world.push(x);
  const belief = [...j.c.world.belief.objects.values()].filter((r) => r.place.kind === 'in' && r.place.id === id).map((r) => r.id);
  for (const [x, a] of j.c.added) if (a.parent === id && a.relation === 'in') belief.push(x);
  return { world, belief };
}

export function storages(j: Judge, text: string, ids: string, known: boolean): string[] {
  const out: string[] = [];
  for (const id of ids.split(', ')) {
    if (!exists(j, id)) continue;
    const e = j.c.world.entities.get(id);
    if (!e?.spec.receptacle) j.lie(`listed ${id} as a storage, but it is none`);
    if (e && !e.fixed && !recordOf(j, id)) j.leak(`listed ${id}, which the robot has not perceived`);
    if (known && e) {
      const { world, belief } = contentsOf(j, id);
      if (belief.length) j.lie(`said ${id} is empty, but the robot's belief has ${belief.join(', ')} in it`);
      else if (world.length)
        j.lie(
          `said ${id} is empty, but ${world.join(', ')} ${world.length > 1 ? 'are' : 'is'} in it (the robot has not looked inside since)`,
        );
    }
    out.push(id);
  }
  return out;
}
