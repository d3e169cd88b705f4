// scenes/urdf/model.ts — a robot description as parsed, in URDF's own frame (Z up, metres, radians).
export type V3 = [number, number, number];
export interface Origin {
  xyz: V3;
  rpy: V3;
}
export type Geometry =
  | { kind: 'box'; size: V3 }
  | { kind: 'cylinder'; radius: number; length: number }
  | { kind: 'sphere'; radius: number }
  | { kind: 'mesh'; file: string; scale: V3 };
export interface Link {
  name: string;
  inertial: { mass: number; origin: Origin } | null;
  collisions: Array<{ origin: Origin; geometry: Geometry }>;
  visuals: Array<{ origin: Origin; geometry: Geometry; color: string | null }>;
}
export type JointKind = 'revolute' | 'continuous' | 'prismatic' | 'fixed' | 'floating' | 'planar';
export interface Joint {
  name: string;
  kind: JointKind;
  parent: string;
  child: string;
  origin: Origin;
  axis: V3;
  limit: { lower: number; upper: number; effort: number | null; velocity: number | null } | null;
  mimic: { joint: string; multiplier: number; offset: number } | null;
}
export interface RobotDescription {
  name: string;
  links: Link[];
  joints: Joint[];
  root: string;
}
export interface Problem {
  element: string;
  problem: string;
  fix: string;
  severity: 'error' | 'warning';
}
