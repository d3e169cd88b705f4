// The simulated person of an evaluation case. A tool that asks the person
// (RAIDER's ask, DFKI's listen) gets the case's answer at once, as a person in
// the room would say it (a person_said event goes into the world's log); a
// workflow's own question (ctx.askUser) gets the same answer.
import type { AskUser } from '../../agents/runtime/conversation';
import type { Outcome, Robot, Speech } from '../../robot/robot';
import type { SimControl } from '../../robot/sim/control';
import { type Answers, answerFor } from './case';

export const SIMULATED_PERSON = 'user';

/** The robot as tools see it, with `speech.ask` answered by the simulated person. */
export function withSimulatedUser(robot: Robot, control: SimControl, answers: Answers | undefined): Robot {
  const speech = robot.speech;
  if (!speech || !answers) return robot;
  const ask = async (question: string, timeoutSeconds?: number, signal?: AbortSignal): Promise<Outcome> => {
    const answer = answerFor(answers, question);
    if (answer === undefined) return speech.ask(question, timeoutSeconds, signal);
    control.inject({ type: 'person_said', person: SIMULATED_PERSON, text: answer });
    return {
      ok: true,
      summary: `${SIMULATED_PERSON} answered: "${answer}"`,
      data: { question: question.trim(), answer, person: SIMULATED_PERSON },
    };
  };
  const wrapped: Speech = { say: (t) => speech.say(t), ask, listen: (t, s) => speech.listen(t, s) };
  return new Proxy(robot, {
    get(target, prop, receiver) {
      if (prop === 'speech') return wrapped;
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** The workflow-level question hook, answered from the same rules. */
export function simulatedAskUser(answers: Answers | undefined): AskUser | undefined {
  if (!answers) return undefined;
  return async ({ question }) => ({ answer: answerFor(answers, question) ?? "I don't know.", by: 'simulated' });
}
