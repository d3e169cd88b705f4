// The flow manager's four warnings (RAIDER, paper 001 §3.2), written back into
// the conversation so the model corrects itself, and the checks behind them.
import { distance } from 'fastest-levenshtein';
import type { WarningCode } from '../trace';

/**
 * Default Warning 1 check: an explicit final-answer marker, as in RAIDER's
 * `{"final_response": ...}` or "Final answer: …". Plain commentary beside tool calls
 * ("I'll look first") is normal for native tool calling and is not flagged.
 * A workflow may pass its own check per flow (`looksFinal`).
 */
export function looksLikeFinalAnswer(text: string): boolean {
  return /["']?final_response["']?\s*:/i.test(text) || /\bfinal[ _](answer|response)\s*[:=]/i.test(text);
}

export function warningText(code: WarningCode, detail = ''): string {
  const body: Record<WarningCode, string> = {
    made_up_tool_response:
      'your reply gave a final answer together with tool calls. That answer was discarded: you cannot know the results before the tools return. Read the tool results above, then call more tools or give your final answer without tool calls.',
    made_up_tool_name: detail,
    unsuccessful_tool_call: detail,
    missing_tool_call_or_final_response:
      'your reply had neither a tool call nor a final answer. Call one of the available tools, or reply with your final answer.',
  };
  return `Warning (${code}): ${body[code]}`;
}

/** "did you mean" for a made-up tool name: close spellings, or a shared word. */
export function suggestTools(name: string, available: readonly string[]): string[] {
  const n = name.toLowerCase();
  const scored = available
    .map((a) => {
      const d = distance(n, a.toLowerCase());
      const words = new Set(a.toLowerCase().split(/[_-]/));
      const shared = n.split(/[_-]/).some((w) => w.length > 2 && words.has(w));
      return { a, d, close: d <= Math.max(2, Math.floor(a.length / 3)) || a.includes(n) || n.includes(a) || shared };
    })
    .filter((x) => x.close)
    .sort((x, y) => x.d - y.d || x.a.localeCompare(y.a));
  return scored.slice(0, 3).map((x) => x.a);
}
