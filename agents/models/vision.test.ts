// Models that see. `+images` after any spec names a model that reads images
// and changes nothing else the spec says (provider, model, base URL: a key goes
// where it went without it); the adapter sends a user message's images as image
// parts after its text, byte for byte, and a history with none as plain strings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { serverPerTest } from '../../test/support/model-tests';
import { model } from '../../test/support/openai-adapter';
import type { ChatMessage, ImagePart } from './model';
import { createModel, IMAGES_SUFFIX, parseModelSpec } from './spec';

const name = fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9._/:-]{0,30}$/).filter((s) => !s.endsWith(':') && !/^https?:/.test(s));
const spec = fc.oneof(
  fc.tuple(fc.constantFrom('openai', 'ollama', 'lmstudio', 'llamacpp', 'vllm'), name).map(([p, m]) => `${p}:${m}`),
  fc.tuple(name, fc.integer({ min: 1, max: 65535 })).map(([m, port]) => `openai-compatible:${m}@http://127.0.0.1:${port}/v1`),
);

describe('+images in a model spec', () => {
  it('marks the model as reading images and leaves every other part of the spec as it was', () => {
    fc.assert(
      fc.property(spec, (s) => {
        const plain = parseModelSpec(s);
        const seeing = parseModelSpec(s + IMAGES_SUFFIX);
        expect(plain).not.toHaveProperty('input');
        expect(seeing).toEqual({ ...plain, spec: s + IMAGES_SUFFIX, input: 'images' });
        expect(createModel(s + IMAGES_SUFFIX, { env: { OPENAI_API_KEY: 'k' } }).input).toBe('images');
        expect(createModel(s, { env: { OPENAI_API_KEY: 'k' } }).input).toBeUndefined();
      }),
      { numRuns: fuzzRuns(60), seed: fuzzSeed(40) },
    );
  });

  it('names the examples a person types', () => {
    expect(parseModelSpec('ollama:qwen2.5vl:7b+images')).toMatchObject({ model: 'qwen2.5vl:7b', input: 'images' });
    expect(parseModelSpec('openai-compatible:gemma3@http://127.0.0.1:8080/v1+images')).toMatchObject({
      model: 'gemma3',
      baseURL: 'http://127.0.0.1:8080/v1',
      input: 'images',
    });
  });
});

const start = serverPerTest();
const png = fc
  .uint8Array({ minLength: 1, maxLength: 64 })
  .map((b): ImagePart => ({ mimeType: 'image/png', data: Buffer.from(b).toString('base64') }));

describe('image parts on the wire', () => {
  it("sends a user message's images after its text, byte for byte, and other messages as strings", async () => {
    const s = await start([], { whenEmpty: () => ({ content: 'ok' }) });
    const m = model(s, { input: 'images', stream: false });
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.array(png, { maxLength: 3 }), async (text, images) => {
        const before = s.chatRequests().length;
        const messages: ChatMessage[] = [
          { role: 'system', content: 'sys' },
          { role: 'user', content: text, ...(images.length ? { images } : {}) },
        ];
        await m.complete({ messages });
        const sent = (s.chatRequests()[before]!.body as { messages: Array<{ content: unknown }> }).messages;
        expect(sent[0]!.content).toBe('sys');
        if (!images.length) return void expect(sent[1]!.content).toBe(text);
        expect(sent[1]!.content).toEqual([
          { type: 'text', text },
          ...images.map((i) => ({ type: 'image_url', image_url: { url: `data:image/png;base64,${i.data}` } })),
        ]);
      }),
      { numRuns: fuzzRuns(25), seed: fuzzSeed(41) },
    );
  });
});
