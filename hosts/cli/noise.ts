import type { NoiseOptions } from '../../sim/world/sim-world';
import { UsageError } from './args';

const KEYS: Record<string, keyof NoiseOptions> = { distance: 'distanceSigma', dropout: 'detectionDropout', failure: 'skillFailureRate' };

/** "distance=0.01,dropout=0.1,failure=0.05" -> noise options (all off when absent). */
export function parseNoise(spec: string | undefined): Partial<NoiseOptions> | undefined {
  if (!spec) return undefined;
  const out: Partial<NoiseOptions> = {};
  for (const part of spec.split(',')) {
    const [k, v] = part.split('=');
    const key = KEYS[(k ?? '').trim()];
    const n = Number(v);
    if (!key || !Number.isFinite(n) || n < 0) {
      throw new UsageError(`--noise "${spec}": use comma-separated distance=METRES, dropout=PROBABILITY, failure=PROBABILITY`);
    }
    out[key] = n;
  }
  return out;
}
