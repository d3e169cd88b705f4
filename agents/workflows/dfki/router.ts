// The router of paper 003 (Fig. 2, Table 1): one short model call that sends a
// conversational utterance (a question, small talk) to the chatbot and an
// actionable one (an instruction, even an impossible one) to the planner and
// executor. It uses the shared classify step, which reads a tool call or a word.
import type { Model } from '../../models/model';
import type { ClassifyResult } from '../../runtime/flow';
import { type Category, classifyWith } from '../classify';

export const ROUTES: readonly [Category, Category] = [
  {
    id: 'chat',
    description:
      'a question or small talk the robot can answer without acting: greetings, the date, where it can go, what it is or what it sees',
  },
  {
    id: 'task',
    description: 'an instruction that asks the robot to do something in the world, including requests it may be unable to do',
  },
];

export async function route(
  model: Model,
  robotName: string,
  text: string,
  signal: AbortSignal,
): Promise<ClassifyResult & { route: 'chat' | 'task' }> {
  const r = await classifyWith(
    model,
    [{ role: 'user', content: text }],
    ROUTES,
    `You route what a person says to ${robotName}: to the chatbot (chat) or to the planner that acts (task).`,
    signal,
  );
  return { ...r, route: r.route === 'task' ? 'task' : 'chat' };
}
