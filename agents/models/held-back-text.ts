// Streams a text-tool-call model's text while holding back anything that may be
// a call, so the user does not watch `call_tool{…}` scroll by and then vanish.
// Once a line shows a call marker, the rest waits for the end and the cleaned
// text. Each pushed character is looked at a bounded number of times, however
// the text is chunked (a stream of a million one-character deltas stays linear).

const MARKER = /call_tool|<tool_call|```|\{/;
/** Longest marker less one: a marker may be arriving in pieces. */
const TAIL = 10;

export class HeldBackText {
  /** Characters pushed so far. */
  private length = 0;
  /** Text not yet passed to the sink (from `emitted` on). Only sliced when something is emitted. */
  private pending = '';
  private emitted = 0;
  /** Everything passed to the sink. */
  private sent = '';
  private holding = false;
  /** Text from `scanned` to the end: short (the held-back tail and the newest delta). */
  private unscanned = '';
  private scanned = 0;
  private lineHasLetter = false;
  /** Index after the last non-blank character scanned, overall and before the current line. */
  private lastInk = 0;
  private inkBeforeLine = 0;

  constructor(private readonly sink: (delta: string) => void) {}

  push(delta: string): void {
    this.length += delta.length;
    this.pending += delta;
    if (this.holding) return;
    // Strings built by += are ropes that a regex or an index would flatten whole:
    // only the short unscanned window is searched and read.
    this.unscanned += delta;
    const marker = MARKER.exec(this.unscanned);
    if (marker) this.holding = true;
    const limit = marker ? this.scanned + marker.index : Math.max(this.scanned, this.length - TAIL);
    this.scan(limit);
    // Never emit the start of a line that is only a bullet so far: the line may be a call.
    // Whitespace waits for the text after it: the final text is trimmed.
    const upTo = this.lineHasLetter ? this.lastInk : this.inkBeforeLine;
    if (upTo > this.emitted) {
      const out = this.pending.slice(0, upTo - this.emitted);
      this.pending = this.pending.slice(upTo - this.emitted);
      this.emitted = upTo;
      this.sent += out;
      this.sink(out);
    }
  }

  /** Emits what is left of the final, cleaned text. */
  end(finalText: string): void {
    const sent = this.sent;
    for (const prefix of [sent, sent.trimEnd(), sent.trimStart(), sent.trim()]) {
      if (finalText.startsWith(prefix)) {
        const rest = finalText.slice(prefix.length);
        if (rest) this.sink(rest);
        return;
      }
    }
  }

  reset(): void {
    this.length = 0;
    this.pending = '';
    this.emitted = 0;
    this.sent = '';
    this.holding = false;
    this.unscanned = '';
    this.scanned = 0;
    this.lineHasLetter = false;
    this.lastInk = 0;
    this.inkBeforeLine = 0;
  }

  private scan(limit: number): void {
    const n = limit - this.scanned;
    for (let k = 0; k < n; k++) {
      const c = this.unscanned[k] ?? '';
      const i = this.scanned + k;
      if (c === '\n') {
        this.lineHasLetter = false;
        this.inkBeforeLine = this.lastInk;
      } else if (!/\s/.test(c)) {
        this.lastInk = i + 1;
        if (/[A-Za-z]/.test(c)) this.lineHasLetter = true;
      }
    }
    this.unscanned = this.unscanned.slice(n);
    this.scanned = limit;
  }
}
