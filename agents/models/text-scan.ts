// Scanning helpers for tool calls written as text: a bracket matcher and a
// forgiving JSON reader. Model text is untrusted and may be huge or built to
// hurt (16 k unclosed `[`), so every function here runs in time linear in its
// input: brackets are matched once and remembered, and the whole search has a
// step budget, after which unmatched brackets simply count as unclosed.

export const QUOTES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '\u201c': '\u201d', '\u2018': '\u2019' };

const OPENERS: Readonly<Record<string, string>> = { '{': '}', '[': ']', '(': ')' };
const UNKNOWN = -2;

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

/** Index of the quote closing the string opened at `start` (backslash escapes skipped); -1 if none. */
export function endOfString(s: string, start: number, close: string): number {
  for (let i = start + 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === close) return i;
  }
  return -1;
}

/**
 * Matches brackets in one text. `closeOf(i)` gives the index of the bracket
 * closing the one at `i`, skipping quoted strings, or -1 when it is unbalanced.
 * A `'` opens a string only where a value can start, so an apostrophe inside a
 * bare word (robot's) does not. Results are remembered: brackets nested in a
 * scanned region are matched by the same pass, and when a scan fails every
 * bracket still open fails with it (a scan from any of them would meet the same
 * mismatch). The step budget (a few times the length) bounds what is left.
 */
export class Brackets {
  private readonly close: Int32Array;
  private budget: number;

  constructor(
    private readonly s: string,
    budgetPerChar = 8,
  ) {
    this.close = new Int32Array(s.length).fill(UNKNOWN);
    this.budget = s.length * budgetPerChar + 4096;
  }

  closeOf(open: number): number {
    const s = this.s;
    const known = this.close[open];
    if (known === undefined || OPENERS[s[open] ?? ''] === undefined) return -1;
    if (known !== UNKNOWN) return known;
    const stack: number[] = [];
    const fail = (): number => {
      for (const p of stack) this.close[p] = -1;
      return -1;
    };
    // The last non-space character before the scan point: does a value start here?
    let prev = '';
    for (let j = open - 1; j >= 0; j--) {
      if (!isSpace(s[j])) {
        prev = s[j] ?? '';
        break;
      }
    }
    for (let i = open; i < s.length; i++) {
      if (--this.budget < 0) return fail();
      const c = s[i] ?? '';
      const closeQuote = QUOTES[c];
      if (closeQuote !== undefined && (c === '"' || c === '\u201c' || prev === '' || '[{(,:'.includes(prev))) {
        const end = endOfString(s, i, closeQuote);
        this.budget -= Math.max(0, (end < 0 ? s.length : end) - i);
        if (end < 0) return fail();
        i = end;
        prev = closeQuote;
        continue;
      }
      if (!isSpace(c)) prev = c;
      if (OPENERS[c] !== undefined) {
        const memo = this.close[i] ?? UNKNOWN;
        if (stack.length && memo !== UNKNOWN) {
          if (memo < 0) return fail();
          i = memo;
          prev = s[i] ?? '';
          continue;
        }
        stack.push(i);
      } else if (c === '}' || c === ']' || c === ')') {
        const top = stack[stack.length - 1];
        if (top === undefined || OPENERS[s[top] ?? ''] !== c) return fail();
        stack.pop();
        this.close[top] = i;
        if (!stack.length) return i;
      }
    }
    return fail();
  }
}

/** JSON, else the tolerant reader (single quotes, bare words, trailing commas); undefined if neither. */
export function parseJsonish(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    try {
      return new Loose(text).document();
    } catch {
      return undefined;
    }
  }
}

/** Nesting deeper than this is not a tool call a model meant; the reader gives up instead of recursing on. */
const MAX_DEPTH = 64;

/**
 * A forgiving reader for what models write when asked for call_tool{…}: keys
 * and strings may be bare or single-quoted, lists may end with a comma, Python's
 * True/False/None are read as JSON's. Linear: each character is read once.
 */
export class Loose {
  private i = 0;
  constructor(private readonly s: string) {}

  document(): unknown {
    const v = this.value('', 0);
    this.ws();
    if (this.i < this.s.length) throw new Error(`unexpected "${this.s.slice(this.i, this.i + 10)}"`);
    return v;
  }

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i] ?? '')) this.i++;
  }

  private value(stops: string, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Error('nested too deeply');
    this.ws();
    const c = this.s[this.i];
    if (c === undefined) throw new Error('unexpected end');
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    const close = QUOTES[c];
    if (close !== undefined) return this.string(close);
    return this.bare(stops);
  }

  private object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.i++;
    for (;;) {
      this.ws();
      if (this.s[this.i] === '}') {
        this.i++;
        return out;
      }
      const q = QUOTES[this.s[this.i] ?? ''];
      const key = q !== undefined ? this.string(q) : this.until(':').trim();
      this.ws();
      if (this.s[this.i] !== ':') throw new Error('expected ":"');
      this.i++;
      out[key] = this.value(',}', depth + 1);
      this.ws();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== '}') throw new Error('expected "," or "}"');
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.i++;
    for (;;) {
      this.ws();
      if (this.s[this.i] === ']') {
        this.i++;
        return out;
      }
      out.push(this.value(',]', depth + 1));
      this.ws();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== ']') throw new Error('expected "," or "]"');
    }
  }

  private string(close: string): string {
    const end = endOfString(this.s, this.i, close);
    if (end < 0) throw new Error('unterminated string');
    const body = this.s.slice(this.i + 1, end);
    this.i = end + 1;
    try {
      return JSON.parse(`"${body.replace(/\\'/g, "'").replace(/(?<!\\)"/g, '\\"')}"`) as string;
    } catch {
      return body;
    }
  }

  private until(stops: string): string {
    const start = this.i;
    while (this.i < this.s.length && !stops.includes(this.s[this.i] ?? '')) this.i++;
    return this.s.slice(start, this.i);
  }

  private bare(stops: string): unknown {
    const word = this.until(stops || ',]}').trim();
    if (!word) throw new Error('empty value');
    if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(word)) return Number(word);
    if (/^(true|True)$/.test(word)) return true;
    if (/^(false|False)$/.test(word)) return false;
    if (/^(null|None)$/.test(word)) return null;
    return word;
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
