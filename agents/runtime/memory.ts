// A stage's conversation kept across turns, so a person can refer back ("now put
// it in the bowl"), as the Robotic Tool Workflows keep their chat history (paper
// 000 §II.C). It keeps the history valid for strict chat templates: a request the
// model never answered joins the next one, and warnings spoken to a turn that
// ended without an answer leave with it (the trace keeps them).
import type { ChatMessage } from '../models/model';

export class Memory {
  private history: ChatMessage[];

  constructor(private readonly system: string | undefined) {
    this.history = this.fresh();
  }

  get messages(): ChatMessage[] {
    return this.history;
  }

  /** Adds the turn's request; returns where the turn starts (earlier messages are prior context). */
  begin(userText: string): number {
    const last = this.history[this.history.length - 1];
    // A turn the model never answered (unreachable, stopped at once) left the user's message last.
    if (last?.role === 'user') this.history.pop();
    const start = this.history.length;
    this.history.push({ role: 'user', content: last?.role === 'user' ? `${last.content}\n\n${userText}` : userText });
    return start;
  }

  /** After a turn that ended without an answer: drop the warnings left after its request. */
  endWithoutAnswer(turnStart: number): void {
    while (this.history.length > turnStart + 1 && this.history[this.history.length - 1]?.role === 'user') this.history.pop();
  }

  clear(): void {
    this.history = this.fresh();
  }

  private fresh(): ChatMessage[] {
    return this.system ? [{ role: 'system', content: this.system }] : [];
  }
}
