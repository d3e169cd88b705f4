// The Skillbridge MCP server: a fleet's tools, each registered with its zod
// schema, its card as the description and annotations from its category; each
// robot's snapshot, events and camera as resources; robot events as log
// messages. A call runs exactly as a model's call runs in a flow (the tool's own
// run, with an abort signal): a long skill reports progress while it runs
// (`_meta.progressToken`), a client's `notifications/cancelled` aborts it, and
// acting tools pass the approval check in ./approval.ts first.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { type CallToolResult, ElicitResultSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { jsonSafe } from '../../base/json';
import type { ApprovalMode } from '../../agents/runtime/approval';
import type { ToolStatus } from '../../agents/runtime/trace';
import type { Tool, ToolResult } from '../../agents/tools/tool';
import { type AskPerson, authorizeAction } from './approval';
import { PictureData } from './camera';
import { CARD_META, annotationsFor, describeForMcp } from './describe';
import type { Fleet, FleetRobot } from './fleet';
import { registerRobotResources, resourceUri } from './resources';
import type { McpTraceLog } from './trace-log';

export interface SkillbridgeMcpOptions {
  fleet: Fleet;
  approve: ApprovalMode;
  trace?: McpTraceLog;
  version: string;
  /** How often a running call reports progress, ms. */
  progressEveryMs?: number;
  /** How long a person has to answer an approval form, ms. */
  approvalTimeoutMs?: number;
}

/** Arguments larger than this are refused before anything runs: robot tools take names and numbers. */
export const MAX_ARGUMENT_BYTES = 16 * 1024;

const Result = z.object({
  ok: z.boolean().describe('false when the robot could not do it; `result` says why'),
  result: z.string().describe('what the tool reports, as a model reads it'),
  data: z.unknown().optional().describe("the tool's structured data (an Outcome for actions)"),
});

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

let callCounter = 0;

/** Sends `notifications/progress` while a call runs, if the client asked for it. */
function progressTicker(extra: Extra, label: string, everyMs: number): () => void {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => undefined;
  const t0 = performance.now();
  let last = 0;
  const timer = setInterval(() => {
    // Seconds running, to a tenth: strictly increasing, as the spec asks.
    const progress = Math.max(last + 0.1, Math.round((performance.now() - t0) / 100) / 10);
    last = progress;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress, message: `${label}: running for ${progress.toFixed(1)} s` },
      })
      .catch(() => undefined);
  }, everyMs);
  return () => clearInterval(timer);
}

function elicitor(server: McpServer, extra: Extra, timeoutMs: number): AskPerson | undefined {
  if (!server.server.getClientCapabilities()?.elicitation) return undefined;
  return async (message, signal) => {
    // Sent as part of the tool call (relatedRequestId), so Streamable HTTP routes it on the call's stream.
    const r = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          message,
          requestedSchema: {
            type: 'object',
            properties: {
              approve: { type: 'boolean', title: 'Let the robot do this', default: false },
              note: { type: 'string', title: 'A note for the agent (optional)' },
            },
            required: ['approve'],
          },
        },
      },
      ElicitResultSchema,
      { signal, timeout: timeoutMs },
    );
    const note = typeof r.content?.['note'] === 'string' && r.content['note'].trim() ? r.content['note'].trim() : undefined;
    if (r.action !== 'accept') return { approved: false, note: note ?? `the person chose "${r.action}"` };
    return { approved: r.content?.['approve'] === true, ...(note ? { note } : {}) };
  };
}

function toCallResult(r: ToolResult, robot: FleetRobot): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: r.content }];
  let data = jsonSafe(r.data);
  if (r.images?.length) {
    // The picture travels once, as image content; the structured result says where to read it again.
    const uri = resourceUri(robot.name, 'camera');
    for (const i of r.images) content.push({ type: 'image', data: i.data, mimeType: i.mimeType });
    content.push({
      type: 'resource_link',
      uri,
      name: `${robot.name}-camera`,
      mimeType: r.images[0]!.mimeType,
      description: 'the camera now',
    });
    const picture = PictureData.safeParse(r.data);
    if (picture.success) data = { picture: { ...picture.data.picture, uri } };
  }
  return {
    content,
    structuredContent: { ok: r.ok, result: r.content, ...(data !== undefined ? { data } : {}) },
    ...(r.ok ? {} : { isError: true }),
  };
}

function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: { ok: false, result: text }, isError: true };
}

/** Builds one MCP server over the fleet (HTTP makes one per session; each keeps its own tool scratch state). */
export function createMcpServer(o: SkillbridgeMcpOptions): McpServer {
  const server = new McpServer(
    { name: 'skillbridge', title: 'Skillbridge robots', version: o.version },
    {
      capabilities: { tools: {}, resources: {}, logging: {} },
      // Tool inputs are small; a client flooding arrays is refused before validation.
      maxToolInputElements: 10_000,
      instructions: instructions(o.fleet),
    },
  );
  const prefixed = o.fleet.robots.length > 1;
  const progressMs = o.progressEveryMs ?? 500;
  const unsubscribe: Array<() => void> = [];
  for (const r of o.fleet.robots) {
    // What the person accepted at start (--accept-no-estop) is the robot trace's first safety record.
    r.safety.startRecord({ via: 'mcp', report: (d) => o.trace?.safety(r.name, d) });
    const state = new Map<string, unknown>();
    const simulated = r.sim !== undefined;
    for (const tool of r.tools) {
      const name = r.toolName(tool);
      server.registerTool(
        name,
        {
          title: annotationsFor(tool, { simulated }).title,
          description: describeForMcp(tool, prefixed ? { name: r.name, title: r.robot.info.name } : undefined),
          inputSchema: tool.params ?? z.object({}),
          outputSchema: Result,
          annotations: annotationsFor(tool, { simulated }),
          _meta: { [CARD_META]: tool.card, 'skillbridge/category': tool.category, 'skillbridge/robot': r.name },
        },
        (args: unknown, extra: Extra) => runCall(server, o, r, tool, name, args, extra, state, progressMs),
      );
    }
    registerRobotResources(server, r, prefixed);
    // Events flow from the robot to the client as log messages (the client sets the level).
    unsubscribe.push(
      r.robot.events.subscribe((e) => {
        if (!server.isConnected()) return;
        server
          .sendLoggingMessage({
            level: /estop|battery|dropped|fail/.test(e.type) ? 'warning' : 'info',
            logger: r.name,
            data: { id: e.id, time: e.time, type: e.type, text: e.text },
          })
          .catch(() => undefined);
      }),
    );
  }
  server.server.onclose = () => {
    for (const u of unsubscribe) u();
  };
  return server;
}

async function runCall(
  server: McpServer,
  o: SkillbridgeMcpOptions,
  r: FleetRobot,
  tool: Tool,
  name: string,
  args: unknown,
  extra: Extra,
  state: Map<string, unknown>,
  progressMs: number,
): Promise<CallToolResult> {
  const id = `mcp-${++callCounter}`;
  const client = server.server.getClientVersion()?.name;
  const started = performance.now();
  const finish = (status: ToolStatus, ok: boolean, text: string, data?: unknown) =>
    o.trace?.result(r.name, id, tool.name, { status, ok, text, durationMs: Math.round(performance.now() - started), data });
  o.trace?.call(r.name, id, tool.name, args, client);
  const bytes = Buffer.byteLength(JSON.stringify(args ?? {}));
  if (bytes > MAX_ARGUMENT_BYTES) {
    const text = `Not run: the arguments of ${name} are ${bytes} bytes; the limit is ${MAX_ARGUMENT_BYTES} (robot tools take names and numbers).`;
    finish('invalid_arguments', false, text);
    return refusal(text);
  }
  const stopProgress = progressTicker(extra, name, progressMs);
  try {
    if (tool.category === 'action') {
      const auth = await authorizeAction(
        { callId: id, robot: r.name, tool, name, args, signal: extra.signal },
        o.approve,
        elicitor(server, extra, o.approvalTimeoutMs ?? 10 * 60_000),
      ).catch((e: unknown) => ({
        run: false as const,
        decision: { decision: 'rejected' as const, note: `approval failed: ${(e as Error).message}`, waitedMs: 0 },
        text: `Not run: asking for approval of ${name} failed (${(e as Error).message}).`,
      }));
      o.trace?.approval(r.name, id, tool.name, args, auth.decision);
      if (!auth.run) {
        finish(auth.decision.decision, false, auth.text);
        return refusal(auth.text);
      }
    }
    if (extra.signal.aborted) {
      finish('stopped', false, 'cancelled by the client before it ran');
      return refusal(`Not run: ${name} was cancelled.`);
    }
    let result: ToolResult;
    try {
      // Every skill the tool asks of the robot passes the robot's safety chain
      // (finite numbers, workspace, clamps, e-stop, battery, rate); the call
      // itself was approved above, so the chain asks nobody again.
      const robot = r.safety.guard({
        via: 'mcp',
        tool: tool.name,
        callId: id,
        approval: 'auto',
        report: (d) => o.trace?.safety(r.name, d),
        diverged: (d) => o.trace?.divergence(r.name, d),
      });
      result = await tool.run(args, { robot, signal: extra.signal, state });
    } catch (e) {
      const text = `${name} raised an error: ${(e as Error).message}. Check the arguments and try again, or use another tool.`;
      finish('exception', false, text);
      return refusal(text);
    }
    finish(extra.signal.aborted ? 'stopped' : result.ok ? 'ok' : 'failed', result.ok, result.content, result.data);
    return toCallResult(result, r);
  } finally {
    stopProgress();
  }
}

function instructions(fleet: Fleet): string {
  const robots = fleet.robots.map((r) => `${r.name}: ${r.robot.info.name} in ${r.robot.info.scene.title} (tools: ${r.set})`);
  return [
    `Skillbridge robots: ${robots.join('; ')}.`,
    fleet.robots.length > 1 ? 'Tool names start with the robot\'s name and "__".' : '',
    "Information tools only look; action tools move the robot and may need a person's approval.",
    `Read ${fleet.robots.map((r) => resourceUri(r.name, 'snapshot')).join(', ')} for what the robot perceives now.`,
    fleet.readOnly ? 'This server is read-only: no acting tools are offered.' : '',
  ]
    .filter(Boolean)
    .join(' ');
}
