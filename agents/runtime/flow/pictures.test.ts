// A model that sees gets the robot's camera: the tool is offered, its picture is
// sent on the wire as an image part in a user message after the tool messages
// (what the real `openai` client posts), and the trace keeps the picture as a
// file beside it, never inlined. A text model is offered no camera.
import { afterEach, describe, expect, it } from 'vitest';
import { openSim } from '../../../robot/sim/open';
import { serverPerTest } from '../../../test/support/model-tests';
import { model } from '../../../test/support/openai-adapter';
import { MemorySink, Trace } from '../trace';
import { runFlow } from './run-flow';
import { CAMERA_TOOL } from '../../tools/camera';
import fc from 'fast-check';
import type { ChatMessage, ImagePart } from '../../models/model';
import { fuzzRuns, fuzzSeed } from '../../../test/fuzz/support/budget';
import { dropOlderPictures } from './pictures';
import { defineTool } from '../../tools/tool';
import { z } from 'zod';

const start = serverPerTest();
const echo = defineTool({
  name: 'echo',
  description: 'Says its text back.',
  category: 'information',
  params: z.strictObject({ text: z.string() }),
  card: { outputs: 'the text', whenToUse: 'never', dimension: 'cognition' },
  execute: ({ text }) => ({ ok: true, content: text }),
});
const closers: Array<() => void> = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

type Part = { type: string; text?: string; image_url?: { url: string } };
type Sent = { role: string; content: string | Part[] | null; tool_call_id?: string };

async function fruits() {
  const h = await openSim('tabletop/fruits');
  closers.push(() => h.control.world.dispose());
  return h.robot;
}

describe('pictures in the loop', () => {
  it('sends the camera picture to a model that reads images, as an image part after the tool messages', async () => {
    const s = await start([{ toolCalls: [{ id: 'c1', name: CAMERA_TOOL, arguments: { width: 64 } }] }, { content: 'A lemon on a table.' }]);
    const robot = await fruits();
    const sink = new MemorySink();
    const messages: ChatMessage[] = [{ role: 'user', content: 'What do you see?' }];
    const r = await runFlow({
      model: model(s, { input: 'images' }),
      messages,
      tools: () => [echo],
      robot,
      trace: new Trace({ sinks: [sink] }),
    });
    expect(r.final).toBe('A lemon on a table.');
    const [first, second] = s.chatRequests().map((q) => q.body as { tools?: Array<{ function: { name: string } }>; messages: Sent[] });
    expect(first!.tools?.map((t) => t.function.name)).toEqual(['echo', CAMERA_TOOL]);
    const sent = second!.messages;
    const toolAt = sent.findIndex((m) => m.role === 'tool');
    expect(sent[toolAt]!.content).toMatch(/^Camera picture taken \(64×48 PNG/);
    const after = sent[toolAt + 1]!;
    expect(after.role).toBe('user');
    const parts = after.content as Part[];
    expect(parts[0]).toMatchObject({ type: 'text' });
    expect(parts[1]!.type).toBe('image_url');
    const url = parts[1]!.image_url!.url;
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    const png = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');

    // The trace names the picture by reference and holds its bytes beside it, not in a record.
    const result = sink.records.find((x) => x.type === 'tool_result');
    expect(result).toMatchObject({ name: CAMERA_TOOL, images: [{ mimeType: 'image/png', width: 64, height: 48 }] });
    const ref = (result as { images: Array<{ ref: string }> }).images[0]!.ref;
    expect(sink.files.get(ref)?.equals(png)).toBe(true);
    expect(JSON.stringify(sink.lines)).not.toContain(url.slice(22, 80));
  });

  it('offers no camera to a text model, and sends no image part', async () => {
    const s = await start([{ content: 'I cannot see.' }]);
    const robot = await fruits();
    await runFlow({ model: model(s), messages: [{ role: 'user', content: 'What do you see?' }], tools: () => [echo], robot });
    const body = s.chatRequests()[0]!.body as { tools?: Array<{ function: { name: string } }>; messages: Sent[] };
    expect(body.tools?.map((t) => t.function.name)).toEqual(['echo']);
    expect(body.messages.every((m) => typeof m.content === 'string')).toBe(true);
  });
});

describe('older pictures', () => {
  const img = (n: number): ImagePart => ({ mimeType: 'image/png', data: `p${n}` });
  it('keeps the last pictures attached, and only those, whatever the history', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 12 }), fc.integer({ min: 0, max: 5 }), (counts, keep) => {
        let n = 0;
        const messages: ChatMessage[] = counts.map((k, i) =>
          k === 0
            ? { role: 'assistant', content: `a${i}` }
            : { role: 'user', content: `u${i}`, images: Array.from({ length: k }, () => img(n++)) },
        );
        const text = (m: ChatMessage) => m.content ?? '';
        const before = messages.map(text);
        dropOlderPictures(messages, keep);
        const attached = messages.flatMap((m) => (m.role === 'user' ? (m.images ?? []) : [])).map((i) => i.data);
        // The newest `keep` pictures, in order; nothing else.
        expect(attached).toEqual(Array.from({ length: n }, (_, i) => `p${i}`).slice(Math.max(0, n - keep)));
        // Every message keeps its text; one that lost a picture says so.
        expect(messages.map((m, i) => text(m).slice(0, before[i]!.length))).toEqual(before);
        messages.forEach((m, i) => {
          if (text(m) !== before[i]) expect(text(m)).toMatch(/^u\d+ \(\d+ older pictures? (is|are) no longer attached\.\)$/);
        });
      }),
      { numRuns: fuzzRuns(200), seed: fuzzSeed(43) },
    );
  });
});
