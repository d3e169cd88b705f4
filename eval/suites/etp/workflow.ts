// The candidate-set loop EmbodiedToolBench's tasks need (paper 004 §3.2): each
// case offers its own candidate tools (four for selection, the designated tool
// and the actions for execution, a mixed set for chains), taken from every tool
// set the robot can use, in the common flow. It stands in until the `etp`
// workflow (the registry with discovery by capability) lands in agents/.
import type { Robot } from '../../../robot/robot';
import type { Workflow } from '../../../agents/runtime/workflow';
import { buildToolSet, findToolSet } from '../../../agents/tools/sets';
import type { Tool } from '../../../agents/tools/tool';
import { toolsFor } from '../../core/play';
import { loopWorkflow } from '../../../agents/workflows/kit/loop';
import { ANSWER_RULES, robotContext } from '../../../agents/workflows/prompt';
import { cameraTool } from '../../../agents/tools/camera';
import type { ImagePart } from '../../../agents/models/model';
import type { PlanStep } from '../../core/case';

export const ETP_CANDIDATES = 'etp/candidates';

export { toolsFor as allTools } from '../../core/play';

/** Sets looked in first (the candidates come from these); the rest only when a name is still missing. */
const USUAL = ['raider-household', 'raider-recovery', 'alrm', 'world-model'];

async function findTools(robot: Robot, names: readonly string[]): Promise<Map<string, Tool>> {
  const out = new Map<string, Tool>();
  for (const id of USUAL) {
    if (names.every((n) => out.has(n))) return out;
    const def = findToolSet(id);
    if (!def || !def.requires.every((c) => robot.has(c))) continue;
    for (const t of await def.build(robot)) if (!out.has(t.name)) out.set(t.name, t);
  }
  if (names.every((n) => out.has(n))) return out;
  for (const [n, t] of await toolsFor(robot)) if (!out.has(n)) out.set(n, t);
  return out;
}

/** The case's candidate tools, in its order. */
async function candidateTools(robot: Robot, names: readonly string[], workflow: string): Promise<Tool[]> {
  const all = await findTools(robot, names);
  const missing = names.filter((n) => !all.has(n));
  if (missing.length) throw new Error(`${workflow}: no tool ${missing.join(', ')} for ${robot.info.name}`);
  return names.map((n) => all.get(n)!);
}

const candidatesPrompt = (r: Robot) =>
  `${robotContext(r)}\n\nCall a tool only when the request needs one; choose the tool that fits best among those offered.\n${ANSWER_RULES}`;

export async function candidatesWorkflow(robot: Robot, names: readonly string[]): Promise<Workflow> {
  const tools = await candidateTools(robot, names, ETP_CANDIDATES);
  return loopWorkflow({
    id: ETP_CANDIDATES,
    title: 'Candidate tools (EmbodiedToolBench)',
    description: "The case's candidate tools as one list, one call per turn.",
    systemPrompt: candidatesPrompt,
    tools: () => tools,
  });
}

export const ETP_IMAGES = 'etp/images';
/** The trace stage of the case's own pictures and the steps between them (calls of the workflow, not of the model). */
export const LOOK_STAGE = 'look';
/** The tool set the steps between a sample's two pictures come from (the generator plays them through it too). */
export const BETWEEN_SET = 'raider-recovery';

/** What the robot did between its two pictures, in words ("moved to sink_1", "opened fridge_1"). */
export function betweenText(steps: readonly PlanStep[]): string {
  const verbs: Record<string, [string, string]> = { move_to: ['moved to', 'location'], open: ['opened', 'object'] };
  return steps
    .map((s) => {
      const [verb, key] = verbs[s.tool] ?? [`ran ${s.tool} on`, ''];
      const v = s.args[key];
      return `${verb} ${typeof v === 'string' ? v : JSON.stringify(s.args)}`;
    })
    .join(', then ');
}

/**
 * EmbodiedToolBench's image samples: the camera picture goes with the request
 * (the paper's observation o_t), then the candidate-set loop. A two-picture sample
 * has the robot play its steps between the pictures first (before and after an
 * action, or two places). The pictures are taken through get_camera_image under
 * their own stage, so the trace keeps them; a model that reads no images gets
 * the request alone, and the trace says so once.
 */
export async function picturesWorkflow(robot: Robot, names: readonly string[], between: readonly PlanStep[] = []): Promise<Workflow> {
  const tools = await candidateTools(robot, names, ETP_IMAGES);
  const moves = between.length ? await buildToolSet(BETWEEN_SET, robot) : undefined;
  return {
    id: ETP_IMAGES,
    title: 'Candidate tools with the camera pictures (EmbodiedToolBench images)',
    description:
      "The robot camera's picture (or two, before and after the robot's own steps) with the request, then the case's candidate tools, one call per turn.",
    stages: [LOOK_STAGE, 'agent'],
    systemPrompt: candidatesPrompt,
    run: async (ctx) => {
      const fail = (message: string) => ({ reason: 'final' as const, final: undefined, error: { message } });
      const shots: ImagePart[] = [];
      const look = async () => {
        const shot = await ctx.invoke(cameraTool(), { width: 640 }, { stage: LOOK_STAGE });
        if (!shot.ok || !shot.images?.length) return `${ETP_IMAGES} needs the robot camera: ${shot.content}`;
        shots.push(shot.images[0]!);
        return undefined;
      };
      const first = await look();
      if (first) return fail(first);
      if (moves) {
        for (const s of between) {
          const t = moves.get(s.tool);
          const r = t ? await ctx.invoke(t, s.args, { stage: LOOK_STAGE }) : undefined;
          if (!r?.ok) return fail(`${ETP_IMAGES}: the step between the pictures failed: ${s.tool} ${r?.content ?? 'is no tool'}`);
        }
        const second = await look();
        if (second) return fail(second);
      }
      const sees = ctx.model.input === 'images';
      if (!sees) ctx.note(`${ctx.model.id} reads no images (its spec has no +images): it gets the request alone`, undefined, LOOK_STAGE);
      const follows = moves
        ? `Two pictures from your camera follow: the first taken before you ${betweenText(between)}, the second after.`
        : 'The picture from your camera follows.';
      // One turn per case: a fresh conversation of the prompt and the request with its pictures.
      const r = await ctx.flow({
        stage: 'agent',
        system: ctx.promptOverride ?? candidatesPrompt(robot),
        input: sees ? `${ctx.userText}\n\n${follows}` : ctx.userText,
        ...(sees ? { images: shots } : {}),
        tools,
      });
      return { reason: r.reason, final: r.final, ...(r.error ? { error: r.error } : {}) };
    },
  };
}
