import type { NoiseOptions } from '../../sim/world/sim-world';
import { UsageError } from './args';

const KEYS: Record<string, keyof NoiseOptions> = { distance: 'distanceSigma', dropout: 'detectionDropout', failure: 'skillFailureRate' };

/** "distance=0.01,dropout=0.1,failure=0.05" -> noise options (all off when absent); anything else is one line naming the part. */
export function parseNoise(spec: string | undefined): Partial<NoiseOptions> | undefined {
  if (spec === undefined) return undefined;
  const usage = 'use comma-separated distance=METRES, dropout=PROBABILITY, failure=PROBABILITY, each from 0 to 1';
  if (!spec.trim()) throw new UsageError(`--noise is empty: ${usage}`);
  const out: Partial<NoiseOptions> = {};
  for (const part of spec.split(',')) {
    const m = /^\s*([a-z]+)\s*=\s*(\S+)\s*$/.exec(part);
    const key = m ? KEYS[m[1]!] : undefined;
    // Number('') is 0: a value must be written out.
    const n = m ? Number(m[2]) : NaN;
    if (!m || !key || !Number.isFinite(n) || n < 0 || n > 1)
      throw new UsageError(`--noise "${spec}": "${part.trim()}" does not read; ${usage}`);
    if (out[key] !== undefined) throw new UsageError(`--noise "${spec}": ${m[1]} is given twice`);
    out[key] = n;
  }
  return out;
}
