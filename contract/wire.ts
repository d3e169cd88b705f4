// The message envelopes both transports use: the web-mode WebSocket (JSON text
// messages, binary pose frames) and Electron IPC (structured clone).
import { z } from 'zod';
import { ApiErrorBody } from './api';
import { AppEvent } from './schemas';

/** Client to host: call a method. `id` pairs the reply with the call. */
export const CallMessage = z
  .object({
    t: z.literal('call'),
    id: z.number().int().nonnegative(),
    method: z.string().min(1).max(64),
    request: z.unknown().optional(),
  })
  .strict();
export type CallMessage = z.infer<typeof CallMessage>;

export const ReplyMessage = z.discriminatedUnion('ok', [
  z.object({ t: z.literal('reply'), id: z.number().int(), ok: z.literal(true), value: z.unknown().optional() }),
  z.object({ t: z.literal('reply'), id: z.number().int(), ok: z.literal(false), error: ApiErrorBody }),
]);
export type ReplyMessage = z.infer<typeof ReplyMessage>;

export const EventMessage = z.object({ t: z.literal('event'), event: AppEvent });
export type EventMessage = z.infer<typeof EventMessage>;

/**
 * Sent once when a socket opens, and again when what it watches changes. `token`
 * reattaches this session after a reload (kept per tab); `id` is the public name.
 */
export const SessionMessage = z.object({
  t: z.literal('session'),
  session: z.object({ id: z.string(), token: z.string(), resumed: z.boolean() }),
  /** The session this client observes read-only, or null for its own. */
  observing: z.string().nullable(),
  /**
   * Classroom mode (serve --classroom): a group sees its own session only; the
   * teacher may list every group's session and watch any of them read-only.
   */
  role: z.enum(['solo', 'group', 'teacher']).optional(),
  /** The name this session has on the host (its own or the teacher's rename), sent again when it changes. */
  label: z.string().nullable().optional(),
});
export type SessionMessage = z.infer<typeof SessionMessage>;

/** Host to client over the WebSocket (text frames); pose frames travel as binary. */
export const ServerMessage = z.union([ReplyMessage, EventMessage, SessionMessage]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/** Renderer to main over Electron IPC; ipcRenderer.invoke pairs call and reply, so no ids. */
export const IpcCall = z.object({ method: z.string().min(1).max(64), request: z.unknown().optional() }).strict();
export type IpcCall = z.infer<typeof IpcCall>;

export const IpcReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown().optional() }),
  z.object({ ok: z.literal(false), error: ApiErrorBody }),
]);
export type IpcReply = z.infer<typeof IpcReply>;

/** Electron IPC channels: the preload's allowlist and main's handlers use these names only. */
export const IPC = {
  call: 'skillbridge:call',
  poses: 'skillbridge:poses',
  event: 'skillbridge:event',
} as const;

/** Path and query parameter of the web-mode API socket. */
export const WS_PATH = '/api';
export const TOKEN_PARAM = 'token';
/**
 * A page whose socket dropped asks here (GET, token in the header below) whether
 * its token still opens the host: 204 yes, 401 the host restarted with a new one.
 */
export const TOKEN_CHECK_PATH = '/token-check';
export const TOKEN_HEADER = 'x-skillbridge-token';
/** The tab's session token, to reattach its session after a reload. */
export const SESSION_PARAM = 'session';
/**
 * `view=hidden`: the page opening the socket cannot be seen (a background tab
 * reconnecting), so its poses start at the hidden rate, not the full one.
 */
export const VIEW_PARAM = 'view';

/** WebSocket close codes the host uses, with a reason a person can read. */
export const CLOSE = {
  /** A message was over the size limit (RFC 6455 "message too big"). */
  tooBig: 1009,
  /** The host runs as many sessions as it allows ("try again later"). */
  tooManySessions: 1013,
  /** Invalid UTF-8 in a text message. */
  badData: 1007,
} as const;
