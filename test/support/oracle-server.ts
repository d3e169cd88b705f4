// A local OpenAI-compatible server that answers as the oracle would, after a set
// latency: the oracle first runs the suite's cases in this process (no latency)
// while a tap records each request's messages and the oracle's reply; the server
// then answers a request whose messages match a recorded one with that reply
// (its tool calls, their ids and arguments verbatim, so the conversation goes on
// exactly as the oracle's did). A request it has not seen gets a 500, which the
// case records as an error: a miss is never a pass.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChatMessage, Completion, Model } from '../../agents/models/model';
import { tapModels } from '../../eval/scale/hooks';
import { type EvalOptions, runEval } from '../../eval/runner/runner';
import { TERMINAL } from '../../hosts/service/host-policy';
import { type OpenAIServer, type ReplyStep, startOpenAIServer } from './openai-server';

export type Replies = Map<string, ReplyStep>;

/** A request's conversation, as a key that is the same in process and after a trip through JSON. */
export function messagesKey(messages: readonly unknown[]): string {
  const norm = (messages as ChatMessage[]).map((m) => [
    m.role,
    m.content ?? '',
    m.role === 'assistant' ? (m.tool_calls ?? []).map((t) => [t.id, t.function.name, t.function.arguments]) : [],
    m.role === 'tool' ? m.tool_call_id : '',
  ]);
  return createHash('sha256').update(JSON.stringify(norm)).digest('hex');
}

function toStep(c: Completion): ReplyStep {
  return {
    ...(c.message.content ? { content: c.message.content } : {}),
    ...(c.toolCalls.length
      ? { toolCalls: c.toolCalls.map((t) => ({ id: t.id, name: t.function.name, arguments: t.function.arguments })) }
      : {}),
    usage: { prompt_tokens: c.usage?.promptTokens ?? 0, completion_tokens: c.usage?.completionTokens ?? 0 },
  };
}

/** Runs the oracle over the cases `opts` selects (in this thread) and keeps its replies by request. */
export async function recordOracleReplies(
  opts: Omit<EvalOptions, 'model' | 'outDir' | 'jobs' | 'suite' | 'files'> & { suite: string },
): Promise<Replies> {
  const replies: Replies = new Map();
  const untap = tapModels((m: Model): Model => ({
    id: m.id,
    async complete(req) {
      const c = await m.complete(req);
      replies.set(messagesKey(req.messages), toStep(c));
      return c;
    },
  }));
  const dir = mkdtempSync(path.join(tmpdir(), 'skillbridge-oracle-replies-'));
  try {
    await runEval({
      ...opts,
      suite: TERMINAL.suite(opts.suite),
      model: TERMINAL.model('oracle'),
      files: TERMINAL.files(),
      outDir: dir,
      jobs: 1,
    });
  } finally {
    untap();
    rmSync(dir, { recursive: true, force: true });
  }
  return replies;
}

export interface OracleServer {
  server: OpenAIServer;
  /** The model spec that reaches it. */
  spec: string;
  misses: () => number;
  calls: () => number;
  close(): Promise<void>;
}

export async function startOracleServer(replies: Replies, latencyMs: number): Promise<OracleServer> {
  let misses = 0;
  let calls = 0;
  const server = await startOpenAIServer([], {
    models: ['oracle'],
    whenEmpty: (req) => {
      calls++;
      const body = req.body as { messages?: unknown[] } | undefined;
      const step = replies.get(messagesKey(body?.messages ?? []));
      // Keep no request bodies: a benchmark sends thousands.
      req.body = undefined;
      if (!step) {
        misses++;
        return { status: 500, error: 'the oracle server has no reply recorded for this conversation' };
      }
      return { ...step, delayMs: latencyMs };
    },
  });
  return {
    server,
    spec: `openai-compatible:oracle@${server.url}`,
    misses: () => misses,
    calls: () => calls,
    close: () => server.close(),
  };
}
