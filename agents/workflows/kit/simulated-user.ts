// The person a workflow asks, simulated for evaluation (paper 001 §3.5 and §4.3:
// recovery plans that ask need someone to answer). Answers come from outside:
// a fixed list (in order, or matched to the question by a keyword), or a
// callback the evaluation runner builds from the scene's ground truth, which
// may also act in the world as the person would (move the chair, hand over the
// far medicine). Nothing here can read the simulator; the answer and who gave it
// are recorded in the trace by the conversation (`answer` records, by "simulated").
import type { AskUser } from '../../runtime/conversation';

/** An answer given in order, or the first unused one whose `when` matches the question. */
export type ScriptedAnswer = string | { when: string | RegExp; answer: string };

export type GroundTruthAnswer = (q: {
  question: string;
  asked: number;
  signal: AbortSignal;
}) => string | undefined | Promise<string | undefined>;

export interface SimulatedUserSpec {
  answers?: readonly ScriptedAnswer[];
  truth?: GroundTruthAnswer;
  /** When nothing answers the question (default: "I don't know."). */
  fallback?: string;
}

/** Someone to ask in evaluation: pass it as `askUser` to openConversation. */
export function simulatedUser(spec: SimulatedUserSpec): AskUser & { readonly asked: readonly string[] } {
  const answers = [...(spec.answers ?? [])];
  const used = new Set<number>();
  const asked: string[] = [];
  const fromList = (question: string): string | undefined => {
    const q = question.toLowerCase();
    const keyed = answers.findIndex(
      (a, i) =>
        !used.has(i) && typeof a !== 'string' && (typeof a.when === 'string' ? q.includes(a.when.toLowerCase()) : a.when.test(question)),
    );
    const i = keyed >= 0 ? keyed : answers.findIndex((a, j) => !used.has(j) && typeof a === 'string');
    if (i < 0) return undefined;
    used.add(i);
    const a = answers[i]!;
    return typeof a === 'string' ? a : a.answer;
  };
  const ask: AskUser = async ({ question, signal }) => {
    asked.push(question);
    const truth = spec.truth ? await spec.truth({ question, asked: asked.length, signal }) : undefined;
    const answer = truth ?? fromList(question) ?? spec.fallback ?? "I don't know.";
    return { answer, by: 'simulated' };
  };
  return Object.assign(ask, { asked });
}
