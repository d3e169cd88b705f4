// The tool-free baselines (LLMVisualObs with the scene as text, VQA with the
// camera picture): one turn, no tools, the verdict JSON is the answer.
import type { ImagePart } from '../../../base/image-part';
import type { WorkflowOutcome, WorkflowRun } from '../../runtime/workflow';
import { type Verdict, looksLikeVerdict, parseVerdict, verdictText } from './verdict';

/** The verdict as a note of the stage that reached it. */
export function noted(ctx: WorkflowRun, v: Verdict, stage: string): void {
  ctx.note(`verdict: ${v.final_response}${v.category ? ` (${v.category})` : ''} — ${v.explanation}`, v, stage);
}

export async function oneVerdict(
  ctx: WorkflowRun,
  stage: string,
  ask: { system: string; input: string; images?: ImagePart[] },
): Promise<WorkflowOutcome> {
  const r = await ctx.flow({
    stage,
    system: ask.system,
    input: ask.input,
    ...(ask.images ? { images: ask.images } : {}),
    tools: [],
    limits: { timeLimitMs: 20_000, maxIterations: 2 },
    looksFinal: looksLikeVerdict,
  });
  if (r.reason !== 'final') return { reason: r.reason, final: r.final, ...(r.error ? { error: r.error } : {}) };
  const v = parseVerdict(r.final ?? '');
  if (!v.ok) return { reason: 'final', final: r.final, error: { message: v.message } };
  noted(ctx, v.verdict, stage);
  return { reason: 'final', final: verdictText(v.verdict) };
}
