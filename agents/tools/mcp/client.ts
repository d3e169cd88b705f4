// Connections to external MCP servers, for a conversation's extra tools. Each
// server runs in its own process (stdio) or elsewhere (Streamable HTTP); each
// call has a timeout that progress notifications extend up to a hard limit, and
// a Stop cancels it on the server too. A server that hangs, dies or answers
// outside the protocol makes that call fail with a sentence naming the server
// and the cause; the conversation goes on.
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult, ErrorCode, McpError, type Tool as McpToolDef } from '@modelcontextprotocol/sdk/types.js';
import type { Tool, ToolContext, ToolResult } from '../tool';
import type { McpConfig, McpServerEntry } from './config';
import { externalTool, resultText } from './external-tool';

/** A server that could not be started or listed; the CLI prints it as one line. */
export class McpConnectError extends Error {
  override name = 'McpConnectError';
}

export interface ExternalServer {
  readonly name: string;
  readonly tools: readonly Tool[];
  /** Acting tools' approval as the config asks ('ask' unless the server is trusted). */
  readonly approve: 'ask' | 'auto';
  readonly closed: boolean;
}

export interface McpToolbox {
  readonly servers: readonly ExternalServer[];
  readonly tools: readonly Tool[];
  /** Per-tool approval modes for the acting tools, for the approval policy's `tools` overrides. */
  approvalOverrides(base: 'auto' | 'ask' | 'deny'): Record<string, 'auto' | 'ask' | 'deny'>;
  close(): Promise<void>;
}

const STDERR_KEEP = 2000;

/** A server's question to the person (MCP elicitation), e.g. a Skillbridge server asking to approve an action. */
export interface ElicitQuestion {
  server: string;
  message: string;
}

/**
 * Answers a server's approval question: the person (a prompt) or the --approve
 * policy. Undefined: the client does not declare elicitation, and servers that
 * need approval refuse acting calls, as before.
 */
export type Elicit = (q: ElicitQuestion, signal: AbortSignal) => Promise<{ approved: boolean; note?: string }>;

/**
 * Answers an elicitation whose form is an approval: one required boolean (and
 * optional text fields, filled with the note). Any other form is declined: a
 * policy cannot fill in what it was not asked.
 */
export function approvalAnswer(
  schema: { properties?: Record<string, { type?: string }>; required?: string[] },
  answer: { approved: boolean; note?: string },
): ElicitResult {
  const props = Object.entries(schema.properties ?? {});
  const flags = props.filter(([, p]) => p.type === 'boolean').map(([k]) => k);
  const required = schema.required ?? [];
  if (flags.length !== 1 || required.some((r) => r !== flags[0])) return { action: 'decline' };
  if (!answer.approved) return { action: 'decline' };
  const text = props.find(([k, p]) => p.type === 'string' && k !== flags[0])?.[0];
  return { action: 'accept', content: { [flags[0]!]: true, ...(text && answer.note ? { [text]: answer.note } : {}) } };
}

class Connection implements ExternalServer {
  tools: Tool[] = [];
  closed = false;
  private stderr = '';
  private readonly client: Client;

  constructor(
    readonly name: string,
    private readonly entry: McpServerEntry,
    elicit?: Elicit,
  ) {
    this.client = new Client({ name: 'skillbridge', version: '0.1.0' }, elicit ? { capabilities: { elicitation: { form: {} } } } : {});
    if (elicit)
      this.client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
        const params = req.params as { message: string; requestedSchema?: Parameters<typeof approvalAnswer>[0] };
        if (!params.requestedSchema) return { action: 'decline' };
        const answer = await elicit({ server: name, message: params.message }, extra.signal);
        return approvalAnswer(params.requestedSchema, answer);
      });
  }

  get approve(): 'ask' | 'auto' {
    return this.entry.approve;
  }

  async open(signal?: AbortSignal): Promise<void> {
    const e = this.entry;
    const transport =
      'command' in e
        ? new StdioClientTransport({
            command: e.command,
            args: e.args,
            // The server gets a minimal environment (PATH, HOME…) plus its own entries: no API keys leak to it.
            env: { ...getDefaultEnvironment(), ...(e.env ?? {}) },
            ...(e.cwd ? { cwd: e.cwd } : {}),
            stderr: 'pipe',
          })
        : new StreamableHTTPClientTransport(new URL(e.url), e.headers ? { requestInit: { headers: e.headers } } : undefined);
    if (transport instanceof StdioClientTransport) {
      (transport.stderr as Readable | null)?.on('data', (d: Buffer) => {
        this.stderr = (this.stderr + d.toString()).slice(-STDERR_KEEP);
      });
    }
    this.client.onclose = () => {
      this.closed = true;
    };
    const ms = e.startSeconds * 1000;
    try {
      await this.client.connect(transport, { timeout: ms, ...(signal ? { signal } : {}) });
      const defs: McpToolDef[] = [];
      let cursor: string | undefined;
      do {
        const page = await this.client.listTools(cursor ? { cursor } : {}, { timeout: ms });
        defs.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor && defs.length < 1000);
      const wanted = e.tools ? defs.filter((d) => e.tools!.includes(d.name)) : defs;
      const missing = e.tools?.filter((t) => !defs.some((d) => d.name === t)) ?? [];
      if (missing.length)
        throw new McpConnectError(
          `it has no tool ${missing.map((m) => `"${m}"`).join(', ')} (it has ${defs.map((d) => d.name).join(', ')})`,
        );
      this.tools = wanted.map((d) => externalTool(this.name, d, (n, a, ctx) => this.call(n, a, ctx)));
    } catch (err) {
      await this.client.close().catch(() => undefined);
      throw new McpConnectError(`MCP server "${this.name}" did not start: ${this.explain(err, 'start')}`);
    }
  }

  private explain(err: unknown, what: string): string {
    const tail = this.stderr.trim().split('\n').slice(-3).join(' | ');
    const said = tail ? ` (its last words: ${tail.slice(-400)})` : '';
    if (err instanceof McpConnectError) return err.message;
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
      return `it did not answer ${what} in time${said}`;
    }
    if (this.closed || (err instanceof McpError && err.code === ErrorCode.ConnectionClosed)) {
      return `its connection closed (the process ended or the server went away)${said}`;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && 'command' in this.entry) return `there is no program "${this.entry.command}"`;
    if (code === 'ECONNREFUSED') return 'nothing listens at its URL';
    return `${(err as Error).message ?? String(err)}${said}`;
  }

  private async call(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
    const label = `${tool} on the MCP server "${this.name}"`;
    if (this.closed) {
      return {
        ok: false,
        content: `${label} was not run: ${this.explain(new McpError(ErrorCode.ConnectionClosed, 'closed'), tool)}. Its tools are unavailable for the rest of this run.`,
      };
    }
    try {
      const r = await this.client.callTool({ name: tool, arguments: args }, undefined, {
        signal: ctx.signal,
        timeout: this.entry.timeoutSeconds * 1000,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: this.entry.maxSeconds * 1000,
      });
      const result = r as Parameters<typeof resultText>[0];
      return {
        ok: !result.isError,
        content: resultText(result),
        data: { server: this.name, ...(result.structuredContent ? { structured: result.structuredContent } : {}) },
      };
    } catch (err) {
      // A Stop is the run's business: let the flow report it as stopped.
      if (ctx.signal.aborted) throw err;
      const why =
        err instanceof McpError && err.code === ErrorCode.RequestTimeout
          ? `it did not answer within ${this.entry.timeoutSeconds} s (or ${this.entry.maxSeconds} s in all); the call was cancelled`
          : this.explain(err, tool);
      return { ok: false, content: `${label} failed: ${why}.` };
    }
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    this.closed = true;
  }
}

/** Starts every configured server and lists its tools; one that fails closes the others and names itself. */
export async function connectMcpServers(config: McpConfig, o: { signal?: AbortSignal; elicit?: Elicit } = {}): Promise<McpToolbox> {
  const connections: Connection[] = [];
  try {
    for (const [name, entry] of Object.entries(config.mcpServers)) {
      const c = new Connection(name, entry, o.elicit);
      connections.push(c);
      await c.open(o.signal);
    }
  } catch (e) {
    await Promise.all(connections.map((c) => c.close()));
    throw e;
  }
  const tools = connections.flatMap((c) => c.tools);
  return {
    servers: connections,
    tools,
    approvalOverrides: (base) => {
      const out: Record<string, 'auto' | 'ask' | 'deny'> = {};
      for (const c of connections) {
        for (const t of c.tools) if (t.category === 'action') out[t.name] = base === 'deny' ? 'deny' : c.approve === 'auto' ? base : 'ask';
      }
      return out;
    },
    close: async () => {
      await Promise.all(connections.map((c) => c.close()));
    },
  };
}
