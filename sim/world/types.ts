// Plain types and options of the simulated world, apart from the SimWorld class
// so skills, perception and hosts can name them without pulling the class in.
import type { Person } from '../../scenes/schema';
import type { JointValues } from '../body/kinematics';
import type { Pose, Vec3 } from '../math';

export const DEFAULT_DT = 1 / 240;

export interface NoiseOptions {
  /** Standard deviation of reported distances, metres. */
  distanceSigma: number;
  /** Probability that a visible object is missed by detection. */
  detectionDropout: number;
  /** Probability that a manipulation skill fails on its own (a fumbled grasp). */
  skillFailureRate: number;
}

export const NO_NOISE: NoiseOptions = { distanceSigma: 0, detectionDropout: 0, skillFailureRate: 0 };

export interface SimOptions {
  seed?: number;
  noise?: Partial<NoiseOptions>;
  dt?: number;
  /** Seconds to let objects settle after building (default 0.5). */
  settle?: number;
}

export type InterruptReason = 'estop' | 'aborted' | 'timeout' | 'battery_empty';

/** Thrown inside skills when motion must stop; skills turn it into a failure outcome. */
export class SkillInterrupt extends Error {
  constructor(readonly reason: InterruptReason) {
    super(
      reason === 'estop'
        ? 'the emergency stop was pressed'
        : reason === 'aborted'
          ? 'the skill was stopped'
          : reason === 'battery_empty'
            ? 'the battery is empty'
            : 'the skill took too long',
    );
    this.name = 'SkillInterrupt';
  }
}

export interface PersonState {
  spec: Person;
  body: number;
  position: Vec3;
  yaw: number;
  gaze: 'robot' | 'away' | Vec3;
  handsFree: boolean;
}

export interface PlantReading {
  plant: string;
  crop: string;
  /** Vegetation index 0..1: higher is healthier. */
  ndvi: number;
  heightCm: number;
  health: 'healthy' | 'stressed' | 'diseased';
}

export interface ScanRecord {
  poi: string;
  time: number;
  readings: PlantReading[];
}

export interface BodyState {
  basePose: Pose;
  /** One value per arm joint (the kinematics' order), or undefined without an arm. */
  q: JointValues | undefined;
  opening: number;
  posture: string | undefined;
  docked: boolean;
  /** Counts base motions; observations made before the last one are stale. */
  baseMoves: number;
  at: string | undefined;
}

export interface WorldSnapshot {
  physics: Uint8Array;
  state: string;
}
