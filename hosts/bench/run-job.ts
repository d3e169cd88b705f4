// The child's side of a benchmark job (see jobs.ts): runs it in this process and
// returns the result the parent validates.
import type { Job, ReferenceBench, SceneBench, SceneMemory } from './jobs';

export async function runJob(job: Job): Promise<SceneBench | ReferenceBench | SceneMemory> {
  if (job.kind === 'scene') return (await import('./sim-bench')).benchScene(job.id, job.length);
  if (job.kind === 'memory') return (await import('./scene-memory')).sceneMemory(job.id, job.length);
  return (await import('./reference-bench')).benchReference(job.length);
}
