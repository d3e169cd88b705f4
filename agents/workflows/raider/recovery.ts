// RAIDER's interactive recovery (paper 001 §3.5, Fig. 7): a second model turns
// the issue and its explanation into a plan written as code against the
// recovery actions, where `ask` returns the person's answer for later steps.
// The plan runs in the QuickJS sandbox, one traced call per step, and RAIDER
// checks each action step before it runs (§5.2: "triggered at each action step,
// ensuring that no issues remain before proceeding"); a step it finds an issue
// with is refused, and the refusal goes back to the recovery model for a new plan.
import { z } from 'zod';
import type { Robot } from '../../../robot/robot';
import type { WorkflowRun } from '../../runtime/workflow';
import { RAIDER_RECOVERY } from '../../tools/sets/raider';
import { type Tool, aroundTool, defineTool } from '../../tools/tool';
import { apiDocs, programTool, writeAndRun, type WriteAndRunResult } from '../kit/program';
import { type DetectionKit, detect } from './detect';
import type { Variant } from './prompts';
import type { Verdict } from './verdict';

export const RECOVERY_STAGE = 'recovery';
export const CHECK_STAGE = 'recovery/check';

/** Interaction steps are not checked; every other step is (§5.2). */
const UNCHECKED = new Set(['ask', 'say']);

/** Plans move the robot and wait for people: minutes, not RAIDER's 20 s per check. */
const PLAN_LIMITS = { timeMs: 300_000, maxCalls: 40 };

/** Fig. 7's examples, as JavaScript against the same actions. */
const EXAMPLES = `Examples:
1. query: slice(lettuce), issue: unfeasibility, explanation: the robot is not holding a knife. robot holding: none
current_loc: counter_2
\`\`\`javascript
const knifeLoc = ask("Where is the knife?");
move_to(knifeLoc);
pick("knife");
move_to("counter_2");
slice("lettuce");
\`\`\`
2. query: pick the kitchen utensil to the right of the plate, issue: ambiguity, explanation: there is a knife and a cup to the right of the plate. robot holding: none
\`\`\`javascript
const item = ask("Which item should I pick, the knife or the cup?");
pick(item);
\`\`\`
3. query: pick(microwave), issue: unfeasibility, explanation: the microwave is too heavy to lift. robot holding: none
\`\`\`javascript
say("I cannot pick the microwave: it is too heavy for my arm.");
\`\`\``;

export function recoveryPrompt(robot: Robot, docs: string): string {
  const i = robot.info;
  const free = i.places.find((p) => p.id === 'free_table' || /free/.test(p.title ?? ''));
  const notes = [
    ...(free
      ? [`There is always a free table, ${free.id}, to move to and put down objects for a while or objects not needed for the instruction.`]
      : []),
    'current_loc in the query is the place where the robot stands now; to come back, move_to that place by its name.',
    'The robot has a single arm: it cannot act while holding an object, except to place the held object, slice while holding a knife, or hand the object over.',
    'ask() puts a question to the person and returns their answer as a string; use it when information is missing, to disambiguate, or to ask for help (moving an obstacle, bringing something within reach).',
    'say() tells the person something: use it to explain why an action cannot be done, or to ask for their attention by their name.',
    'Before each action runs, RAIDER checks it again; a step with an issue is refused with the reason, and you will be asked for a new plan.',
    ...i.scene.notes,
  ];
  return [
    'Objective: a robot found an issue before executing an action. Write the corrective actions that achieve the query action, as a plan in code. If no issue was found, the plan simply carries out the action.',
    `Possible actions (JavaScript functions; each runs on the robot and returns when done; a refused or failed action throws an Error with the reason):\n${docs}`,
    `Notes:\n${notes.map((n) => `- ${n}`).join('\n')}`,
    EXAMPLES,
    'Reply with the plan in one ```javascript code block: plain calls in order, no await, no imports.',
  ].join('\n\n');
}

/** The recovery query of §4.3: the action, the issue and its explanation, what the robot holds, where it is. */
export async function recoveryQuery(robot: Robot, instruction: string, v: Verdict): Promise<string> {
  const held = await robot.perception.holding();
  const at = (await robot.perception.snapshot()).map((f) => /^robot_at\(robot, (.+)\)$/.exec(f)?.[1]).find((p) => p && p !== 'unknown');
  return [
    `query: ${instruction}, issue: ${v.final_response}, explanation: ${v.explanation}${v.objects?.length ? ` (objects: ${v.objects.join(', ')})` : ''}. robot holding: ${held ?? 'none'}`,
    ...(at ? [`current_loc: ${at}`] : []),
    'corrective actions:',
  ].join('\n');
}

/** `ask` reaches the person through the host (dialog, terminal, simulated user); it is also said aloud, so a person named turns to the robot. */
function askPerson(ctx: WorkflowRun): Tool {
  return defineTool({
    name: 'ask',
    description: 'Asks the person a question and returns their answer.',
    category: 'action',
    params: z.strictObject({ question: z.string().min(1) }),
    card: {
      outputs: "the person's answer",
      whenToUse: 'when information is missing, the instruction is ambiguous, or a person must help',
      dimension: 'execution',
      tags: ['ask', 'question', 'human'],
    },
    execute: async ({ question }, { robot }) => {
      if (robot.speech) await robot.speech.say(question);
      const answer = (await ctx.askUser(question, RECOVERY_STAGE)).trim();
      return answer ? { ok: true, content: answer } : { ok: false, content: 'Nobody answered the question.' };
    },
  });
}

/** A step RAIDER checks before it runs: the check's verdict decides, the tool runs only on "none". */
function checked(ctx: WorkflowRun, tool: Tool, kit: DetectionKit, variant: Variant): Tool {
  return aroundTool(tool, async (args, tctx, inner) => {
    const step = `${tool.name}(${Object.values(args as Record<string, unknown>)
      .map(String)
      .join(', ')})`;
    const d = await detect(ctx, { stage: CHECK_STAGE, kit, variant, query: step, signal: tctx.signal });
    if (!d.verdict) {
      return {
        ok: false,
        content: `RAIDER could not check ${step} (${d.reason}${d.error ? `: ${d.error.message}` : ''}); the step was not run.`,
      };
    }
    ctx.note(`check ${step}: ${d.verdict.final_response}`, d.verdict, CHECK_STAGE);
    if (d.verdict.final_response === 'none') return inner(args, tctx);
    return {
      ok: false,
      content: `RAIDER refused ${step}: ${d.verdict.final_response}${d.verdict.category ? ` (${d.verdict.category})` : ''}: ${d.verdict.explanation}`,
      data: { refused: d.verdict },
    };
  });
}

/** The recovery actions for this robot: Fig. 7's, `ask` through the host, action steps checked by RAIDER. */
export function recoveryTools(ctx: WorkflowRun, kit: DetectionKit, variant: Variant): Tool[] {
  const { robot } = ctx;
  return RAIDER_RECOVERY.filter((t) => t.card.requires.every((c) => robot.has(c)) || t.name === 'ask').map((t) =>
    t.name === 'ask' ? askPerson(ctx) : UNCHECKED.has(t.name) ? t : checked(ctx, t, kit, variant),
  );
}

export interface RecoverySpec {
  instruction: string;
  verdict: Verdict;
  kit: DetectionKit;
  variant: Variant;
  /** Plans tried (the first plus corrections after a refused or failed step). */
  attempts?: number;
}

export async function recover(ctx: WorkflowRun, spec: RecoverySpec): Promise<WriteAndRunResult> {
  const tools = recoveryTools(ctx, spec.kit, spec.variant);
  const docs = apiDocs({ tools });
  return writeAndRun(ctx, {
    stage: RECOVERY_STAGE,
    system: recoveryPrompt(ctx.robot, docs),
    input: await recoveryQuery(ctx.robot, spec.instruction, spec.verdict),
    program: programTool({ tools, limits: PLAN_LIMITS }),
    attempts: spec.attempts ?? 3,
  });
}
