// A part whose shape is a triangle mesh read from a file: the triangles as
// loaded (scaled, turned and centred on their bounding box), and how the
// physics makes a collider of them.

export type MeshCollision = 'hull' | 'decomposed';

export interface MeshPart {
  shape: 'mesh';
  name?: string;
  /** x, y, z per vertex, metres, in the body frame. */
  positions: number[];
  /** Three vertex indices per triangle. */
  indices: number[];
  /** hull: one convex hull; decomposed: convex parts found by V-HACD (concave shapes). */
  collision: MeshCollision;
  /** At most this many convex parts when decomposed. */
  maxParts: number;
  /** Names the field and the file, for messages about this mesh ("types[0].mesh (bowl.stl)"). */
  origin: string;
  position?: [number, number, number];
  rotation?: [number, number, number];
  color?: string;
  collider?: boolean;
  visual?: boolean;
  mass?: number;
}
