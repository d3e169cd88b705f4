// Test connection answers whether the model reads images as known (it read the
// test picture, or did not) or not probed with why: never a default yes or no.
import { describe, expect, it } from 'vitest';
import { ProbeResult } from '../../contract/schemas';
import { serverPerTest } from '../../test/support/model-tests';
import type { RecordedRequest, ScriptStep } from '../../test/support/openai-server';
import { HostPolicy } from './host-policy';
import { imageInputOf, probeModelSpec } from './model-checks';

const start = serverPerTest();
const hasPicture = (r: RecordedRequest): boolean =>
  (r.body as { messages: Array<{ content: unknown }> }).messages.some((m) => Array.isArray(m.content));
const model =
  (colour: string) =>
  (r: RecordedRequest): ScriptStep =>
    hasPicture(r) ? { content: colour } : { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] };
const policy = new HostPolicy({ scriptFiles: 'none', modelsDir: '/nonexistent-models' });

describe("the app's probe result says whether the model sees images", () => {
  it('yes, no, or not probed (why), in the contract shape', async () => {
    const seeing = await start([], { whenEmpty: model('Red.') });
    const yes = await probeModelSpec(policy.model(`openai-compatible:m@${seeing.url}+images`));
    expect(ProbeResult.parse(yes).imageInput).toEqual({ known: true, value: true });

    const blind = await start([], { whenEmpty: model('I see nothing.') });
    const no = await probeModelSpec(policy.model(`openai-compatible:m@${blind.url}+images`));
    expect(no.imageInput).toEqual({ known: true, value: false });
    // The text tools, said once.
    expect(no.notes.filter((n) => /gets the text tools/.test(n))).toHaveLength(1);

    const plain = await probeModelSpec(policy.model(`openai-compatible:m@${seeing.url}`));
    expect(plain.imageInput).toEqual({ known: false, why: 'the spec does not end with "+images"' });

    const down = await probeModelSpec(policy.model('openai-compatible:m@http://127.0.0.1:1/v1+images'));
    expect(down.imageInput).toEqual({ known: false, why: 'the connection test failed before the picture' });
  });

  it('a result without imageInput is not a probe result (absent is not "no")', () => {
    const r = {
      spec: 's',
      baseURL: '',
      reachable: false,
      models: [],
      nativeToolCalls: false,
      textToolCalls: false,
      latencyMs: 0,
      notes: [],
      error: null,
    };
    expect(ProbeResult.safeParse(r).success).toBe(false);
    expect(imageInputOf('scripted:x.json', undefined, false)).toMatchObject({ known: false });
  });
});
