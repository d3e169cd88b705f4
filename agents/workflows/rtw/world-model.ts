// rtw/world-model (AIMM, paper 000 §II.C.3): operators ask about and update the
// robot's world model. The model first decides between getters (read) and
// setters (write); when neither suffices it asks for the guarded query
// templates, which are checked against the world model's schema.
import type { Robot } from '../../../robot/robot';
import type { Workflow, WorkflowContext } from '../../runtime/workflow';
import { WORLD_MODEL_QUERIES, requestQueryTools } from '../../tools/sets/rtw';
import { WORLD_MODEL_ACCESSORS } from '../../tools/sets/world-model';
import type { Tool } from '../../tools/tool';
import { classifyWith } from '../classify';
import { loopWorkflow } from '../kit/loop';
import { ANSWER_RULES, robotContext } from '../prompt';

export const AIMM_CATEGORIES = [
  { id: 'getter', description: 'the operator asks for information held in the world model' },
  { id: 'setter', description: 'the operator tells the robot something to add or change in the world model' },
] as const;

const GETTERS = WORLD_MODEL_ACCESSORS.filter((t) => t.category === 'information');
const SETTERS = WORLD_MODEL_ACCESSORS.filter((t) => t.category === 'action');

/** True once the model has asked for the query templates in this turn (each request starts at the top). */
function queriesUnlocked(ctx: WorkflowContext): boolean {
  return ctx.messages
    .slice(ctx.turnStart)
    .some((m) => m.role === 'assistant' && m.tool_calls?.some((c) => c.function.name === requestQueryTools.name));
}

export function rtwWorldModel(): Workflow {
  return loopWorkflow({
    id: 'rtw/world-model',
    title: 'Robotic Tool Workflow: world model (AIMM)',
    description: 'Getters or setters of the world model, chosen by a classify step; guarded query templates when they do not suffice.',
    limits: { maxToolCallsPerIteration: 2 },
    systemPrompt: (r: Robot) =>
      `${robotContext(r)}\n\nYou answer an operator's questions about the robot's world model and record what the operator tells you. Prefer the getter and setter tools; if they cannot answer, call request_query_tools to get query templates. Never guess values the world model does not hold.\n${ANSWER_RULES}`,
    classify: ({ model, messages, signal }) =>
      classifyWith(model, messages, AIMM_CATEGORIES, 'You route operator requests about a robot world model.', signal),
    tools: (ctx): Tool[] => {
      if (queriesUnlocked(ctx)) return [...WORLD_MODEL_QUERIES, ...GETTERS];
      return [...(ctx.route === 'setter' ? SETTERS : GETTERS), requestQueryTools];
    },
  });
}
