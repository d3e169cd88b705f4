// A stage's conversation kept across turns, so a person can refer back ("now put
// it in the bowl"), as the Robotic Tool Workflows keep their chat history (paper
// 000 §II.C). It keeps the history valid for strict chat templates: a request the
// model never answered joins the next one, and warnings spoken to a turn that
// ended without an answer leave with it (the trace keeps them). Pictures stay:
// a picture message left last joins the next request with its images, so a
// person can ask about what the camera showed; how many stay attached is
// dropOlderPictures' rule (flow/pictures.ts), which says so in the history.
import type { ChatMessage, ImagePart } from '../models/model';

export class Memory {
  private history: ChatMessage[];

  constructor(private readonly system: string | undefined) {
    this.history = this.fresh();
  }

  get messages(): ChatMessage[] {
    return this.history;
  }

  /** Adds the turn's request (and the pictures it carries); returns where the turn starts (earlier messages are prior context). */
  begin(userText: string, images?: readonly ImagePart[]): number {
    const last = this.history[this.history.length - 1];
    // A turn the model never answered (unreachable, stopped at once, or stopped after a picture) left a user's message last.
    const joined = last?.role === 'user' ? last : undefined;
    if (joined) this.history.pop();
    const start = this.history.length;
    const pictures = [...(joined?.images ?? []), ...(images ?? [])];
    this.history.push({
      role: 'user',
      content: joined ? `${joined.content}\n\n${userText}` : userText,
      ...(pictures.length ? { images: pictures } : {}),
    });
    return start;
  }

  /** After a turn that ended without an answer: drop the warnings left after its request, never a picture. */
  endWithoutAnswer(turnStart: number): void {
    for (;;) {
      const last = this.history[this.history.length - 1];
      if (this.history.length <= turnStart + 1 || last?.role !== 'user' || last.images?.length) return;
      this.history.pop();
    }
  }

  clear(): void {
    this.history = this.fresh();
  }

  private fresh(): ChatMessage[] {
    return this.system ? [{ role: 'system', content: this.system }] : [];
  }
}
