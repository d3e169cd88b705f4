// RAIDER's VQA baseline (paper 001 §4.2.1, Appendix B.2): no tools; the model
// gets the robot's camera picture and the query, and answers the verdict JSON
// from what it sees. The picture is taken through get_camera_image, so the trace
// shows the call and keeps the picture beside it. A model that reads no images
// answers from the query alone (the trace says so once); a robot without a
// camera cannot run this baseline, and the answer says why.
import type { Robot } from '../../../robot/robot';
import type { WorkflowOutcome, WorkflowRun } from '../../runtime/workflow';
import { cameraTool } from '../../tools/camera';
import type { DetectionKit } from './detect';
import { fullScenePrompt } from './prompts';
import { oneVerdict } from './one-verdict';

export const VQA_STAGE = 'detect';

/** LLMVisualObs' prompt with the camera picture where the scene description was. */
export function vqaPrompt(robot: Robot, kit: DetectionKit): string {
  return fullScenePrompt(robot, kit.objective)
    .replace(/the objects in the visual observation/g, 'the objects in the picture from the robot camera')
    .replace(/based on the observation/g, 'based on the picture');
}

export async function vqaBaseline(ctx: WorkflowRun, kit: DetectionKit): Promise<WorkflowOutcome> {
  const shot = await ctx.invoke(cameraTool(), { width: 640 }, { stage: VQA_STAGE });
  if (!shot.ok || !shot.images?.length)
    return { reason: 'final', final: undefined, error: { message: `the VQA baseline needs the robot camera: ${shot.content}` } };
  if (ctx.model.input !== 'images')
    ctx.note(`${ctx.model.id} reads no images (its spec has no +images): it answers from the query alone`, undefined, VQA_STAGE);
  return oneVerdict(ctx, VQA_STAGE, {
    system: ctx.promptOverride ?? vqaPrompt(ctx.robot, kit),
    input: `Query action: ${ctx.userText}\n\nThe picture from the robot camera follows.`,
    images: shot.images,
  });
}
