// Where an object can be: held by the robot, handed to a person, in a
// container, on something, on the floor, resting on the robot's own body
// (its hand and fingers, an arm link, the base), or still moving with nothing
// bearing it (falling, bouncing: what it will rest on is not known until it
// does, so no support is named). location.ts reads it from the
// physics; the belief stores it as last perceived, where a support the robot
// never perceived is "unperceived" rather than named.

/** The parts of the robot an object can rest on. */
export type RobotPart = 'hand' | 'arm' | 'base';

export type Place =
  | { kind: 'held' }
  | { kind: 'handed'; person: string }
  | { kind: 'in'; id: string }
  | { kind: 'on'; id: string }
  | { kind: 'floor' }
  | { kind: 'robot'; part: RobotPart }
  | { kind: 'moving' };

/** What the belief records: a place, or on/in something the robot has not perceived (it cannot name it). */
export type BelievedPlace = Place | { kind: 'unperceived'; relation: 'on' | 'in' };

/** The fact id of a robot part: on(x, robot_hand). */
export const robotPartId = (part: RobotPart): string => `robot_${part}`;

/** A place as a fact: in(x, c), on(x, s), on(x, floor), on(x, robot_hand), holding(robot, x), held_by(x, person) or moving(x). */
export function placeFact(id: string, p: BelievedPlace): string {
  switch (p.kind) {
    case 'held':
      return `holding(robot, ${id})`;
    case 'handed':
      return `held_by(${id}, ${p.person})`;
    case 'in':
      return `in(${id}, ${p.id})`;
    case 'on':
      return `on(${id}, ${p.id})`;
    case 'floor':
      return `on(${id}, floor)`;
    case 'robot':
      return `on(${id}, ${robotPartId(p.part)})`;
    case 'unperceived':
      return `${p.relation}(${id}, unperceived)`;
    case 'moving':
      return `moving(${id})`;
  }
}

/** A place in words ("on table_1", "resting on the robot's hand"). */
export function describePlace(p: BelievedPlace | undefined): string {
  if (!p) return 'somewhere unknown';
  switch (p.kind) {
    case 'held':
      return 'in the hand';
    case 'handed':
      return `with ${p.person}`;
    case 'in':
      return `in ${p.id}`;
    case 'on':
      return `on ${p.id}`;
    case 'floor':
      return 'on the floor';
    case 'robot':
      return `resting on the robot's ${p.part === 'arm' ? 'arm' : p.part}`;
    case 'unperceived':
      return `${p.relation} something the robot has not perceived`;
    case 'moving':
      return 'still moving (what it rests on is not known until it stops)';
  }
}

/** Same place (a different part of the robot is still on the robot). */
export function samePlace(a: BelievedPlace | undefined, b: BelievedPlace | undefined): boolean {
  if (!a || !b || a.kind !== b.kind) return a === b;
  if ((a.kind === 'in' || a.kind === 'on') && (b.kind === 'in' || b.kind === 'on')) return a.id === b.id;
  if (a.kind === 'handed' && b.kind === 'handed') return a.person === b.person;
  if (a.kind === 'unperceived' && b.kind === 'unperceived') return a.relation === b.relation;
  return true;
}
