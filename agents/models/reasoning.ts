// Reasoning ("thinking") text from local models, kept apart from the answer.
// Servers deliver it three ways: a separate delta field (`reasoning_content` in
// vLLM, llama.cpp, LM Studio, DeepSeek; `reasoning` in Ollama), or inline as
// `<think>…</think>` at the start of the content (Qwen3, DeepSeek-R1 served
// raw), sometimes without the opening tag because the chat template already
// wrote it. Left in the content, it becomes the "final answer", its JSON
// examples look like text tool calls, and it fills the context on every turn
// (Qwen3's card says history should hold only the final output).

const OPEN = '<think>';
const CLOSE = '</think>';

export interface SplitText {
  text: string;
  reasoning: string;
}

/** Splits a whole reply: a leading `<think>` block, or everything before a lone `</think>`. */
export function splitThink(content: string): SplitText {
  const lead = content.length - content.trimStart().length;
  if (content.startsWith(OPEN, lead)) {
    const end = content.indexOf(CLOSE, lead + OPEN.length);
    // Unclosed: the model ran out of tokens while thinking; there is no answer.
    if (end < 0) return { text: '', reasoning: content.slice(lead + OPEN.length).trim() };
    return { text: content.slice(end + CLOSE.length).trimStart(), reasoning: content.slice(lead + OPEN.length, end).trim() };
  }
  const end = content.indexOf(CLOSE);
  if (end >= 0 && !content.includes(OPEN)) {
    return { text: content.slice(end + CLOSE.length).trimStart(), reasoning: content.slice(0, end).trim() };
  }
  return { text: content, reasoning: '' };
}

/**
 * The streaming form of splitThink for a leading `<think>` block: text deltas
 * in, answer and reasoning deltas out, with tags split across chunks handled.
 * (A lone `</think>` cannot be told apart while streaming; splitThink on the
 * whole text catches it afterwards.)
 */
export class ThinkSplitter {
  private state: 'start' | 'thinking' | 'gap' | 'answer' = 'start';
  private pending = '';

  constructor(
    private readonly onText: (d: string) => void,
    private readonly onReasoning: (d: string) => void,
  ) {}

  push(delta: string): void {
    this.pending += delta;
    for (;;) {
      if (this.state === 'start') {
        const t = this.pending.trimStart();
        if (!t) return;
        if (t.startsWith(OPEN)) {
          this.pending = t.slice(OPEN.length).replace(/^\s+/, '');
          this.state = 'thinking';
          continue;
        }
        if (OPEN.startsWith(t)) return; // maybe the tag, split across chunks
        this.state = 'answer';
        continue;
      }
      if (this.state === 'thinking') {
        const end = this.pending.indexOf(CLOSE);
        if (end >= 0) {
          if (end > 0) this.onReasoning(this.pending.slice(0, end));
          this.pending = this.pending.slice(end + CLOSE.length);
          this.state = 'gap';
          continue;
        }
        // Hold back a possible partial closing tag.
        const keep = partialSuffix(this.pending, CLOSE);
        const out = this.pending.slice(0, this.pending.length - keep);
        if (out) this.onReasoning(out);
        this.pending = this.pending.slice(this.pending.length - keep);
        return;
      }
      if (this.state === 'gap') {
        // The blank lines between the block and the answer may come in later chunks.
        this.pending = this.pending.trimStart();
        if (!this.pending) return;
        this.state = 'answer';
      }
      if (this.pending) this.onText(this.pending);
      this.pending = '';
      return;
    }
  }

  /** Flushes what was held back (a stream that ended mid-tag). */
  end(): void {
    if (!this.pending) return;
    if (this.state === 'thinking') this.onReasoning(this.pending);
    else if (this.state !== 'gap') this.onText(this.pending);
    this.pending = '';
  }
}

/** Length of the longest suffix of s that is a proper prefix of tag. */
function partialSuffix(s: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, s.length); n > 0; n--) {
    if (s.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
