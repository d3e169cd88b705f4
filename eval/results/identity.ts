// A run's identity is its content: the suite and its version, the case set
// (filter, sample, shard), the model spec, the workflow, the seed, the trials,
// the noise, the turn limits, the judge, the protocol, the scorer's version and
// the robot in place of the scenes' own (its content hash).
// Its hash names the run's jobs on a queue and is recorded with the run, so a
// run id used again for other content is refused (naming what differs) instead
// of taking the old results as the new run's.
import { createHash } from 'node:crypto';
import { z } from 'zod';

const Noise = z.strictObject({
  distanceSigma: z.number(),
  detectionDropout: z.number(),
  skillFailureRate: z.number(),
});

export const RunContent = z.strictObject({
  suite: z.string(),
  /** The suite's version: the cases' source key (a built-in suite) or a hash of the cases (a suite file). */
  suiteVersion: z.string(),
  /** The scorer's version (the sources a score is computed by). */
  scorer: z.string(),
  filter: z.string().nullable(),
  sample: z.number().int().nullable(),
  /** "K/N": the K-th of N shares of the case × trials. */
  shard: z.string().nullable(),
  model: z.string(),
  workflow: z.string(),
  seed: z.number().int(),
  trials: z.number().int(),
  noise: Noise.nullable(),
  limits: z.strictObject({ timeLimitS: z.number().optional(), maxIterations: z.number().int().optional() }).nullable(),
  judge: z.string().nullable(),
  offProtocol: z.boolean(),
  /** The robot put in every case's world in place of the scene's (eval --urdf): its name and content hash; absent: the scenes' own. */
  robot: z.string().optional(),
});
export type RunContent = z.infer<typeof RunContent>;

/** Each field as the person names it (the command line's option). */
const FIELD_NAMES: Record<keyof RunContent, string> = {
  suite: '--suite',
  suiteVersion: 'the suite version',
  scorer: 'the scorer version',
  filter: '--filter',
  sample: '--sample',
  shard: '--shard',
  model: '--model',
  workflow: '--workflow',
  seed: '--seed',
  trials: '--trials',
  noise: '--noise',
  limits: '--time-limit/--max-iterations',
  judge: '--judge',
  offProtocol: '--off-protocol',
  robot: '--urdf',
};

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

/** The content's hash (16 hex digits): equal content, equal hash, whatever order the fields were given in. */
export function contentHash(c: RunContent): string {
  return createHash('sha256')
    .update(canonical(RunContent.parse(c)))
    .digest('hex')
    .slice(0, 16);
}

const shown = (v: unknown): string =>
  v === null || v === undefined ? 'none' : typeof v === 'object' ? canonical(v) : String(v as string | number | boolean);

/** What differs between a recorded run's content and this one's, field by field ("--model oracle there, floor:noop here"); undefined when equal. */
export function contentDifference(was: RunContent, now: RunContent): string | undefined {
  const keys = Object.keys(FIELD_NAMES) as Array<keyof RunContent>;
  const diff = keys.filter((k) => canonical(was[k]) !== canonical(now[k]));
  if (!diff.length) return undefined;
  return diff.map((k) => `${FIELD_NAMES[k]} ${shown(was[k])} there, ${shown(now[k])} here`).join('; ');
}

/** The content a run recorded (args.identity), or undefined for a run recorded before identities. */
export function recordedContent(args: Record<string, unknown>): RunContent | undefined {
  const r = RunContent.safeParse(args['identity']);
  return r.success ? r.data : undefined;
}

/** The noise as the content holds it (none: null). */
export const contentNoise = (n: z.infer<typeof Noise> | undefined): RunContent['noise'] => n ?? null;

/** A suite file's version: a hash of its cases as loaded (the file's text may differ in spacing only). */
export function casesHash(cases: readonly unknown[]): string {
  return createHash('sha256').update(canonical(cases)).digest('hex').slice(0, 16);
}
