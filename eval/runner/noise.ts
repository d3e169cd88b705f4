// A run's perception and skill noise (eval --noise): checked once, applied to
// every case's world (eval/core/world.ts, seeded by the run's seed) and recorded
// with the run exactly as applied, so a resumed run and a reader of the results
// see the noise its cases ran with.
import { z } from 'zod';
import { NO_NOISE, type NoiseOptions } from '../../sim/world/types';
import { EvalInputError } from './errors';

/** The command line's name of each field (hosts/cli/noise.ts). */
export const NOISE_FLAG_NAMES: Record<keyof NoiseOptions, string> = {
  distanceSigma: 'distance',
  detectionDropout: 'dropout',
  skillFailureRate: 'failure',
};

const Noise = z.strictObject({
  distanceSigma: z.number().min(0).max(1),
  detectionDropout: z.number().min(0).max(1),
  skillFailureRate: z.number().min(0).max(1),
});

/** The whole noise a run applies (fields not given are 0), or a one-line error naming the field. */
export function checkNoise(given: Partial<NoiseOptions>): NoiseOptions {
  const full = { ...NO_NOISE, ...given };
  for (const [k, v] of Object.entries(full)) {
    const name = NOISE_FLAG_NAMES[k as keyof NoiseOptions];
    if (!name) throw new EvalInputError('bad-option', `--noise: unknown field "${k}"; use distance, dropout or failure`);
    const max = k === 'distanceSigma' ? '1 (metres)' : '1 (a probability)';
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1)
      throw new EvalInputError('bad-option', `--noise ${name} must be a number from 0 to ${max}, got ${String(v)}`);
  }
  return Noise.parse(full);
}

/**
 * The noise a recorded run applied. A run recorded with noise as text (before noise
 * was applied) ran without any, so it has none.
 */
export function recordedNoise(args: Record<string, unknown>): NoiseOptions | undefined {
  const raw = args['noise'];
  if (raw === undefined || typeof raw === 'string') return undefined;
  const r = Noise.safeParse(raw);
  if (!r.success)
    throw new EvalInputError('resume-mismatch', `the run's recorded noise does not read (${r.error.issues[0]?.message}); start a new run`);
  return r.data;
}

/** Whether two noises differ (absent is no noise). */
export function noiseClash(a: NoiseOptions | undefined, b: NoiseOptions | undefined): boolean {
  const x = a ?? NO_NOISE;
  const y = b ?? NO_NOISE;
  return (Object.keys(NO_NOISE) as Array<keyof NoiseOptions>).some((k) => x[k] !== y[k]);
}
