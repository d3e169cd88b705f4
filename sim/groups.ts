// Collision groups: who touches whom. Rapier packs membership in the high 16
// bits and the filter in the low 16 bits of one number.
export const G = {
  STATIC: 1 << 0,
  OBJECT: 1 << 1,
  ARM: 1 << 2,
  HELD: 1 << 3,
  BASE: 1 << 4,
  DOOR: 1 << 5,
  PERSON: 1 << 6,
  FLOOR: 1 << 7,
} as const;

const ALL = 0xffff;

export const groups = (member: number, filter: number): number => ((member & 0xffff) << 16) | (filter & 0xffff);

/** Interaction sets. Held objects do not touch the arm that carries them. */
export const GROUPS = {
  static: groups(G.STATIC, G.OBJECT | G.HELD),
  floor: groups(G.FLOOR, G.OBJECT | G.HELD | G.PERSON),
  object: groups(G.OBJECT, ALL),
  arm: groups(G.ARM, G.OBJECT),
  held: groups(G.HELD, G.STATIC | G.FLOOR | G.OBJECT | G.DOOR | G.PERSON),
  base: groups(G.BASE, G.OBJECT),
  door: groups(G.DOOR, G.OBJECT | G.HELD),
  person: groups(G.PERSON, G.OBJECT | G.HELD | G.FLOOR),
} as const;

/** Query filters (a query "shape" is a member of every group it should see). */
export const QUERY = {
  /** What blocks a line of sight. */
  sight: groups(ALL, G.STATIC | G.OBJECT | G.HELD | G.DOOR | G.PERSON | G.FLOOR | G.BASE),
  /** What a placed object would collide with. */
  placement: groups(ALL, G.STATIC | G.OBJECT | G.DOOR | G.PERSON),
  /** What blocks the approach of the gripper. */
  approach: groups(ALL, G.STATIC | G.OBJECT | G.DOOR | G.PERSON),
  /** What blocks the base when it drives. */
  drive: groups(ALL, G.STATIC | G.OBJECT | G.DOOR | G.PERSON),
  /** Furniture only: for planning roads at load time. */
  furniture: groups(ALL, G.STATIC),
} as const;
