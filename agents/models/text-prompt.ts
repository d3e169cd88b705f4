// Prompting a model that writes tool calls as text: the tool list and the call
// format for the system message, and earlier calls and results rewritten as
// text (such servers may drop or reject `tool` messages).
import type { ChatMessage, CompletionRequest, ModelTool, ToolCall } from './model';
import type { TextToolCallFormat } from './text-parse';
import { isRecord, parseJsonish } from './text-scan';

/** The tool list as the model reads it in the system message. */
export function describeTools(tools: readonly ModelTool[], format: TextToolCallFormat): string {
  return tools
    .map((t) => {
      const params = t.function.parameters;
      const props = isRecord(params['properties']) ? params['properties'] : {};
      const required = new Set(
        Array.isArray(params['required']) ? params['required'].filter((r): r is string => typeof r === 'string') : [],
      );
      if (format !== 'raider') return `- ${t.function.name}: ${t.function.description}\n  parameters: ${JSON.stringify(params)}`;
      const sig = Object.entries(props).map(([k, s]) => `${k}${required.has(k) ? '' : '?'}: ${typeText(s)}`);
      const notes = Object.entries(props)
        .filter(([, s]) => isRecord(s) && typeof s['description'] === 'string')
        .map(([k, s]) => `\n    ${k}: ${String((s as Record<string, unknown>)['description'])}`);
      return `- ${t.function.name}(${sig.join(', ')}): ${t.function.description}${notes.join('')}`;
    })
    .join('\n');
}

function typeText(s: unknown): string {
  if (!isRecord(s)) return 'any';
  if (Array.isArray(s['enum'])) return s['enum'].map((e) => JSON.stringify(e)).join(' | ');
  if (s['type'] === 'array') return `${typeText(s['items'])}[]`;
  if (typeof s['type'] === 'string') return s['type'];
  if (Array.isArray(s['anyOf'])) return s['anyOf'].map(typeText).join(' | ');
  return 'any';
}

/** How to write a call, in the chosen format. */
export function formatInstructions(format: TextToolCallFormat, toolChoice?: CompletionRequest['toolChoice']): string {
  const how = {
    raider: [
      'To call a tool, write a line of exactly this form:',
      'call_tool{tool: tool_name, args: ["first argument", 2]}',
      'List the arguments in the order of the tool signature ([] when it takes none); quote strings.',
    ],
    json: [
      'To call a tool, write a JSON object of this form in its own ```json block:',
      '{"name": "tool_name", "arguments": {"parameter": "value"}}',
    ],
    hermes: ['To call a tool, write:', '<tool_call>', '{"name": "tool_name", "arguments": {"parameter": "value"}}', '</tool_call>'],
  }[format];
  const rules = [
    'You may write several calls, one after another. Then stop: the results come back in the next message.',
    toolChoice === 'required'
      ? 'You must call at least one tool now.'
      : toolChoice === 'none'
        ? 'Do not call any tool now; answer from what you know.'
        : 'When you need no more tools, give your final answer without any tool call in it.',
  ];
  return [...how, ...rules].join('\n');
}

/** Writes a call back into text, so a text-only model sees its earlier calls in its own format. */
export function renderTextToolCall(call: ToolCall, format: TextToolCallFormat, tools: readonly ModelTool[]): string {
  const parsed = parseJsonish(call.function.arguments);
  const args = isRecord(parsed) ? parsed : {};
  const json = JSON.stringify({ name: call.function.name, arguments: args });
  if (format === 'json') return `\`\`\`json\n${json}\n\`\`\``;
  if (format === 'hermes') return `<tool_call>\n${json}\n</tool_call>`;
  const tool = tools.find((t) => t.function.name === call.function.name);
  const keys = tool && isRecord(tool.function.parameters['properties']) ? Object.keys(tool.function.parameters['properties']) : [];
  // Positional only when that loses nothing; otherwise named (the parser reads both).
  const positionalOk = Object.keys(args).every((k) => keys.includes(k)) && keys.slice(0, Object.keys(args).length).every((k) => k in args);
  const list = positionalOk ? JSON.stringify(keys.filter((k) => k in args).map((k) => args[k])) : JSON.stringify(args);
  return `call_tool{tool: ${call.function.name}, args: ${list}}`;
}

/** Rewrites a native-tools history for a text-only model. */
export function textHistory(
  messages: readonly ChatMessage[],
  tools: readonly ModelTool[],
  format: TextToolCallFormat,
  toolChoice?: CompletionRequest['toolChoice'],
): ChatMessage[] {
  const names = new Map<string, string>();
  const out: ChatMessage[] = [];
  const fromTool = new Set<ChatMessage>();
  for (const m of messages) {
    if (m.role === 'assistant') {
      for (const tc of m.tool_calls ?? []) names.set(tc.id, tc.function.name);
      const calls = (m.tool_calls ?? []).map((tc) => renderTextToolCall(tc, format, tools));
      out.push({ role: 'assistant', content: [m.content ?? '', ...calls].filter(Boolean).join('\n') });
    } else if (m.role === 'tool') {
      const msg: ChatMessage = {
        role: 'user',
        content: `Result of ${names.get(m.tool_call_id) ?? 'tool'} (${m.tool_call_id}):\n${m.content}`,
      };
      fromTool.add(msg);
      out.push(msg);
    } else out.push({ ...m });
  }
  // Tool results become user turns; merge neighbours because strict chat
  // templates (Mistral, Gemma) reject two user turns in a row.
  const merged: ChatMessage[] = [];
  for (const m of out) {
    const prev = merged.at(-1);
    if (prev && prev.role === 'user' && m.role === 'user' && (fromTool.has(prev) || fromTool.has(m))) {
      const images = [...(prev.images ?? []), ...(m.images ?? [])];
      const joined: ChatMessage = { role: 'user', content: `${prev.content}\n\n${m.content}`, ...(images.length ? { images } : {}) };
      fromTool.add(joined);
      merged[merged.length - 1] = joined;
    } else merged.push(m);
  }
  if (!tools.length) return merged;
  const section = `## Tools\n${describeTools(tools, format)}\n\n## Tool call format\n${formatInstructions(format, toolChoice)}`;
  const sys = merged.findIndex((m) => m.role === 'system');
  const first = merged[sys];
  if (first && first.role === 'system') merged[sys] = { role: 'system', content: `${first.content}\n\n${section}` };
  else merged.unshift({ role: 'system', content: section });
  return merged;
}
