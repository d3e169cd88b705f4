// RAIDER's workflows (paper 001). `raider`: issue detection with the full
// "Ground, Ask&Answer, Issue" prompt, then the recovery plan (Fig. 7) run in the
// sandbox with each action step re-checked (§5.2). The ablations of §4.2.2
// (raider/basic, raider/qgen, raider/grnd, raider/qgen-grnd) detect only, with
// their procedure variant, and answer the verdict JSON, as do the baselines of
// §4.2.1: raider/precond (no model, Table B.3) and raider/full-scene
// (LLMVisualObs, Appendix B.3) and raider/vqa (VQA, Appendix B.2). The final answer starts with the verdict JSON,
// so an evaluation reads it the same way from every variant.
import type { Robot } from '../../../robot/robot';
import type { Workflow, WorkflowOutcome, WorkflowRun } from '../../runtime/workflow';
import { preconditionCheck, sceneDescription } from './baselines';
import { RAIDER_INFO } from './info';
import { type DetectionKit, detect, detectionKit } from './detect';
import { type Variant, detectionPrompt, fullScenePrompt } from './prompts';
import { CHECK_STAGE, RECOVERY_STAGE, recover } from './recovery';
import { verdictText } from './verdict';
import { vqaBaseline, vqaPrompt } from './vqa';
import { noted, oneVerdict } from './one-verdict';

export const RAIDER_IDS = [
  'raider',
  'raider/basic',
  'raider/qgen',
  'raider/grnd',
  'raider/qgen-grnd',
  'raider/precond',
  'raider/full-scene',
  'raider/vqa',
] as const;
export type RaiderId = (typeof RAIDER_IDS)[number];

const DETECT_STAGE = 'detect';

/** Detection only: the verdict JSON is the answer. */
async function detectOnly(ctx: WorkflowRun, kit: DetectionKit, variant: Variant): Promise<WorkflowOutcome> {
  const d = await detect(ctx, {
    stage: DETECT_STAGE,
    kit,
    variant,
    query: ctx.userText,
    ...(ctx.promptOverride ? { system: ctx.promptOverride } : {}),
  });
  if (!d.verdict) return { reason: d.reason, final: d.final, ...(d.error ? { error: d.error } : {}) };
  noted(ctx, d.verdict, DETECT_STAGE);
  return { reason: 'final', final: verdictText(d.verdict) };
}

/** Detection, then the recovery plan (also for "none": the plan is then the action itself). */
async function detectAndRecover(ctx: WorkflowRun, kit: DetectionKit): Promise<WorkflowOutcome> {
  const d = await detect(ctx, {
    stage: DETECT_STAGE,
    kit,
    variant: 'qgen-grnd',
    query: ctx.userText,
    ...(ctx.promptOverride ? { system: ctx.promptOverride } : {}),
  });
  if (!d.verdict) return { reason: d.reason, final: d.final, ...(d.error ? { error: d.error } : {}) };
  noted(ctx, d.verdict, DETECT_STAGE);
  const r = await recover(ctx, { instruction: ctx.userText, verdict: d.verdict, kit, variant: 'qgen-grnd' });
  ctx.note(
    r.ok ? 'recovery plan ran to the end' : `recovery ended without success (${r.reason})`,
    { ok: r.ok, plans: r.programs.length },
    RECOVERY_STAGE,
  );
  if (r.reason === 'stopped' || r.reason === 'model_error' || r.reason === 'time_limit') {
    return { reason: r.reason, final: verdictText(d.verdict), error: { message: r.report } };
  }
  const what = r.ok ? `The plan ran to the end.` : `The plan did not succeed after ${r.programs.length} attempt(s).`;
  return { reason: 'final', final: `${verdictText(d.verdict)}\n${what}\n${r.report}` };
}

/** LLMVisualObs: no tools, the whole scene as text, one answer. */
async function fullScene(ctx: WorkflowRun, kit: DetectionKit): Promise<WorkflowOutcome> {
  const scene = await sceneDescription(ctx.robot);
  return oneVerdict(ctx, DETECT_STAGE, {
    system: ctx.promptOverride ?? fullScenePrompt(ctx.robot, kit.objective),
    input: `Query action: ${ctx.userText}\n\nVisual observation: ${scene}`,
  });
}

/** The stages each variant runs, in order. */
const STAGES: Record<RaiderId, string[]> = {
  raider: [DETECT_STAGE, RECOVERY_STAGE, CHECK_STAGE],
  'raider/qgen-grnd': [DETECT_STAGE],
  'raider/grnd': [DETECT_STAGE],
  'raider/qgen': [DETECT_STAGE],
  'raider/basic': [DETECT_STAGE],
  'raider/precond': ['precond'],
  'raider/full-scene': [DETECT_STAGE],
  'raider/vqa': [DETECT_STAGE],
};

export async function raiderWorkflow(id: RaiderId, robot: Robot, opts: { toolSet?: string } = {}): Promise<Workflow> {
  const kit = await detectionKit(robot, opts.toolSet);
  const t = RAIDER_INFO.find((w) => w.id === id)!;
  const variant: Variant = id === 'raider' ? 'qgen-grnd' : ((id.split('/')[1] ?? 'qgen-grnd') as Variant);
  return {
    id,
    title: t.title,
    description: t.description,
    stages: STAGES[id],
    systemPrompt: (r) =>
      id === 'raider/precond'
        ? ''
        : id === 'raider/full-scene'
          ? fullScenePrompt(r, kit.objective)
          : id === 'raider/vqa'
            ? vqaPrompt(r, kit)
            : detectionPrompt(r, kit.tools, kit.objective, variant),
    run: async (ctx) => {
      switch (id) {
        case 'raider':
          return detectAndRecover(ctx, kit);
        case 'raider/precond': {
          const v = await preconditionCheck(ctx, ctx.userText);
          noted(ctx, v, 'precond');
          return { reason: 'final', final: verdictText(v) };
        }
        case 'raider/full-scene':
          return fullScene(ctx, kit);
        case 'raider/vqa':
          return vqaBaseline(ctx, kit);
        default:
          return detectOnly(ctx, kit, variant);
      }
    },
  };
}
