// The trace as a subscriber: turns a run's events into trace records. Streaming
// deltas (text, reasoning) and iteration markers are for live views only; the
// records keep the whole messages. Earlier turns' messages are stamped once and
// reused, so a long conversation re-writes its history into each run's trace
// without re-serialising it.
import { createHash } from 'node:crypto';
import type { ChatMessage, ImagePart } from '../models/model';
import type { EventStream, FlowEvent } from './events';
import type { Trace, TraceEvent, TraceRecord } from './trace';

const PRIOR_RECORDS = new WeakMap<ChatMessage, TraceEvent>();

function priorRecord(m: Exclude<ChatMessage, { role: 'tool' }>, stage: { stage?: string }): TraceEvent {
  let rec = PRIOR_RECORDS.get(m);
  if (!rec) {
    // Fields added one by one in a fixed order: records built by spreading got a hidden class of their own
    // each, and a long conversation kept three new ones a turn, which every young-generation GC copied.
    const r = messageEvent(m, stage) as unknown as Record<string, unknown>;
    r['prior'] = true;
    r['t'] = new Date().toISOString();
    r['elapsedMs'] = 0;
    rec = r as unknown as TraceEvent;
    PRIOR_RECORDS.set(m, rec);
  }
  return rec;
}

/**
 * The records of a history's earlier messages as last made, per history (by its
 * first message): a turn checks its earlier messages are the same ones and makes
 * records only for those added since.
 */
const PRIOR_HISTORY = new WeakMap<ChatMessage, { messages: ChatMessage[]; records: TraceEvent[]; counts: number[] }>();

function historyRecords(
  messages: readonly ChatMessage[],
  newFrom: number,
  stage: { stage?: string },
): { prior: readonly TraceEvent[]; fresh: TraceEvent[] } {
  const first = messages[0];
  if (first === undefined) return { prior: [], fresh: [] };
  let c = PRIOR_HISTORY.get(first);
  if (!c) PRIOR_HISTORY.set(first, (c = { messages: [], records: [], counts: [] }));
  // counts[i]: records made from messages[0..i] (tool results make none).
  let keep = 0;
  while (keep < c.messages.length && keep < newFrom && c.messages[keep] === messages[keep]) keep++;
  c.messages.length = keep;
  c.counts.length = keep;
  c.records.length = keep ? c.counts[keep - 1]! : 0;
  for (let i = keep; i < newFrom && i < messages.length; i++) {
    const m = messages[i]!;
    // Earlier tool results are in earlier traces.
    if (m.role !== 'tool') c.records.push(priorRecord(m, stage));
    c.messages.push(m);
    c.counts.push(c.records.length);
  }
  // The prior records are the cached list itself (read at once, never kept): copying it made each turn's cost grow with the conversation.
  const fresh: TraceEvent[] = [];
  for (let i = Math.max(newFrom, 0); i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'tool') fresh.push(messageEvent(m, stage));
  }
  return { prior: c.records, fresh };
}

/** A history message as a record (tool results excepted). */
function messageEvent(m: Exclude<ChatMessage, { role: 'tool' }>, stage: { stage?: string }): TraceEvent {
  const e: Extract<TraceEvent, { type: 'message' }> = { type: 'message', role: m.role, content: m.content ?? null };
  if (m.role === 'assistant' && m.tool_calls?.length) e.tool_calls = m.tool_calls;
  if (stage.stage !== undefined) e.stage = stage.stage;
  return e;
}

/** The trace record(s) for one event; none for live-only events. */
/** Keeps one picture beside the trace; returns its reference (see Trace.attach). */
export type Attach = (name: string, bytes: Buffer) => string | undefined;

export function toRecords(e: FlowEvent, attach?: Attach): TraceEvent[] {
  const stage = e.stage ? { stage: e.stage } : {};
  switch (e.type) {
    case 'history': {
      const h = historyRecords(e.messages, e.newFrom, stage);
      return [...h.prior, ...h.fresh];
    }
    case 'assistant':
      return [
        {
          type: 'message',
          role: 'assistant',
          content: e.message.content ?? null,
          ...(e.message.tool_calls?.length ? { tool_calls: e.message.tool_calls } : {}),
          ...(e.reasoning ? { reasoning: e.reasoning } : {}),
          iteration: e.iteration,
          ...(e.usage ? { usage: e.usage } : {}),
          ...stage,
        },
      ];
    case 'route':
      return [{ type: 'route', route: e.route, ...(e.usage ? { usage: e.usage } : {}), ...stage }];
    case 'retry':
      return [{ type: 'retry', iteration: e.iteration, attempt: e.attempt, delayMs: e.delayMs, reason: e.reason, ...stage }];
    case 'tool_start':
      return [
        {
          type: 'tool_call',
          id: e.id,
          name: e.name,
          arguments: e.arguments,
          iteration: e.iteration,
          ...(e.parent ? { parent: e.parent } : {}),
          ...stage,
        },
      ];
    case 'tool_end':
      return [
        {
          type: 'tool_result',
          id: e.id,
          name: e.name,
          ok: e.ok,
          status: e.status,
          ...(e.ok ? { result: e.content } : { error: e.content }),
          durationMs: e.durationMs,
          ...(e.data !== undefined ? { data: e.data } : {}),
          ...(e.images?.length ? { images: imageRecords(e.id, e.stage, e.images, attach) } : {}),
          ...(e.parent ? { parent: e.parent } : {}),
          ...stage,
        },
      ];
    case 'approval':
      return [
        {
          type: 'approval',
          id: e.id,
          tool: e.name,
          args: e.args,
          decision: e.decision,
          ...(e.note !== undefined ? { note: e.note } : {}),
          ...(e.waitedMs !== undefined ? { waitedMs: e.waitedMs } : {}),
          ...stage,
        },
      ];
    case 'warning':
      return [
        {
          type: 'warning',
          code: e.code,
          message: e.message,
          via: e.toolCallId ? 'tool' : 'user',
          iteration: e.iteration,
          ...(e.toolCallId ? { toolCallId: e.toolCallId } : {}),
          ...stage,
        },
      ];
    case 'stop':
      return [{ type: 'stop', reason: e.cause.kind, message: e.cause.message, ...stage }];
    case 'final':
      return [{ type: 'final', answer: e.answer, ...stage }];
    case 'error':
      return [{ type: 'error', message: e.message, ...(e.kind ? { kind: e.kind } : {}), ...(e.where ? { where: e.where } : {}), ...stage }];
    case 'end':
      return [
        {
          type: 'end',
          reason: e.reason,
          iterations: e.iterations,
          toolCalls: e.toolCalls,
          usage: e.usage,
          durationMs: e.durationMs,
          ...stage,
        },
      ];
    case 'note':
      return [{ type: 'note', text: e.text, ...(e.data !== undefined ? { data: e.data } : {}), ...stage }];
    case 'ask':
      return [{ type: 'ask', id: e.id, question: e.question, ...stage }];
    case 'safety':
    case 'divergence': {
      const { stage: _s, ...rest } = e;
      return [{ ...rest, ...stage } as TraceEvent];
    }
    case 'answer':
      return [{ type: 'answer', id: e.id, answer: e.answer, by: e.by, ...stage }];
    case 'code_run': {
      const { stage: _s, type: _t, ...run } = e;
      return [{ type: 'code_run', ...run, ...stage }];
    }
    case 'iteration':
    case 'text':
    case 'reasoning':
      return [];
  }
}

/**
 * The file name of a call's `n`th picture (from 1) beside its trace: safe on any
 * file system as it is, so every sink keeps it unchanged and a page can name the
 * picture by it (with the run's id) without naming a path. Two calls never share
 * one: a stage and call id of word characters and dots read as they are
 * (`planner-call_1-1.png`); any other (a dash, a character a file name cannot
 * hold, a long id) get "--" and a digest of the exact pair: a plain name never holds "--".
 */
export function pictureFileName(callId: string, stage: string | undefined, n: number, mimeType: string): string {
  const parts = stage === undefined ? [callId] : [stage, callId];
  const plain = parts.every((p) => /^\w[\w.]*$/.test(p)) && parts.join('-').length <= 100;
  const call = plain
    ? parts.join('-')
    : `${parts
        .join('-')
        .replace(/[^\w.-]/g, '_')
        .replace(/^[.-]+/, '_')
        .slice(0, 80)}--${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16)}`;
  return `${call}-${n}.${mimeType === 'image/png' ? 'png' : 'jpg'}`;
}

/** A tool's pictures as the trace keeps them: a file each, by reference (the bytes never go into a record). */
function imageRecords(callId: string, stage: string | undefined, images: readonly ImagePart[], attach: Attach | undefined) {
  return images.map((i, n) => {
    const bytes = Buffer.from(i.data, 'base64');
    const ref = attach?.(pictureFileName(callId, stage, n + 1, i.mimeType), bytes);
    return {
      mimeType: i.mimeType,
      ...(i.width !== undefined ? { width: i.width } : {}),
      ...(i.height !== undefined ? { height: i.height } : {}),
      ...(ref ? { ref } : {}),
      bytes: bytes.length,
    };
  });
}

/** Subscribes a trace to a run's events (those `filter` keeps); returns the unsubscribe. */
export function recordEvents(events: EventStream, trace: Trace, filter: (e: FlowEvent) => boolean = () => true): () => void {
  return events.subscribe((e) => {
    if (!filter(e)) return;
    // The history goes in one write (and keeps earlier turns' stamps); other events are one record each.
    if (e.type === 'history') {
      const h = historyRecords(e.messages, e.newFrom, e.stage ? { stage: e.stage } : {});
      trace.recordMany(h.fresh, h.prior as readonly TraceRecord[]);
    } else for (const r of toRecords(e, (name, bytes) => trace.attach(name, bytes))) trace.record(r);
  });
}
