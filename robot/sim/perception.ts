// What the simulated robot reports: every answer comes from its belief (what it
// has perceived, sim/world/belief.ts) and from looking now, never from the
// world behind it. Names resolve among what it knows or sees; poses and
// distances are those of where it last saw things; people are answered about
// only while they are in view, and called by name only once recognised (a
// handle, "person_1", before: sim/perception/person-names.ts). Lint keeps this
// file (and sim-robot.ts, world-model.ts) off the ground-truth modules
// (eslint.config.js).
import { deg, dist, round, toTuple, v3, yawOf } from '../../sim/math';
import type { Vec3 } from '../../sim/math';
import { believedGeo, isKnown, knownObjectIds } from '../../sim/perception/believed';
import { detectObjects } from '../../sim/perception/detection';
import { closestPoint, reportDistance, robotHumanDistance, shoulderPoint } from '../../sim/perception/distance';
import { resolveName } from '../../sim/perception/names';
import { look, record } from '../../sim/perception/observe';
import { freePath, gazeAtRobot, handsFree, humansAround } from '../../sim/perception/people';
import { personByHandle, personName, seePerson } from '../../sim/perception/person-names';
import { QUERY_RELATIONS, objectProperties, objectState, parseRelation, relationQuery, robotHolding } from '../../sim/perception/queries';
import { referencePoint } from '../../sim/perception/references';
import { gap } from '../../sim/perception/relations';
import { snapshotFacts } from '../../sim/perception/snapshot';
import { visibleEntityIds, visiblePersonIds } from '../../sim/perception/visibility';
import { graspTarget } from '../../sim/skills/grasp-plan';
import type { SimWorld } from '../../sim/world/sim-world';
import type { PeoplePerception, Perception } from '../robot';

const roundV = (v: Vec3): Vec3 => v3(round(v.x), round(v.y), round(v.z));

/** Thrown when a caller names something the robot does not know: a tool bug, never a model's mistake (names are resolved first). */
export class UnknownToRobot extends Error {
  override name = 'UnknownToRobot';
}

function known(sim: SimWorld, id: string): void {
  if (!isKnown(sim, id)) throw new UnknownToRobot(`${id} is not known to the robot`);
}

function inView(sim: SimWorld, person: string): void {
  if (!visiblePersonIds(sim).includes(person)) throw new UnknownToRobot(`${personHandleOf(sim, person)} is not in view`);
}

/** What the robot calls a person (for messages): their handle, or "a person" if it never saw them. */
function personHandleOf(sim: SimWorld, id: string): string {
  return sim.belief.people.get(id)?.handle ?? 'a person';
}

/** Records the people in view now (recognising whom it can): naming among them is looking. */
function seePeople(sim: SimWorld): void {
  for (const id of visiblePersonIds(sim)) seePerson(sim, id);
}

/**
 * The person a caller names: a handle the robot gave ("person_1"), or the id of
 * someone it has recognised. The id of a person it has not recognised denotes
 * nobody it knows (undefined), as does a name it never gave.
 */
export function personOf(sim: SimWorld, handle: string): string | undefined {
  seePeople(sim);
  return personByHandle(sim, handle);
}

/** Is this a person's handle (or a recognised person's id)? */
function isPerson(sim: SimWorld, handle: string): boolean {
  return personOf(sim, handle) !== undefined;
}

function person(sim: SimWorld, handle: string): string {
  const id = personOf(sim, handle);
  if (!id) throw new UnknownToRobot(`${handle} is not a person the robot has seen`);
  return id;
}

/**
 * Robot to an object, the one definition of reach that pick shares: from the
 * arm's shoulder to where the fingers would close on it (at its perceived pose);
 * for what cannot be picked, to the nearest point of its perceived box. A robot
 * without an arm measures from its base centre on the floor plane.
 */
export function reachDistance(sim: SimWorld, id: string): number {
  const e = sim.entity(id);
  const box = believedGeo(sim, id).box;
  const shoulder = shoulderPoint(sim);
  if (!shoulder) {
    const b = sim.body.basePose.p;
    return Math.hypot(Math.max(0, box.min.x - b.x, b.x - box.max.x), Math.max(0, box.min.z - b.z, b.z - box.max.z));
  }
  // Pickable as tools say it (the gripper closes on it): one too wide for the fingers is measured to its box, as they say.
  if (!e.fixed && objectProperties(sim, id).properties['pickable'] && !sim.isHeld(id)) return dist(shoulder, graspTarget(sim, id).tcp);
  return dist(shoulder, closestPoint(box, shoulder));
}

export function beliefPerception(sim: SimWorld): Perception {
  return {
    resolve: async (name, opts = {}) => {
      look(sim);
      // A tool never resolves among everything in the world: 'all' means what the robot knows.
      const pool = opts.pool === 'visible' ? 'visible' : 'known';
      if (!opts.kinds || opts.kinds.includes('person')) seePeople(sim);
      // Naming among what is visible is looking: what the camera sees now, the robot now
      // knows (a wrist camera that has not been pointed since a person put something in
      // view would otherwise name, or list, a thing its belief does not hold).
      if (pool === 'visible') for (const id of visibleEntityIds(sim)) if (!sim.entity(id).fixed) record(sim, id, 'seen');
      const r = resolveName(sim, name, { ...(opts.kinds ? { kinds: opts.kinds } : {}), pool });
      return r.ok ? { ok: true, id: r.id, kind: r.kind } : r;
    },
    detect: async () => {
      look(sim);
      const seen = detectObjects(sim);
      // Detection is perception: what it reports, the robot now knows.
      for (const d of seen) if (!d.fixed) record(sim, d.id, 'seen');
      return seen.map((d) => ({
        id: d.id,
        name: d.name,
        category: d.category,
        distanceM: round(reportDistance(sim, reachDistance(sim, d.id)), 3),
        position: toTuple(roundV(d.position)),
      }));
    },
    distanceTo: async (id) => {
      look(sim);
      if (isPerson(sim, id)) {
        const pid = person(sim, id);
        inView(sim, pid);
        return robotHumanDistance(sim, pid);
      }
      known(sim, id);
      return reportDistance(sim, reachDistance(sim, id));
    },
    distanceBetween: async (a, b) => {
      look(sim);
      const box = (id: string) => {
        if (isPerson(sim, id)) {
          const pid = person(sim, id);
          inView(sim, pid);
          const p = sim.people.get(pid)!.position;
          return { min: v3(p.x - 0.22, p.y, p.z - 0.22), max: v3(p.x + 0.22, p.y + 1.7, p.z + 0.22) };
        }
        known(sim, id);
        return believedGeo(sim, id).box;
      };
      return reportDistance(sim, gap(box(a), box(b)));
    },
    objectState: async (id) => (known(sim, id), objectState(sim, id)),
    objectProperties: async (id) => (known(sim, id), { ...objectProperties(sim, id) }),
    holding: async () => robotHolding(sim),
    related: async (relation, id) => {
      look(sim);
      known(sim, id);
      const rel = parseRelation(relation);
      if (!rel) throw new Error(`unknown relation "${relation}"; use one of: ${QUERY_RELATIONS.join(', ')}`);
      return relationQuery(sim, rel, id, { pool: knownObjectIds(sim) });
    },
    relations: () => QUERY_RELATIONS,
    snapshot: async () => {
      look(sim);
      return snapshotFacts(sim);
    },
    toolPosition: async () => {
      const tcp = sim.tcp();
      return tcp ? toTuple(roundV(tcp.p)) : undefined;
    },
    pose: async (id) => {
      look(sim);
      if (sim.entities.has(id)) {
        if (!isKnown(sim, id)) return undefined;
        const o = sim.belief.get(id);
        const p = o && !sim.isHeld(id) ? o.pose : sim.pose(id);
        return { position: toTuple(roundV(p.p)), yawDeg: round(deg(yawOf(p.q)), 1) };
      }
      const pid = personOf(sim, id);
      const who = pid ? sim.people.get(pid) : undefined;
      if (pid && who)
        return visiblePersonIds(sim).includes(pid)
          ? { position: toTuple(roundV(who.position)), yawDeg: round(deg(who.yaw), 1) }
          : undefined;
      const loc = sim.locations.get(id);
      if (loc) return { position: loc.pose.position, yawDeg: loc.pose.yaw };
      return undefined;
    },
    // The robot knows where it stands (its localisation).
    basePose: async () => {
      const b = sim.body.basePose;
      return { position: toTuple(roundV(b.p)), yawDeg: round(deg(yawOf(b.q)), 2) };
    },
    referencePoint: async (name) => {
      look(sim);
      const r = referencePoint(sim, name, (n) => {
        const res = resolveName(sim, n, { kinds: ['object'], pool: 'known' });
        return res.ok ? res.id : undefined;
      });
      return r ? { position: toTuple(roundV(r.position)), label: r.label } : undefined;
    },
  };
}

/**
 * People as the camera sees them now: a person out of view is not measured,
 * judged or approached. They are called by handle ("person_1") until the robot
 * recognises them, then by their id; the name of someone it has not recognised
 * addresses nobody.
 */
export function beliefPeople(sim: SimWorld): PeoplePerception {
  const seen = (handle: string): string => {
    const id = person(sim, handle);
    inView(sim, id);
    seePerson(sim, id);
    return id;
  };
  return {
    around: async () => humansAround(sim).map((id) => seePerson(sim, id).handle),
    recognize: async () =>
      humansAround(sim)
        .map((id) => seePerson(sim, id))
        .filter((p) => p.recognised)
        .map((p) => ({ id: p.handle, name: personName(sim, p) })),
    describe: async (handle) => {
      const id = person(sim, handle);
      return personName(sim, sim.belief.people.get(id)!);
    },
    distanceTo: async (p) => robotHumanDistance(sim, seen(p)),
    handsFree: async (p) => handsFree(sim, seen(p)),
    gazeAtRobot: async (p) => gazeAtRobot(sim, seen(p)),
    freePath: async (t) => {
      let target = t;
      if (isPerson(sim, t)) target = seen(t);
      else if (sim.entities.has(t)) known(sim, t);
      const r = freePath(sim, target);
      if (r.free) return { free: true, ...(r.via ? { via: r.via } : {}) };
      if (r.reason) return { free: false, reason: r.reason };
      return { free: false, obstacle: nameObstacle(sim, r.obstacle) };
    },
  };
}

/** An obstacle as the robot may name it: furniture or a thing it knows, a person by handle while in view, else "an obstacle". */
function nameObstacle(sim: SimWorld, id: string | undefined): string {
  if (!id) return 'an obstacle';
  if (sim.people.has(id)) return visiblePersonIds(sim).includes(id) ? seePerson(sim, id).handle : 'a person';
  return isKnown(sim, id) ? id : 'an obstacle';
}
