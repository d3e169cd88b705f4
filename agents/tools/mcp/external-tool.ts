// An external MCP server's tool as a Skillbridge Tool: named "<server>__<tool>",
// read-only (an information tool) only when the server marks it so — anything
// else acts, and the approval gate treats it as an action — with a tool card
// built from its description and annotations (or the card itself, when the
// server is a Skillbridge one and sent it in `_meta`). Arguments are checked
// against the tool's JSON Schema here, so a model gets the same readable
// message as for built-in tools; the call itself runs in the server's process.
import type { CallToolResult, Tool as McpToolDef } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type Tool, type ToolCard, type ToolContext, type ToolResult, TOOL_NAME, describeInputs, explainArgs } from '../tool';

export const CARD_META = 'skillbridge/card';

const CardSchema = z.object({
  capability: z.string(),
  inputs: z.string(),
  outputs: z.string(),
  whenToUse: z.string(),
  constraints: z.string().nullish(),
  mode: z.enum(['on-demand', 'continuous', 'event']),
  dimension: z.enum(['perception', 'cognition', 'reasoning', 'execution']),
  requires: z.array(z.string()),
  tags: z.array(z.string()),
});

/** "robots" + "arm__pick" → "robots__arm__pick", made to fit a model's tool-name rules. */
export function externalName(server: string, tool: string): string {
  return `${server}__${tool.replace(/[^a-zA-Z0-9_-]/g, '_')}`.slice(0, 64);
}

function firstSentence(text: string): string {
  const m = /^(.+?[.!?])(\s|$)/s.exec(text.trim());
  return (m?.[1] ?? text.trim()).replace(/\s+/g, ' ').slice(0, 300);
}

function hints(def: McpToolDef): string | undefined {
  const a = def.annotations ?? {};
  const parts = [
    a.readOnlyHint ? 'only reads' : 'may change things',
    a.destructiveHint === false ? 'not destructive' : a.readOnlyHint ? undefined : 'may be destructive',
    a.idempotentHint ? 'idempotent' : undefined,
    a.openWorldHint === false ? undefined : 'reaches outside its server',
  ].filter(Boolean);
  return parts.length ? `per the server's hints: ${parts.join(', ')}` : undefined;
}

export function cardFor(server: string, def: McpToolDef, parameters: Record<string, unknown>): ToolCard {
  const sent = CardSchema.safeParse(def._meta?.[CARD_META]);
  const tags = ['mcp', server];
  if (sent.success) {
    const c = sent.data;
    // Capabilities belong to the other robot, not this conversation's: its server checks them.
    return { ...c, constraints: c.constraints ?? undefined, requires: [], tags: [...new Set([...c.tags, ...tags])] };
  }
  const description = def.description?.trim() || def.title || def.name;
  const outputs = def.outputSchema?.properties
    ? `structured: ${Object.keys(def.outputSchema.properties).join(', ')}`
    : 'text from the server';
  return {
    capability: firstSentence(description),
    inputs: describeInputs(parameters),
    outputs,
    whenToUse: description,
    constraints: hints(def),
    mode: 'on-demand',
    dimension: def.annotations?.readOnlyHint ? 'perception' : 'execution',
    requires: [],
    tags,
  };
}

/** The model reads text: images and resources are named, their bytes kept in `data`. */
export function resultText(r: CallToolResult): string {
  const parts = r.content.map((c) => {
    switch (c.type) {
      case 'text':
        return c.text;
      case 'image':
      case 'audio':
        return `[${c.type}: ${c.mimeType}, ${Math.round((c.data.length * 3) / 4)} bytes]`;
      case 'resource_link':
        return `[resource: ${c.uri}${c.description ? ` — ${c.description}` : ''}]`;
      case 'resource':
        return 'text' in c.resource ? c.resource.text : `[resource: ${c.resource.uri}, ${c.resource.mimeType ?? 'binary'}]`;
      default:
        return '';
    }
  });
  const text = parts.filter(Boolean).join('\n').trim();
  if (text) return text;
  return r.structuredContent ? JSON.stringify(r.structuredContent) : '(the tool returned nothing)';
}

export type CallExternal = (name: string, args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolResult>;

export function externalTool(server: string, def: McpToolDef, call: CallExternal): Tool {
  const name = externalName(server, def.name);
  if (!TOOL_NAME.test(name)) throw new Error(`the MCP tool "${def.name}" of "${server}" cannot be named for a model`);
  const parameters: Record<string, unknown> = { ...def.inputSchema };
  delete parameters['$schema'];
  if (!parameters['properties']) parameters['properties'] = {};
  const card = cardFor(server, def, parameters);
  const description = `${def.description?.trim() || def.title || def.name} (from the MCP server "${server}")`;
  // Checked here for a readable message; schemas zod cannot read are left to the server.
  let schema: z.ZodType | undefined;
  try {
    schema = z.fromJSONSchema(parameters as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    schema = undefined;
  }
  const parse: Tool['parse'] = (raw) => {
    let value: unknown = raw ?? {};
    if (typeof raw === 'string') {
      try {
        value = raw.trim() ? JSON.parse(raw) : {};
      } catch {
        return { ok: false, message: `Invalid arguments for ${name}: not valid JSON (${raw.slice(0, 80)}). Send a JSON object.` };
      }
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      return { ok: false, message: `Invalid arguments for ${name}: send a JSON object.` };
    }
    if (schema) {
      const r = schema.safeParse(value);
      if (!r.success) return { ok: false, message: explainArgs(name, r.error, parameters, value) };
    }
    return { ok: true, args: value };
  };
  const run = (args: unknown, ctx: ToolContext) => call(def.name, args as Record<string, unknown>, ctx);
  return {
    name,
    description,
    category: def.annotations?.readOnlyHint === true ? 'information' : 'action',
    card,
    parameters,
    parse,
    run,
    async call(raw, ctx) {
      const p = parse(raw);
      if (!p.ok) return { ok: false, content: p.message };
      return run(p.args, ctx);
    },
    schema: () => ({ name, description, parameters }),
  };
}
