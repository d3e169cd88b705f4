// Parse time of the text-tool-call parser on adversarial replies (16 k, 60 k and
// 1 MB): figures for `skillbridge bench agent`. The parser reads at most
// MAX_TEXT_TOOL_CALL_INPUT characters, so the 1 MB rows measure the cap too.
import { parseTextToolCalls } from '../../agents/models/text-tool-calls';
import { HeldBackText } from '../../agents/models/held-back-text';

export interface TextParseRow {
  input: string;
  chars: number;
  /** parseTextToolCalls, median of a few runs. */
  parseMs: number;
  /** The streaming filter fed one character per delta. */
  streamMs: number;
}

const INPUTS: Record<string, (n: number) => string> = {
  'unclosed [': (n) => '['.repeat(n),
  'unclosed {': (n) => '{'.repeat(n),
  'nested invalid {"a":': (n) => '{"a":'.repeat(Math.ceil(n / 5)),
  '[" pairs': (n) => '["'.repeat(Math.ceil(n / 2)),
  'call_tool{ repeated': (n) => 'call_tool{'.repeat(Math.ceil(n / 10)),
  '<tool_call>[ repeated': (n) => '<tool_call>['.repeat(Math.ceil(n / 12)),
};

export const TEXT_PARSE_SIZES = [16_000, 60_000, 1_000_000];

export function benchTextParse(opts: { quick?: boolean } = {}): TextParseRow[] {
  const rows: TextParseRow[] = [];
  const reps = opts.quick ? 1 : 3;
  for (const [input, make] of Object.entries(INPUTS)) {
    for (const n of TEXT_PARSE_SIZES) {
      const text = make(n).slice(0, n);
      const times: number[] = [];
      for (let r = 0; r < reps; r++) {
        const t = performance.now();
        parseTextToolCalls(text, {});
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      const t = performance.now();
      const held = new HeldBackText(() => undefined);
      for (const ch of text) held.push(ch);
      const streamMs = performance.now() - t;
      rows.push({ input, chars: text.length, parseMs: round(times[Math.floor(times.length / 2)] ?? 0), streamMs: round(streamMs) });
    }
  }
  return rows;
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}
