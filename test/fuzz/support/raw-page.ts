// A page as a hostile one is: a raw WebSocket on the web server's API that
// sends any request body (no client-side validation), and collects every text
// the host sends back (replies and events) so none can quote a host file.
import WebSocket from 'ws';

export interface RawReply {
  ok: boolean;
  value?: unknown;
  error?: { code: string; message: string };
}

export interface RawPage {
  call(method: string, request: unknown, timeoutMs: number): Promise<RawReply | 'timeout'>;
  /** Every text frame received since the last call to `texts()`. */
  texts(): string[];
  close(): void;
}

export async function openRawPage(url: string): Promise<RawPage> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_q, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  let next = 1;
  const pending = new Map<number, (r: RawReply) => void>();
  let texts: string[] = [];
  ws.on('message', (data, binary) => {
    if (binary) return;
    const text = String(data);
    texts.push(text);
    let m: { t?: string; id?: number; ok?: boolean; value?: unknown; error?: RawReply['error'] };
    try {
      m = JSON.parse(text) as typeof m;
    } catch {
      return;
    }
    if (m.t === 'reply' && typeof m.id === 'number') {
      pending.get(m.id)?.({ ok: m.ok === true, value: m.value, ...(m.error ? { error: m.error } : {}) });
      pending.delete(m.id);
    }
  });
  return {
    call: (method, request, timeoutMs) =>
      new Promise((resolve) => {
        const id = next++;
        const t = setTimeout(() => {
          pending.delete(id);
          resolve('timeout');
        }, timeoutMs);
        pending.set(id, (r) => {
          clearTimeout(t);
          resolve(r);
        });
        ws.send(JSON.stringify({ t: 'call', id, method, request }));
      }),
    texts: () => {
      const out = texts;
      texts = [];
      return out;
    },
    close: () => ws.close(),
  };
}
