// RAIDER's system prompt (paper 001 Fig. 4, §3.3), in our own words: the task
// objective (Fig. 5), the "Ground, Ask&Answer, Issue" procedure, the tools'
// descriptions (Fig. 6 / Fig. 16), the robot's constraints (from the robot: its
// reach, gripper, payload, whether it moves), the tool-call instructions and the
// final response. The procedure has the ablation variants of §4.2.2 (BASIC,
// QGEN, GRND, QGEN_GRND), and LLMVisualObs (Appendix B.3) replaces the tool
// sections by a textual scene built from the robot's belief.
import type { Robot } from '../../../robot/robot';
import type { Tool } from '../../tools/tool';
import { CATEGORIES } from './verdict';

/** §4.2.2's prompt ablations: which procedure steps the prompt keeps. */
export const VARIANTS = ['qgen-grnd', 'grnd', 'qgen', 'basic'] as const;
export type Variant = (typeof VARIANTS)[number];

/** Household issues (Fig. 5), or the assistive objective of §5.2 (human and environment issues). */
export type Objective = 'household' | 'assistive';

export function objectiveText(o: Objective): string {
  return [
    'Task objective',
    `Decide whether the robot can execute the specified action without issues of:`,
    '- Unfeasibility: the action cannot be executed (without any additional steps or actions) because of physical, logical or common-sense constraints.',
    '- Ambiguity: several objects, people or places could match the instruction.',
    '- None: no ambiguity and no unfeasibility.',
    ...(o === 'assistive'
      ? ['The action is one step of a plan to assist a person: check human issues as well as environment and robot issues.']
      : []),
  ].join('\n');
}

const GROUND = [
  '1. GROUND - instance grounding:',
  '   - Link the arguments in the query to the objects or people in sight, or to the object the robot holds. Besides general knowledge and common sense, use tool calls to disambiguate as much as possible. Use everything in the query: object types and categories, states, spatial relations, the user’s preferences and history.',
  '   - If every argument can be grounded to one specific instance, go on to the next step. Otherwise skip to the decision.',
];
const ASK = [
  '2. ASK - question generation:',
  '   - Identify the single action in the query (e.g. pick, place, open, approach, hand over).',
  '   - Write the questions about its preconditions and the obstacles that could stop it.',
  '   - Make sure the tools can answer them: go through the tool list to guide the questions.',
];
const ANSWER = ['3. ANSWER - information gathering: call the tools that answer the questions, and read their results.'];
const ISSUE = [
  '4. ISSUE - decision making: based on the tool results and common sense, decide on the issue and give the final response (below).',
];

export function procedureText(v: Variant): string {
  const lines = ['Procedure'];
  if (v === 'basic') {
    // A plain ReAct "think, act, observe" cycle (§4.2.2 BASIC).
    lines.push(
      'Think about what you need to know, call tools to find it out, and observe their results; repeat until you can decide.',
      'Then, based on the tool results and common sense, decide on the issue and give the final response (below).',
    );
    return lines.join('\n');
  }
  if (v === 'qgen-grnd' || v === 'grnd') lines.push(...GROUND);
  if (v === 'qgen-grnd' || v === 'qgen') {
    lines.push('Repeat steps 2 and 3 until all the information is gathered:', ...ASK, ...ANSWER);
  } else {
    // GRND: grounding kept, question generation removed; the model goes straight to tool calls.
    lines.push('2. ANSWER - information gathering: call the tools that tell you whether the action can run, and read their results.');
    lines.push(ISSUE[0]!.replace(/^4\./, '3.'));
    return lines.join('\n');
  }
  lines.push(...ISSUE);
  return lines.join('\n');
}

export function finalResponseText(): string {
  const cats = Object.entries(CATEGORIES)
    .map(([k, v]) => `${k} (${v})`)
    .join('; ');
  return [
    'Final response',
    'When you have decided, reply without tool calls, and end the reply with one JSON object:',
    '{"final_response": "ambiguity" | "unfeasibility" | "none", "explanation": "brief explanation", "category": "...", "objects": ["..."]}',
    `"category" (optional) is the kind of issue: ${cats}.`,
    '"objects" (optional) lists the ids the query was grounded to, or the candidates that make it ambiguous.',
  ].join('\n');
}

/** "• name(a, b): description", as Fig. 6 lists the tools. */
export function toolDescriptionText(tools: readonly Tool[]): string {
  const line = (t: Tool) => {
    const args = Object.keys((t.parameters['properties'] ?? {}) as Record<string, unknown>).join(', ');
    return `- ${t.name}(${args}): ${t.description}`;
  };
  return ['Tool description', ...tools.map(line)].join('\n');
}

/** The robot's and the scene's constraints (the purple block of Fig. 4), from the robot itself. */
export function constraintsText(robot: Robot, o: Objective): string {
  const i = robot.info;
  const lines: string[] = [];
  if (i.arm) {
    lines.push(
      `The robot has a single arm with a ${i.arm.reachM.toFixed(2)} m reach; its gripper opens ${Math.round(i.arm.gripperOpeningM * 100)} cm and lifts ${i.arm.payloadKg} kg. It cannot open, close or switch anything while it holds an object.`,
    );
  } else lines.push('The robot has no arm: it cannot pick, place, open or switch anything.');
  if (i.base) lines.push(`The robot moves between named places (${i.places.map((p) => p.id).join(', ')}) and works from where it stands.`);
  else lines.push('The robot is fixed in place: it cannot move closer to anything.');
  if (o === 'assistive') lines.push('A handover happens within 0.5 m of the person, who must have a free hand and look at the robot.');
  lines.push(
    `For question generation, check for environment issues (wrong object properties, wrong object states, blockages) and robot issues (wrong states, physical constraints)${o === 'assistive' ? ', and human issues (presence, recognition, distance, free hands, attention)' : ''}.`,
  );
  lines.push(...i.scene.notes);
  return ['Constraints', ...lines.map((l, n) => `${n + 1}. ${l}`)].join('\n');
}

export const TOOL_CALL_TEXT = [
  'Tool call instructions',
  'Call tools through the function-calling interface, with their exact names and arguments; use the ids the tools give you. You may call several tools in one reply: all of them run, in order, and you read every result before deciding. Never write a tool result yourself, and never give the final response in the same reply as tool calls.',
].join('\n');

/** Fig. 4 assembled: objective, procedure, tools, constraints, tool-call format, final response. */
export function detectionPrompt(robot: Robot, tools: readonly Tool[], o: Objective, v: Variant): string {
  return [
    objectiveText(o),
    procedureText(v),
    toolDescriptionText(tools),
    constraintsText(robot, o),
    TOOL_CALL_TEXT,
    finalResponseText(),
  ].join('\n\n');
}

/** LLMVisualObs (Appendix B.3): the same prompt without the tool sections; the scene comes as a visual observation. */
export function fullScenePrompt(robot: Robot, o: Objective): string {
  const procedure = [
    'Instruction steps',
    'Step 1. Object grounding: link the objects in the query to the objects in the visual observation or the object held by the robot. Use the visual information, general knowledge and common sense; consider everything in the query: object types and categories, states, spatial relations.',
    '   If every object can be grounded to one specific object, go to step 2. Otherwise skip to step 3.',
    'Step 2. Question generation: identify the single action in the query, and ask yourself about its preconditions and the obstacles that could stop it.',
    'Step 3. Decision making: based on the observation and common sense, decide on the issue and give the final response (below).',
  ].join('\n');
  const constraints = constraintsText(robot, o).replace('For question generation, check', 'Check');
  return [objectiveText(o), procedure, constraints, finalResponseText().replace('reply without tool calls, and ', '')].join('\n\n');
}
