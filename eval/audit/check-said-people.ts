// People as tools speak of them. A name (or id, which is a name) only for a
// person the robot recognises (on record, face toward its camera, within
// range), now or at an earlier call's end; anyone else is "a person", or
// described. Who is around, how far, whether their hands are free, whether they
// look at the robot: against the camera's view and the people's true state.
import type { Judge, Rule } from './check-read';
import { ID, NUM } from './check-judge';
import { personBox, recognisable, sightOf } from './check-sight';
import { conj, rot, vec } from './truth';

/**
 * The person a tool's word denotes: a person's id (a name, which needs recognition), or
 * a handle the robot gave someone it has not recognised ("person_1", kept in its belief).
 */
export function whoIs(j: Judge, word: string): { id: string; byName: boolean } | undefined {
  const w = j.c.world;
  if (w.people.has(word)) return { id: word, byName: true };
  for (const p of w.belief.people.values()) if ((p as { handle?: string }).handle === word) return { id: p.id, byName: false };
  return undefined;
}

/** A person a tool speaks of, by id or handle: the id named needs recognition; an unknown word is no one. */
function personSaid(j: Judge, word: string): string | undefined {
  const who = whoIs(j, word);
  if (!who) return void j.lie(`spoke of "${word}" as a person, but the robot has seen nobody it calls that`);
  if (who.byName) recognisedName(j, who.id);
  return who.id;
}

/** A person named in a tool's output must be one the robot recognises. */
export function recognisedName(j: Judge, id: string): void {
  const w = j.c.world;
  if (!w.people.has(id) || j.c.recognised.has(id)) return;
  if (recognisable(w, id, true) === 'no') j.leak(`named ${id}, a person the robot does not recognise`);
}

/** Every person an output names by id or by name, outside what the model itself said. */
export function peopleNamed(j: Judge, text: string): void {
  const args = JSON.stringify(j.c.args);
  // A quote of the model's own words names nobody.
  const own = text.replace(/"([^"]*)"/g, (q, inner: string) => (args.includes(inner) ? '""' : q));
  for (const p of j.c.world.people.values()) {
    const re = new RegExp(`(^|[^A-Za-z0-9_])(${p.spec.id}|${p.spec.name})([^A-Za-z0-9_]|$)`);
    if (re.test(own)) recognisedName(j, p.spec.id);
  }
}

/** The gap between the base's footprint and a person's body (a 0.22 m circle) on the floor plane. */
function baseToPerson(j: Judge, id: string): number {
  const w = j.c.world;
  const p = w.people.get(id)!.position;
  const base = w.world.getRigidBody(w.bodyLinks.base);
  const t = base.translation();
  const local = rot(conj(base.rotation()), vec(p.x - t.x, p.y - t.y, p.z - t.z));
  const [sx, , sz] = w.scene.robot.base.size;
  return Math.max(0, Math.hypot(Math.max(0, Math.abs(local.x) - sx / 2), Math.max(0, Math.abs(local.z) - sz / 2)) - 0.22);
}

/** How far a reported distance may stray: rounding, and the configured noise. */
export const distanceTolerance = (j: Judge): number => 0.011 + 4 * j.c.world.noise.distanceSigma;

/** Is the person looking at the robot? yes, no, or unsure near the 15° cone's edge. */
function gazeAt(j: Judge, id: string): boolean | undefined {
  const p = j.c.world.people.get(id)!;
  if (p.gaze === 'robot') return true;
  if (p.gaze === 'away') return false;
  const h = p.spec.seated ? p.spec.height * 0.7 : p.spec.height;
  const eye = vec(p.position.x, p.position.y + h - 0.1, p.position.z);
  const look = vec(p.gaze.x - eye.x, p.gaze.y - eye.y, p.gaze.z - eye.z);
  const b = j.c.after.base.pos;
  const cfg = j.c.world.scene.robot;
  // The robot's head (camera height) and its body centre: either counts.
  const targets = [vec(b.x, b.y + cfg.camera.position[1], b.z), vec(b.x, b.y + cfg.base.size[1] / 2, b.z)];
  const angles = targets.map((t) => {
    const d = vec(t.x - eye.x, t.y - eye.y, t.z - eye.z);
    const n = Math.hypot(look.x, look.y, look.z) * Math.hypot(d.x, d.y, d.z);
    return n > 0 ? (Math.acos(Math.max(-1, Math.min(1, (look.x * d.x + look.y * d.y + look.z * d.z) / n))) * 180) / Math.PI : 180;
  });
  const best = Math.min(...angles);
  return best < 11 ? true : best > 20 ? false : undefined;
}

export const PEOPLE_RULES: readonly Rule[] = [
  [
    /No humans around\./,
    (_m, j) => {
      for (const id of j.c.world.people.keys())
        if (sightOf(j.c.world, id, undefined) === 'seen') j.lie(`said no humans are around, but ${id} is in plain view`);
    },
  ],
  [
    /Humans around: (.+)\./,
    (m, j) => {
      // Items may carry a parenthesis with commas in it: "person_1 (by fridge_1, not recognized)".
      for (const item of m[1]!.split(/, (?![^()]*\))/)) {
        const named = new RegExp(`^(.+) \\((${ID})\\)$`).exec(item);
        const handle = new RegExp(`^(${ID}) \\((.+), not recognized\\)$`).exec(item);
        let who = item;
        if (handle) {
          who = handle[1]!;
          if (whoIs(j, who)?.byName) j.lie(`called ${who} not recognized, but named them`);
        } else if (named) {
          who = named[2]!;
          const p = j.c.world.people.get(who);
          if (p && p.spec.name !== named[1]) j.lie(`named ${who} "${named[1]}", but they are "${p.spec.name}"`);
        }
        const p = whoIs(j, who);
        if (p) {
          if (p.byName) recognisedName(j, p.id);
          if (sightOf(j.c.world, p.id, undefined) === 'hidden') j.lie(`said ${who} is around, but they are out of the camera's view`);
          continue;
        }
        // A description of someone not recognised ("a person by fridge_1"): someone in view stands there.
        const d = /^a person(?: (?:by|near|at) (\S+))?$/.exec(who);
        if (!d) return void j.unread(who);
        const seen = [...j.c.world.people.keys()].filter((id) => sightOf(j.c.world, id, undefined) !== 'hidden');
        if (!seen.length) j.lie(`said "${who}" is around, but nobody is in view`);
      }
    },
  ],
  [
    /Nobody is recognized\./,
    (_m, j) => {
      for (const id of j.c.world.people.keys())
        if (recognisable(j.c.world, id, sightOf(j.c.world, id, undefined) === 'seen') === 'yes')
          j.lie(`said nobody is recognized, but ${id} faces the camera in range`);
    },
  ],
  [
    /Recognized: (.+)\./,
    (m, j) => {
      for (const item of m[1]!.split(', ')) {
        const r = new RegExp(`^(.+) \\((${ID})\\)$`).exec(item);
        if (!r) return void j.unread(item);
        const id = whoIs(j, r[2]!)?.id;
        const p = id ? j.c.world.people.get(id) : undefined;
        if (!p || p.spec.name !== r[1]) j.lie(`recognised "${item}", who is not in the scene by that name`);
        else if (!j.c.recognised.has(p.spec.id) && recognisable(j.c.world, p.spec.id, true) === 'no')
          j.lie(`recognised ${p.spec.id}, whom the robot cannot recognise (not on record, face turned away, or out of range)`);
      }
    },
  ],
  [
    new RegExp(`(${ID}) is (${NUM}) m from the robot\\.`),
    (m, j) => {
      const id = personSaid(j, m[1]!);
      if (!id) return;
      const d = baseToPerson(j, id);
      if (Math.abs(Number(m[2]) - d) > distanceTolerance(j))
        j.lie(`said ${m[1]} is ${m[2]} m from the robot, but the gap is ${d.toFixed(3)} m`);
    },
  ],
  [
    new RegExp(`(${ID})'s hands are (not )?free\\.`),
    (m, j) => {
      const id = personSaid(j, m[1]!);
      const p = id ? j.c.world.people.get(id) : undefined;
      if (!p) return;
      if (p.handsFree !== !m[2]) j.lie(`said ${m[1]}'s hands are ${m[2] ? 'not ' : ''}free, but they are ${p.handsFree ? '' : 'not '}free`);
    },
  ],
  [
    new RegExp(`(${ID}) is (not )?looking at the robot\\.`),
    (m, j) => {
      const id = personSaid(j, m[1]!);
      if (!id) return;
      const g = gazeAt(j, id);
      if (g !== undefined && g === Boolean(m[2]))
        j.lie(`said ${m[1]} is ${m[2] ? 'not ' : ''}looking at the robot, but they are ${g ? '' : 'not '}`);
    },
  ],
];

export { personBox };
