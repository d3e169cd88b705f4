// stdio in front of the SDK's transport. The SDK drops a line that is not JSON
// without a word and closes the session when a message passes 10 MB; here a
// line that is not JSON gets a JSON-RPC parse error, and a line over the limit
// is skipped to its end and answered with an error naming the size — under the
// request's own id, read from the line's first and last bytes, so the client's
// call fails at once instead of waiting out its timeout — and a client's bad
// message costs that message only.
import type { Readable, Writable } from 'node:stream';
import { Transform } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

export const MAX_MESSAGE_BYTES = 1024 * 1024;

function errorLine(code: number, message: string, id: string | number | null = null): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;
}

function idOf(value: unknown): string | number | null {
  const id = value && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

const ID = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
const ID_LAST = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*\}\s*$`);

/** The id of a message too large to parse, when it stands first or last at its top level (as clients write it); else null. */
export function idOfEnds(head: string, tail: string): string | number | null {
  const m = ID_FIRST.exec(head) ?? ID_LAST.exec(tail);
  if (!m) return null;
  try {
    return JSON.parse(m[1]!) as string | number;
  } catch {
    return null;
  }
}

/** Passes whole JSON lines through; answers the others on `out` and tells `log`. */
export function guardLines(input: Readable, out: Writable, log: (line: string) => void, maxBytes = MAX_MESSAGE_BYTES): Readable {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = 0;
  // The first and last bytes of a line being skipped: where its id is.
  let head = '';
  let tail = '';
  const tooLarge = (bytes: number) => {
    log(`refused a message of ${bytes} bytes (the limit is ${maxBytes})`);
    out.write(errorLine(-32600, `Invalid Request: the message is ${bytes} bytes; the limit is ${maxBytes} bytes`, idOfEnds(head, tail)));
    head = '';
    tail = '';
  };
  const guard = new Transform({
    transform(chunk: Buffer, _enc, done) {
      let start = 0;
      while (start < chunk.length) {
        const nl = chunk.indexOf(0x0a, start);
        const end = nl === -1 ? chunk.length : nl + 1;
        const piece = chunk.subarray(start, end);
        start = end;
        if (skipping || pendingBytes + piece.length > maxBytes + 1) {
          if (!skipping)
            head = Buffer.concat([...pending, piece.subarray(0, 512)])
              .subarray(0, 512)
              .toString('utf8');
          tail = (tail + piece.subarray(Math.max(0, piece.length - 512)).toString('utf8')).slice(-512);
          skipping = (skipping || pendingBytes) + piece.length;
          pending = [];
          pendingBytes = 0;
          if (nl !== -1) {
            tooLarge(skipping);
            skipping = 0;
          }
          continue;
        }
        if (nl === -1) {
          pending.push(piece);
          pendingBytes += piece.length;
          continue;
        }
        const line = pending.length ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        pendingBytes = 0;
        const text = line.toString('utf8').trim();
        if (!text) continue;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          log(`refused a line that is not JSON: ${text.slice(0, 80)}`);
          out.write(errorLine(-32700, 'Parse error: the line is not valid JSON (send one JSON-RPC message per line)'));
          continue;
        }
        if (!JSONRPCMessageSchema.safeParse(value).success) {
          log(`refused a message that is not JSON-RPC 2.0: ${text.slice(0, 80)}`);
          out.write(errorLine(-32600, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response', idOf(value)));
          continue;
        }
        this.push(line);
      }
      done();
    },
  });
  input.pipe(guard);
  return guard;
}

/** The SDK's stdio transport over guarded stdin; `closed` settles when stdin ends. */
export function guardedStdio(log: (line: string) => void): { transport: StdioServerTransport; closed: Promise<void> } {
  const input = guardLines(process.stdin, process.stdout, log);
  const closed = new Promise<void>((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
  });
  return { transport: new StdioServerTransport(input, process.stdout), closed };
}
