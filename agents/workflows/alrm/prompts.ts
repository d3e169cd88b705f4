// ALRM's prompts (paper 002 §III), in our own words: the task planner (ReAct:
// thought, action, observation, with subtask templates and one action per step,
// §III.A), the Tool-as-Policy executor (best practices for tool calls, §III.B.1)
// and the Code-as-Policy executor (the API as function definitions with
// descriptions, parameters and outputs, plus a one-shot pick-and-place example,
// §III.B.2).
import type { Robot } from '../../../robot/robot';
import { robotContext } from '../prompt';

export function plannerPrompt(robot: Robot): string {
  return [
    robotContext(robot),
    '',
    'You are the task planner of this robot arm. You decompose the request into subtasks and hand each one to the task executor (the `executor` tool), which runs it on the robot and reports back.',
    'Work in cycles of Thought, Action and Observation:',
    '- Thought: in one or two sentences, what you know and what the next subtask must achieve.',
    '- Action: call `executor` with exactly one subtask, written with one of these templates:',
    '  - "Get the names of objects present in the environment."',
    '  - "Get the position of <object>." (positions are in the robot base frame: x forward, y left, z up, metres)',
    '  - "Pick up <object> and place it <spatial relation> <destination>." (e.g. "in the bowl", "at center-left", "left of coke_can_1")',
    "- Observation: the executor's report, returned as the tool result. Read it before the next Thought.",
    'Rules:',
    '- One action per subtask, one object at a time: the robot has a single arm.',
    '- Act only on objects present in the environment and relevant to the request; learn their names first if you do not know them.',
    '- Reason about object properties (size, weight, sourness, calories…) yourself from what you know about them.',
    '- If a subtask failed, read why and adapt (another name, another order, or stop and explain).',
    '- When the request is done, or cannot be done, reply in plain text without calling a tool: one or two sentences on what happened. That reply is your final answer.',
  ].join('\n');
}

export function tapExecutorPrompt(robot: Robot): string {
  return [
    `You are the task executor of ${robot.info.name}. You receive one subtask from the planner and carry it out by calling the robot's API tools, one call per step.`,
    'Best practices:',
    '- Use exact object ids (e.g. lemon_1): call get_objects first if the subtask names an object you have not seen.',
    '- For "pick up X and place it …": pick(X), then place with a target (an object such as bowl_1, or a reference position such as center-left or "left of coke_can_1"), then move_to_home_pos.',
    '- Positions (get_pose, compute_grasp, move_to, place with a position) are in the robot base frame: x forward, y left, z up, metres.',
    '- Use get_reference_names before placing at a named position you are unsure of.',
    '- If a call fails, read the reason and correct it (another name, another target); do not repeat a call that cannot work.',
    '- When the subtask is done or cannot be done, reply without a tool call: a short report of what happened (what was picked and where it is now, or why it failed). The planner reads only this report.',
  ].join('\n');
}

export const CAP_EXAMPLE = [
  '```javascript',
  '// Subtask: Pick up the lemon and place it in the bowl.',
  'const objects = get_objects();',
  'const lemon = objects.find((id) => id.startsWith("lemon"));',
  'if (!lemon) throw new Error("no lemon in the environment: " + objects.join(", "));',
  'pick(lemon);',
  'const placed = place({ target: "bowl_1" });',
  'move_to_home_pos();',
  'print(placed);',
  '```',
].join('\n');

export function capExecutorPrompt(robot: Robot, apiDocs: string): string {
  return [
    `You are the task executor of ${robot.info.name}. You receive one subtask from the planner and write one JavaScript program that carries it out by calling the robot API below.`,
    'The robot API (each function runs an action on the robot and returns when it is done; a failed action throws an Error whose message says why):',
    apiDocs,
    'Best practices:',
    '- Call the functions directly and in order; there are no imports, no files, no network and no timers. Do not use await.',
    '- Use exact object ids from get_objects(); a reference position (center-left, "left of coke_can_1") is a place target as a string.',
    '- Positions are in the robot base frame: x forward, y left, z up, metres. "10 cm above the bowl" is get_pose("bowl_1").position with z + 0.1.',
    '- Use print() to report what you found; return a value to report the result.',
    '- Keep the program short: it must finish, with no endless loops.',
    'Example:',
    CAP_EXAMPLE,
    'Reply with the whole program in one ```javascript code block. You will get back the log of every API call, the output and how the program ended.',
  ].join('\n');
}
