// The Robot seam: what a robot can do and report, for tools and workflows. The
// simulator implements it (robot/sim), and so do bridges to real robots (HTTP,
// rosbridge), so every query is asynchronous: a real robot answers over a wire.
// Capabilities are declared in `info.capabilities` and each group of operations
// is present only when declared, so tools can be offered or withheld by
// capability rather than by the robot's class. What only a simulator can do
// (inject events, set the battery, step time, snapshot, read ground truth) is not
// here: it lives on SimControl (robot/sim/control.ts), which tools never see.

export type Capability =
  'arm' | 'base' | 'rover' | 'perception' | 'people' | 'speech' | 'battery' | 'events' | 'world_model' | 'partial_observability' | 'camera';

export type Vec3Tuple = [number, number, number];

export interface NamedPlace {
  id: string;
  kind: string;
  title: string | undefined;
  position: Vec3Tuple;
  yaw: number;
  serves: string[];
}

export interface RobotInfo {
  id: string;
  name: string;
  kind: 'fixed_arm' | 'mobile_manipulator' | 'rover';
  description: string;
  capabilities: Capability[];
  scene: {
    id: string;
    title: string;
    notes: string[];
    userInfo: string[];
    /** The tool set the scene names as its default. */ toolSet: string;
  };
  arm?: { reachM: number; payloadKg: number; gripperOpeningM: number; postures: string[] };
  base?: { footprintM: [number, number]; maxSpeedMps: number; tucksArmItself: boolean };
  places: NamedPlace[];
  referencePositions: Array<{ id: string; position: Vec3Tuple; description: string | undefined }>;
  batteryThresholds: { low: number; critical: number };
  /** The box (world frame, metres) the robot may move its tool or base within; the safety chain refuses targets outside it. */
  workspace?: { min: Vec3Tuple; max: Vec3Tuple };
  /** 'not_reported' when the robot declares it has no e-stop state to report. */
  estop?: 'reported' | 'not_reported';
}

/** How old a value read from a robot is, against the robot's stated maximum age. */
export type Freshness = 'fresh' | 'stale' | 'unknown';

/** What the safety chain needs to know before any motion: the e-stop, the battery, the link. */
export interface SafetyState {
  /**
   * 'not_reported': the robot declares (mapping or API info) that it cannot report an e-stop;
   * motion is then allowed only when the person accepted that at start (recorded in the trace).
   * 'unknown': nothing received yet, or the link is down, or the value is stale.
   */
  estop: { state: 'released' | 'pressed' | 'unknown' | 'not_reported'; ageS?: number; freshness: Freshness; detail?: string };
  /** Absent when the robot has no battery mapped/reported. */
  battery?: { percent?: number; ageS?: number; freshness: Freshness };
  /** The robot's stated maximum age of a reading, seconds (older is 'stale'). */
  maxAgeS: number;
  link: 'up' | 'reconnecting' | 'down';
}

/** 'fresh' when `ageS` is known and within `maxAgeS`. */
export function freshness(ageS: number | undefined, maxAgeS: number): Freshness {
  if (ageS === undefined || !Number.isFinite(ageS)) return 'unknown';
  return ageS <= maxAgeS ? 'fresh' : 'stale';
}

import type { Reading } from '../base/reading';
import type { FailureCode } from '../base/failure-codes';
export { FAILURE_CODES, type FailureCode } from '../base/failure-codes';

/** The result of every action: success with a summary, or a failure a person can read. */
export type Outcome =
  | { ok: true; summary: string; data?: Record<string, unknown>; incidents?: string[] }
  | { ok: false; code: FailureCode; summary: string; data?: Record<string, unknown>; incidents?: string[] };

export type NameKind = 'object' | 'person' | 'location';

export type Resolution =
  { ok: true; id: string; kind: NameKind } | { ok: false; reason: 'unknown' | 'ambiguous'; message: string; candidates: string[] };

export interface ResolveOptions {
  kinds?: NameKind[];
  /** Restrict objects to those the robot can see now, or knows of. */
  pool?: 'all' | 'visible' | 'known';
}

export interface Detection {
  id: string;
  name: string;
  category: string;
  distanceM: number;
  position: Vec3Tuple;
}

export type PlaceSpec = { kind: 'object'; id: string; relation?: 'on' | 'in' } | { kind: 'point'; position: Vec3Tuple; label?: string };

export interface Pose6 {
  position: Vec3Tuple;
  /** Hand pitch from straight down, degrees (0 = pointing down, 90 = horizontal). */
  tiltDeg: number;
}

export interface Perception {
  resolve(name: string, opts?: ResolveOptions): Promise<Resolution>;
  detect(): Promise<Detection[]>;
  distanceTo(id: string): Promise<number>;
  distanceBetween(a: string, b: string): Promise<number>;
  objectState(id: string): Promise<Record<string, boolean>>;
  objectProperties(id: string): Promise<Record<string, unknown>>;
  holding(): Promise<string | undefined>;
  /** Objects that stand in `relation` to `id` (RAIDER's check_obj_relationship). */
  related(relation: string, id: string): Promise<string[]>;
  relations(): readonly string[];
  /** Semantic facts, e.g. on(lemon_1, table_1). */
  snapshot(): Promise<string[]>;
  /** Where a thing is, in the robot's world frame (see `basePose`). */
  pose(id: string): Promise<{ position: Vec3Tuple; yawDeg: number } | undefined>;
  /** Places a reference name denotes ("center", "left of coke_can_1"), in the world frame. */
  referencePoint(name: string): Promise<{ position: Vec3Tuple; label: string } | undefined>;
  /**
   * The robot's own base pose (base_link) in the world frame: its localisation. Positions on
   * this seam (poses, detections, places, skill targets) are in one world frame, the scene's:
   * metres, Y up, yaw about +Y positive turning left. A bridge to a real robot converts its
   * map frame to this once; tools convert to the robot's base frame (REP 103: x forward,
   * y left, z up) once, with this pose (agents/tools/frames.ts).
   */
  basePose(): Promise<{ position: Vec3Tuple; yawDeg: number }>;
  /**
   * Where the robot's tool centre point is, in the world frame (its own joint
   * readings, not a detection); undefined when it has no arm. A robot that does
   * not report it leaves it out: a relative move of the tool is then refused
   * where a workspace is declared (where it ends is unknown).
   */
  toolPosition?(): Promise<Vec3Tuple | undefined>;
}

/**
 * People as the robot perceives them. A person is called by id (and name) only
 * once the robot has recognised them; anyone else by a handle it gave them
 * ("person_1"). Every method takes what `around` returns.
 */
export interface PeoplePerception {
  /** Handles of the people in view now, nearest first (a recognised person's handle is their id). */
  around(): Promise<string[]>;
  /** The people in view the robot has recognised: handle (their id) and name. */
  recognize(): Promise<Array<{ id: string; name: string }>>;
  /** How the robot speaks of a person: their name once recognised, else where it saw them ("a person by fridge_1"). */
  describe?(person: string): Promise<string>;
  distanceTo(person: string): Promise<number>;
  handsFree(person: string): Promise<boolean>;
  gazeAtRobot(person: string): Promise<boolean>;
  /**
   * Whether the base can drive to a target, planned as `move_to` would drive
   * it: free (directly or `via` that many named places) or blocked by the first
   * obstacle of the straight way; `reason` when no drive is possible at all.
   */
  freePath(target: string): Promise<{ free: boolean; obstacle?: string; via?: number; reason?: string }>;
}

export interface Arm {
  pick(object: string, signal?: AbortSignal): Promise<Outcome>;
  place(target: PlaceSpec, signal?: AbortSignal): Promise<Outcome>;
  moveToPosture(posture: string, signal?: AbortSignal): Promise<Outcome>;
  moveTool(pose: Pose6, signal?: AbortSignal): Promise<Outcome>;
  /** A relative move of the tool, in the robot's frame (forward, left, up), metres. */
  nudge(forward: number, left: number, up: number, signal?: AbortSignal): Promise<Outcome>;
  /**
   * Several nudges as one motion (a gesture), ended by the first that fails; what
   * happened meanwhile is reported once, as the whole gesture left things.
   */
  gesture?(moves: ReadonlyArray<readonly [number, number, number]>, signal?: AbortSignal): Promise<Outcome>;
  graspPose(object: string): Promise<{ ok: true; pose: Pose6 } | { ok: false; summary: string }>;
  setOpen(object: string, open: boolean, signal?: AbortSignal): Promise<Outcome>;
  setSwitch(object: string, on: boolean, signal?: AbortSignal): Promise<Outcome>;
  slice(object: string, signal?: AbortSignal): Promise<Outcome>;
  handover(person: string, signal?: AbortSignal): Promise<Outcome>;
  /** Look at the workspace in front (observe posture on robots with a wrist camera). */
  perceive(signal?: AbortSignal): Promise<Outcome>;
}

export interface Base {
  navigate(place: string, signal?: AbortSignal): Promise<Outcome>;
  /** Relative step in the robot frame: forward and left in metres, turn in degrees. */
  step(forward: number, left: number, turnDeg: number, signal?: AbortSignal): Promise<Outcome>;
  approach(target: string, signal?: AbortSignal): Promise<Outcome>;
}

export interface Rover {
  dock(signal?: AbortSignal): Promise<Outcome>;
  undock(signal?: AbortSignal): Promise<Outcome>;
  charge(targetPercent: number, signal?: AbortSignal): Promise<Outcome>;
  scan(poi: string | undefined, signal?: AbortSignal): Promise<Outcome>;
}

export interface Speech {
  say(text: string): Promise<Outcome>;
  ask(question: string, timeoutSeconds?: number, signal?: AbortSignal): Promise<Outcome>;
  /** Waits for someone to say something. */
  listen(timeoutSeconds?: number, signal?: AbortSignal): Promise<Outcome>;
}

export interface BatteryStatus {
  percent: number;
  level: 'okay' | 'low' | 'critical' | 'empty';
  charging: boolean;
  docked: boolean;
}

export interface RobotEvent {
  id: number;
  time: number;
  type: string;
  text: string;
  data: Record<string, unknown>;
}

export interface EventSource {
  since(lastId: number): Promise<RobotEvent[]>;
  lastId(): Promise<number>;
  subscribe(listener: (e: RobotEvent) => void): () => void;
}

/**
 * A node of the robot's world model (paper 000's AIMM-WM): what the robot
 * believes, never the world behind it. An object's position and parent are
 * where it was last perceived (or put by the robot itself), `known` says when
 * and how; an object moved out of view keeps its old place until seen again.
 */
export interface WorldModelNode {
  id: string;
  type: string;
  name: string;
  category: string;
  parent: string | undefined;
  relation: 'on' | 'in' | 'at' | undefined;
  position: Vec3Tuple | undefined;
  attributes: Record<string, string | number | boolean>;
  /** Where the node came from: the robot's perception, or an operator. */
  source: 'perception' | 'operator';
  /**
   * When the robot last perceived it (its clock, seconds) and how: seen by the
   * camera, put there by its own hand, held, or handed over. `stale`: seen by a
   * wrist camera before the base last moved. Absent for what it knows a priori
   * (itself, places, furniture) and for operator nodes.
   */
  known?: { time: number; how: 'seen' | 'placed' | 'held' | 'handed'; stale: boolean };
  /** Where it rests, in words, as the robot knows it ("on counter_2", "still moving", "on something the robot has not perceived"). */
  where?: string;
  /** Attributes an operator set (set_object_property): what the operator said, not what the robot perceived. */
  operatorSet?: string[];
}

export interface WorldModelApi {
  nodes(): Promise<WorldModelNode[]>;
  node(id: string): Promise<WorldModelNode | undefined>;
  addNode(node: { id: string; type: string; parent: string; relation?: 'on' | 'in' }): Promise<WorldModelNode>;
  setAttribute(id: string, key: string, value: string | number | boolean): Promise<WorldModelNode>;
}

/** One picture from the robot's camera, as a PNG file's bytes in base64. */
export interface CameraFrame {
  mimeType: 'image/png';
  data: string;
  width: number;
  height: number;
  /** The robot's clock when it was taken, seconds. */
  time: number;
}

export interface CameraApi {
  /** A picture now; `width` in pixels (the height is 3/4 of it), clamped to what the camera gives. */
  picture(opts?: { width?: number }): Promise<CameraFrame>;
}

export interface Robot {
  readonly info: RobotInfo;
  readonly perception: Perception;
  /** Present with the 'camera' capability. */
  readonly camera?: CameraApi;
  readonly arm?: Arm;
  readonly base?: Base;
  readonly rover?: Rover;
  readonly speech?: Speech;
  readonly people?: PeoplePerception;
  readonly events: EventSource;
  readonly worldModel?: WorldModelApi;
  battery(): Promise<BatteryStatus>;
  /** The arm's joints as the robot measures them, by joint name (radians or metres); absent where it does not report them. */
  jointStates?(): Promise<Reading<ReadonlyMap<string, number>>>;
  /** The e-stop, battery and link as last read, with their ages; never throws (what it cannot read is 'unknown'). */
  safety(): Promise<SafetyState>;
  wait(seconds: number, signal?: AbortSignal): Promise<Outcome>;
  /** The robot's clock in seconds (simulated time in the simulator). */
  time(): Promise<number>;
  has(capability: Capability): boolean;
}
