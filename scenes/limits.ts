// Limits on scene files, so a file that loads also runs: sizes a desktop can
// build and step, and numbers inside the world's bounds. Documented in
// scenes/README.md; each breach is one line naming the field and the limit.
export const SCENE_LIMITS = {
  /** Bytes of a scene file. */
  fileBytes: 2_000_000,
  objects: 500,
  /** Object types made from mesh files, per scene. */
  meshTypes: 32,
  people: 50,
  locations: 200,
  referencePositions: 200,
  events: 1000,
  notes: 100,
  userInfo: 200,
  /** Characters of any one text (a note, a description, something a person says). */
  textChars: 4000,
  /** Links in an on/in chain (a cup in a box on a tray on a table is 3; the physics benchmark stacks 10 boxes). */
  nesting: 16,
  /** Metres of floor on either side. */
  floorMetres: 100,
  /** Highest point of anything placed, metres. */
  heightMetres: 10,
  /** Seconds after the start by which a scheduled event must happen (one day). */
  eventSeconds: 86_400,
  /** Mass of one object, kg. */
  massKg: 1000,
  /** A person's height, metres. */
  personHeightMetres: 3,
} as const;
