// An oversized stdio message is answered under its own id (first or last in the
// line, as clients write it), so the client's call fails at once, not after its timeout.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { guardLines, idOfEnds } from './stdio';

function answersTo(line: string, maxBytes = 1000): Promise<unknown> {
  const input = new PassThrough();
  const out = new PassThrough();
  guardLines(input, out, () => undefined, maxBytes).resume();
  const answer = new Promise<unknown>((resolve) => out.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()))));
  // In pieces, as a pipe delivers a large message.
  for (let i = 0; i < line.length; i += 300) input.write(line.slice(i, i + 300));
  input.write('\n');
  return answer;
}

describe('oversized stdio messages', () => {
  it('are answered with the id the client waits on, where it stands last (the SDK) or first', async () => {
    const last = `{"method":"tools/call","params":{"name":"x","arguments":{"s":"${'y'.repeat(5000)}"}},"jsonrpc":"2.0","id":41}`;
    expect(await answersTo(last)).toMatchObject({ id: 41, error: { code: -32600 } });
    const first = `{"jsonrpc":"2.0","id":"call-7","method":"tools/call","params":{"s":"${'y'.repeat(5000)}"}}`;
    expect(await answersTo(first)).toMatchObject({ id: 'call-7', error: { code: -32600 } });
  });

  it('does not take an id nested in the params for the message own', () => {
    expect(idOfEnds('{"method":"x","params":{"id":3,', '"z"}}')).toBe(null);
  });
});
