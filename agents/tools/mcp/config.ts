// Which external MCP servers a conversation may use: one entry per server, in
// the `mcpServers` shape other MCP clients use (a command and its arguments for
// stdio, or a URL for Streamable HTTP), with Skillbridge's own limits. Validated
// with zod; a wrong field gets one line naming it.
import { readFailure, readUserText } from '../../../base/user-file';
import { z } from 'zod';

/** Server names become tool-name prefixes ("robots__pick"), so they follow tool-name rules. */
const ServerName = z
  .string()
  .regex(/^[a-zA-Z][a-zA-Z0-9_-]{0,23}$/, 'a server name is a letter, then up to 23 letters, digits, "_" or "-"')
  .refine((n) => !n.includes('__'), 'a server name may not contain "__" (it separates the server from the tool)');

const Limits = {
  /** A call with no answer and no progress for this long is cancelled (default 60 s). */
  timeoutSeconds: z.number().positive().max(3600).default(60),
  /** A call is cancelled after this long even while it reports progress (default 600 s). */
  maxSeconds: z.number().positive().max(86_400).default(600),
  /** How long the server may take to start and answer `initialize` (default 30 s). */
  startSeconds: z.number().positive().max(600).default(30),
  /**
   * Acting tools (not marked read-only) ask a person before each call by default;
   * "auto" trusts this server's acting tools as the conversation's own.
   */
  approve: z.enum(['ask', 'auto']).default('ask'),
  /** Only these tools (the server's names); default all. */
  tools: z.array(z.string().min(1)).min(1).optional(),
};

const StdioServer = z.strictObject({
  command: z.string().min(1).describe('the program to start, e.g. "npx" or "node"'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
  ...Limits,
});

const HttpServer = z.strictObject({
  url: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//.test(u), 'the url must start with http:// or https://'),
  headers: z.record(z.string(), z.string()).optional(),
  ...Limits,
});

const ServerEntry = z.union([StdioServer, HttpServer], {
  error: 'each server needs either "command" (and "args") for stdio, or "url" for Streamable HTTP',
});

export const McpConfigSchema = z.strictObject({
  mcpServers: z.record(ServerName, ServerEntry).refine((s) => Object.keys(s).length > 0, 'list at least one server'),
});

export type McpServerEntry = z.output<typeof ServerEntry>;
export type McpConfig = z.output<typeof McpConfigSchema>;

export class McpConfigError extends Error {
  override name = 'McpConfigError';
}

/** Validates a parsed config; throws McpConfigError naming the field. */
export function parseMcpConfig(data: unknown, where = 'the MCP config'): McpConfig {
  const r = McpConfigSchema.safeParse(data);
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  const field = i.path.length ? `${i.path.map(String).join('.')}: ` : '';
  const hint = i.path.length ? '' : ' Expected {"mcpServers": {"NAME": {"command": ..., "args": [...]} or {"url": ...}}}.';
  // A bad record key (a server name) carries the reason one level down.
  const message = i.code === 'invalid_key' ? (i.issues[0]?.message ?? i.message) : i.message;
  throw new McpConfigError(`${where}: ${field}${message}.${hint}`);
}

export async function readMcpConfig(path: string): Promise<McpConfig> {
  let text: string;
  try {
    text = await readUserText(path);
  } catch (e) {
    throw new McpConfigError(`cannot read ${path}: ${readFailure(e)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new McpConfigError(`${path} is not valid JSON: ${(e as Error).message}`);
  }
  return parseMcpConfig(data, path);
}
